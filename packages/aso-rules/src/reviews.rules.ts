import * as stopwords from 'stopword';
import type {
  TAppListing,
  TRatingHistogram,
  TRecentReview,
  TRuleOutcome,
  TSectionAnalysis,
} from '@aso/contracts';
import { failed, notApplicable, passed, notJudgedSection } from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import { storefrontLanguage } from './storefront-languages';
import { keywordWords, plural } from './text.helpers';

/** Recent reviews needed before their share of 1-2 star reviews is judged. */
export const MIN_RECENT_REVIEWS = 5;
/** Negative reviews a term must appear in to count as a recurring complaint. */
export const RECURRING_COMPLAINT_MIN = 3;

// `stopword` names its lists by ISO 639-3 code, with a few of its own.
const STOPWORD_LIST: Record<string, string> = { cmn: 'zho', arb: 'ara', zlm: 'msa' };
// English words every review uses about any app, and the negations the `stopword` list keeps:
// never a complaint by themselves.
const REVIEW_WORDS = new Set([
  'app',
  'apps',
  'application',
  'please',
  'really',
  'just',
  'even',
  'get',
  'got',
  'also',
  'would',
  'could',
  'one',
  'use',
  'using',
  'used',
  'not',
  "can't",
  'cant',
  "don't",
  'dont',
  "doesn't",
  'doesnt',
  "won't",
  'wont',
  "didn't",
  'didnt',
  "isn't",
  'isnt',
  "i'm",
  'im',
  'every',
  'time',
  'times',
  'good',
  'great',
  'still',
  'keep',
  'keeps',
  'want',
  'need',
  'make',
  'makes',
  'thing',
  'things',
  'way',
  'lot',
  'much',
  'many',
  'ever',
  'never',
  'back',
  'when',
  'ago',
]);

/** Share of 1-2 star ratings in a histogram, ratio 0-1; null when it counts no rating. */
export function lowStarShare(h: TRatingHistogram): number | null {
  const total = h['1'] + h['2'] + h['3'] + h['4'] + h['5'];
  return total === 0 ? null : (h['1'] + h['2']) / total;
}

/** A term of the negative reviews: in how many it appears, a short quote, and its versions. */
export interface TComplaintTerm {
  term: string;
  reviews: number;
  quote: string;
}

/**
 * The words of a review in the storefront's language: split with `Intl.Segmenter` (so
 * Japanese, Chinese and Thai split into words too), lower-cased, without the `stopword` list of
 * that language (English when it has none), the words of the app's name, and words every review
 * uses ('app', 'please', ...). Each word once per review.
 */
export function reviewTerms(text: string, storefront: string, appName: string): string[] {
  const lang = storefrontLanguage(storefront);
  const listName = STOPWORD_LIST[lang?.iso3 ?? 'eng'] ?? lang?.iso3 ?? 'eng';
  const lists = stopwords as unknown as Record<string, string[] | undefined>;
  const stop = new Set([...(lists[listName] ?? lists.eng ?? []), ...(lists.eng ?? [])]);
  const own = new Set(keywordWords(appName));
  const segmenter = new Intl.Segmenter(lang?.tag ?? 'en', { granularity: 'word' });
  const out = new Set<string>();
  for (const s of segmenter.segment(text.toLowerCase())) {
    if (!s.isWordLike) continue;
    const w = s.segment.replace(/’/g, "'");
    if (!/\p{L}/u.test(w)) continue;
    if (/^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}']+$/u.test(w) && w.length < 3)
      continue;
    if (stop.has(w) || own.has(w) || REVIEW_WORDS.has(w)) continue;
    out.add(w);
  }
  return [...out];
}

/** The sentence of `text` holding `term`, at most 120 characters (cut with '…'). */
function quoteOf(text: string, term: string): string {
  const sentences = text.split(/(?<=[.!?。！？])\s+|\n+/u);
  const hit = sentences.find((s) => s.toLowerCase().includes(term)) ?? text;
  const chars = Array.from(hit.trim());
  return chars.length <= 120 ? chars.join('') : `${chars.slice(0, 119).join('').trimEnd()}…`;
}

/**
 * The most frequent complaint terms of the 1-2 star reviews (deterministic): terms from
 * {@link reviewTerms} counted once per review, kept when in at least 2 reviews, most reviews
 * first then alphabetical, at most `max`; each with a quote from the newest review using it.
 */
export function complaintTerms(
  reviews: readonly TRecentReview[],
  storefront: string,
  appName: string,
  max = 5,
): TComplaintTerm[] {
  const negative = reviews.filter((r) => r.rating <= 2);
  const counts = new Map<string, number>();
  const texts = negative.map((r) => [r.title ?? '', r.content ?? ''].join('. '));
  const termsOf = texts.map((t) => reviewTerms(t, storefront, appName));
  for (const terms of termsOf) for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([term, n]) => ({
      term,
      reviews: n,
      quote: quoteOf(texts[termsOf.findIndex((ts) => ts.includes(term))]!, term),
    }));
}

