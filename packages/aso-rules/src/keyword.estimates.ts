import * as stopwords from 'stopword';
import {
  normalizeTerm,
  storefrontCaseLocale,
  type TKeywordEstimate,
  type TKeywordSignal,
  type TTitleMatch,
} from '@aso/contracts';
import { storefrontLanguage } from './storefront-languages';

/**
 * Popularity and difficulty estimates of a search term from what one search read shows (the
 * result count and the top results). Nothing Apple publishes says how often a term is
 * searched; these are estimates from public signals, after the prior art of
 * facundoolano/aso (`lib/scores/difficulty.js`: title matches, ratings, installs, age of the
 * top 10; `lib/scores/traffic.js`: search hints, length) and respectaso
 * (`aso/services.py` PopularityEstimator: result count, leader strength, title-match density,
 * market depth, term specificity). docs/keywords.md explains each signal and what they
 * cannot know.
 */

/** One of the top results, as the estimates read it. */
export interface TEstimateApp {
  name: string;
  developer: string | null;
  rating: number | null;
  ratingCount: number | null;
  /** ISO 8601. */
  releasedAt: string | null;
  /** ISO 8601: release of the current version. */
  updatedAt: string | null;
}

/** What the estimates of one term read. */
export interface TEstimateInput {
  /** The normalised term. */
  term: string;
  storefront: string;
  /** How many apps the read ordered (at most 200). */
  resultCount: number;
  /** The top results in order (the first 10 are read). */
  top: readonly TEstimateApp[];
  /** Clock (ms) for ages and recency. */
  now: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const DAY_MS = 86_400_000;

/** Words of a text, case-folded for the storefront, split on anything but letters and digits. */
function words(text: string, storefront: string): string[] {
  return normalizeTerm(text, storefront)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/**
 * How a title holds a term (facundoolano/aso `getMatchType`, on whole words): `exact` when the
 * title holds the term's words in a row, `broad` when it holds every word in any order,
 * `partial` when it holds some, `none` otherwise. Case-folded with the storefront's rules.
 */
export function titleMatch(term: string, title: string, storefront: string): TTitleMatch {
  const t = words(term, storefront);
  const w = words(title, storefront);
  if (t.length === 0 || w.length === 0) return 'none';
  const phrase = ` ${t.join(' ')} `;
  if (` ${w.join(' ')} `.includes(phrase)) return 'exact';
  const have = new Set(w);
  const hits = t.filter((x) => have.has(x)).length;
  if (hits === t.length) return 'broad';
  return hits > 0 ? 'partial' : 'none';
}

/** 0-100 on a log10 scale of a count: 10^`fullAt` counts or more score 100. */
const logScore = (count: number, fullAt: number) =>
  count <= 0 ? 0 : clamp((Math.log10(count) / fullAt) * 100, 0, 100);

const median = (xs: number[]): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function estimate(signals: TKeywordSignal[], lo: number): TKeywordEstimate {
  const value = signals.reduce((sum, s) => sum + s.value * s.weight, 0);
  return {
    value: clamp(Math.round(value), lo, 100),
    label: 'estimate',
    signals: signals.map((s) => ({ ...s, value: Math.round(s.value) })),
  };
}

/** Title-match score of the top 10 (facundoolano/aso weights 10/5/2.5 per match), 0-100. */
function titleMatchScore(input: TEstimateInput, top: readonly TEstimateApp[]): number {
  if (top.length === 0) return 0;
  const points = { exact: 10, broad: 5, partial: 2.5, none: 0 };
  const sum = top.reduce(
    (acc, a) => acc + points[titleMatch(input.term, a.name, input.storefront)],
    0,
  );
  return (sum / top.length) * 10;
}

/**
 * Popularity estimate, 1-100 (`label: 'estimate'`): how often the term may be searched,
 * weighted from
 * - `resultCount` (0.25): results of 200 the store holds for it (a broad term fills all 200);
 * - `leaderRatings` (0.35): ratings count of the strongest of the top 5 (log scale, 1 M = 100):
 *   popular terms draw strong apps;
 * - `titleMatches` (0.2): developers put searched terms in their titles (10/5/2.5 points for an
 *   exact/broad/partial match, as facundoolano/aso scores them);
 * - `termLength` (0.2): each word more narrows the searches (1 word 100, 2 75, 3 45, 4 25,
 *   5+ 10; respectaso's specificity penalty).
 * A term without results is 1.
 */
export function estimatePopularity(input: TEstimateInput): TKeywordEstimate {
  const top = input.top.slice(0, 10);
  const leader = Math.max(0, ...top.slice(0, 5).map((a) => a.ratingCount ?? 0));
  const wordCount = words(input.term, input.storefront).length;
  const lengthScore = [100, 100, 75, 45, 25][wordCount] ?? 10;
  const signals: TKeywordSignal[] = [
    {
      name: 'resultCount',
      value: clamp((input.resultCount / 200) * 100, 0, 100),
      weight: 0.25,
    },
    { name: 'leaderRatings', value: logScore(leader, 6), weight: 0.35 },
    { name: 'titleMatches', value: titleMatchScore(input, top), weight: 0.2 },
    { name: 'termLength', value: lengthScore, weight: 0.2 },
  ];
  if (input.resultCount === 0 || top.length === 0) {
    return { value: 1, label: 'estimate', signals: signals.map((s) => ({ ...s, value: 0 })) };
  }
  return estimate(signals, 1);
}

/**
 * Difficulty estimate, 0-100 (`label: 'estimate'`): how hard the top 10 are to overtake,
 * weighted from
 * - `titleMatches` (0.3): leaders that target the term in their title;
 * - `leaderRatings` (0.3): median ratings count of the top 10 (log scale, 100 k = 100);
 * - `averageRating` (0.15): their average rating (5 stars = 100);
 * - `updateRecency` (0.1): share of them updated in the last 180 days (maintained apps);
 * - `leaderAge` (0.05): median years since their first release (8 years = 100);
 * - `publisherConcentration` (0.1): how few publishers hold the top 10 (one publisher's
 *   brand term is hard to enter).
 * A term without results is 0.
 */
export function estimateDifficulty(input: TEstimateInput): TKeywordEstimate {
  const top = input.top.slice(0, 10);
  const n = top.length;
  const rated = top.map((a) => a.rating).filter((r): r is number => r !== null);
  const updated = top.filter(
    (a) => a.updatedAt && input.now - Date.parse(a.updatedAt) <= 180 * DAY_MS,
  ).length;
  const ages = top
    .map((a) => (a.releasedAt ? (input.now - Date.parse(a.releasedAt)) / (365.25 * DAY_MS) : null))
    .filter((y): y is number => y !== null && Number.isFinite(y));
  const publishers = new Set(top.map((a) => (a.developer ?? a.name).toLowerCase())).size;
  const signals: TKeywordSignal[] = [
    { name: 'titleMatches', value: titleMatchScore(input, top), weight: 0.3 },
    {
      name: 'leaderRatings',
      value: logScore(median(top.map((a) => a.ratingCount ?? 0)), 5),
      weight: 0.3,
    },
    {
      name: 'averageRating',
      value: rated.length ? (rated.reduce((a, b) => a + b, 0) / rated.length / 5) * 100 : 0,
      weight: 0.15,
    },
    { name: 'updateRecency', value: n ? (updated / n) * 100 : 0, weight: 0.1 },
    { name: 'leaderAge', value: clamp((median(ages) / 8) * 100, 0, 100), weight: 0.05 },
    {
      name: 'publisherConcentration',
      value: n > 1 ? ((n - publishers) / (n - 1)) * 100 : 0,
      weight: 0.1,
    },
  ];
  if (input.resultCount === 0 || n === 0) {
    return { value: 0, label: 'estimate', signals: signals.map((s) => ({ ...s, value: 0 })) };
  }
  return estimate(signals, 0);
}

/** `stopword` names its lists by ISO 639-3 code, with a few of its own. */
const STOPWORD_LIST: Record<string, string> = { cmn: 'zho', arb: 'ara', zlm: 'msa' };

/**
 * Candidate terms from texts (competitors' titles and subtitles): every 1- to 3-word run of
 * each text, case-folded for the storefront, without runs that start or end with a stop word
 * of the storefront's language (`stopword`) or hold a word shorter than 2 characters; most
 * frequent first, then alphabetical; at most `max`.
 */
export function textNgrams(texts: readonly string[], storefront: string, max = 20): string[] {
  const iso3 = storefrontLanguage(storefront)?.iso3 ?? 'eng';
  const lists = stopwords as unknown as Record<string, string[] | undefined>;
  const stop = new Set(lists[STOPWORD_LIST[iso3] ?? iso3] ?? lists.eng ?? []);
  const counts = new Map<string, number>();
  for (const text of texts) {
    const ws = words(text, storefront);
    const seen = new Set<string>();
    for (let size = 1; size <= 3; size += 1) {
      for (let i = 0; i + size <= ws.length; i += 1) {
        const run = ws.slice(i, i + size);
        if (stop.has(run[0]!) || stop.has(run[size - 1]!)) continue;
        if (run.some((w) => [...w].length < 2)) continue;
        const gram = run.join(' ');
        if (seen.has(gram)) continue;
        seen.add(gram);
        counts.set(gram, (counts.get(gram) ?? 0) + 1);
      }
    }
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], storefrontCaseLocale(storefront)))
    .slice(0, max)
    .map(([gram]) => gram);
}