/** App versions the 1-2 star reviews name, with their counts, most named first. */
export function citedVersions(
  reviews: readonly TRecentReview[],
): Array<{ version: string; reviews: number }> {
  const counts = new Map<string, number>();
  for (const r of reviews)
    if (r.rating <= 2 && r.version) counts.set(r.version, (counts.get(r.version) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0], 'en', { numeric: true }))
    .map(([version, n]) => ({ version, reviews: n }));
}

const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;

/**
 * Reviews section, rules `reviews.*`: the share of 1-2 star ratings in the store's histogram
 * (`ratingCountList`), the share of 1-2 star reviews among the recent ones of the reviews feed,
 * and complaint terms that recur in them (with short quotes and the versions they cite). Not
 * judged when neither the histogram nor the feed could be read.
 */
export function reviewsSection(
  listing: Pick<TAppListing, 'ratingHistogram' | 'reviews' | 'storefront' | 'appName'>,
): TSectionAnalysis {
  const hist = listing.ratingHistogram;
  const feed = listing.reviews;
  if (!hist && !feed) {
    return notJudgedSection(
      'reviews',
      'Not judged: neither the rating histogram nor the recent reviews could be read.',
      'Neither the histogram nor the reviews could be read.',
    );
  }
  const rules: TRuleOutcome[] = [];
  const parts: string[] = [];
  const improvements: string[] = [];
  const share = hist ? lowStarShare(hist) : null;
  if (share === null) {
    rules.push(
      notApplicable(
        'reviews.histogram',
        hist ? 'The histogram counts no rating.' : 'The page shows no rating histogram.',
      ),
    );
  } else {
    const facts = { oneStar: hist!['1'], twoStars: hist!['2'], lowShare: pct(share) };
    parts.push(`${pct(share)} of all ratings are 1 or 2 stars.`);
    if (share <= 0.1)
      rules.push(passed('reviews.histogram', `${pct(share)} are 1-2 stars.`, facts));
    else
      rules.push(
        failed('reviews.histogram', `${pct(share)} are 1-2 stars.`, facts, share <= 0.2 ? 10 : 25),
      );
  }
  const recent = feed?.recent ?? [];
  if (!feed || feed.recent === undefined || recent.length < MIN_RECENT_REVIEWS) {
    const why = !feed
      ? 'The recent reviews could not be read.'
      : `Fewer than ${MIN_RECENT_REVIEWS} recent reviews.`;
    rules.push(notApplicable('reviews.recent-negative-share', why, { reviews: recent.length }));
    rules.push(notApplicable('reviews.recurring-complaints', why, { reviews: recent.length }));
    if (feed) parts.push(`The reviews feed shows ${plural(recent.length, 'recent review')}.`);
  } else {
    const negative = recent.filter((r) => r.rating <= 2);
    const ratio = negative.length / recent.length;
    const facts = { reviews: recent.length, negative: negative.length, negativeShare: pct(ratio) };
    parts.push(
      `Of the ${recent.length} most recent reviews, ${negative.length} (${pct(ratio)}) give 1 or 2 stars.`,
    );
    if (ratio <= 0.2)
      rules.push(passed('reviews.recent-negative-share', `${pct(ratio)} negative.`, facts));
    else {
      rules.push(
        failed(
          'reviews.recent-negative-share',
          `${pct(ratio)} negative.`,
          facts,
          ratio <= 0.4 ? 15 : 30,
        ),
      );
      improvements.push(
        'Answer the recent critical reviews and fix what they report: recent reviews weigh most with shoppers.',
      );
    }
    const terms = complaintTerms(recent, listing.storefront, listing.appName);
    const versions = citedVersions(recent).slice(0, 3);
    if (terms.length > 0) {
      parts.push(
        `Most frequent terms in them: ${terms.map((t) => `"${t.term}" (${t.reviews})`).join(', ')}; for example "${terms[0]!.quote}".`,
      );
    }
    if (versions.length > 0)
      parts.push(
        `Versions they name: ${versions.map((v) => `${v.version} (${v.reviews})`).join(', ')}.`,
      );
    const recurring = terms.filter((t) => t.reviews >= RECURRING_COMPLAINT_MIN);
    const tFacts = {
      terms: terms.map((t) => `${t.term} (${t.reviews})`).join(', '),
      versions: versions.map((v) => v.version).join(', '),
    };
    if (negative.length === 0)
      rules.push(notApplicable('reviews.recurring-complaints', 'No recent 1-2 star review.'));
    else if (recurring.length > 0) {
      rules.push(
        failed(
          'reviews.recurring-complaints',
          `"${recurring[0]!.term}" recurs in ${recurring[0]!.reviews} negative reviews.`,
          tFacts,
        ),
      );
      improvements.push(
        `Look into "${recurring[0]!.term}": it comes back in ${recurring[0]!.reviews} recent negative reviews.`,
      );
    } else
      rules.push(
        passed('reviews.recurring-complaints', 'No complaint term recurs 3 times.', tFacts),
      );
  }
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: recent.length >= MIN_RECENT_REVIEWS ? 'high' : 'medium',
    rules,
    textSource: 'rules',
  };
}
