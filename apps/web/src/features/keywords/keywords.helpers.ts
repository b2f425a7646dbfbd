/**
 * Pure rules of the keyword screens (docs/product.md#keywords): the state of a tracked term's
 * rank, the words of its read errors, the clock time of its next read, the checks of a pasted
 * list of terms, the sorting of the table and the gap matrix, and the sparkline's geometry. No
 * I/O, no React.
 */
import {
  KEYWORD_RANK_DEPTH,
  normalizeTerm,
  splitTermList,
  termProblem,
  type TKeywordGap,
  type TKeywordItem,
  type TRankSource,
  type TSuggestionSource,
  type TTitleMatch,
} from '@aso/contracts';

/** Words of each rank source: the order the screen shows. */
export const SOURCE_LABELS: Record<TRankSource, string> = {
  'itunes-search': 'iTunes Search API order',
};

/** What the screens say about the order they show (every read today is the Search API's). */
export function sourceOrderText(source: TRankSource | null = 'itunes-search'): string {
  return `${SOURCE_LABELS[source ?? 'itunes-search']}; the device's order can differ.`;
}

/** Words of each suggestion source. */
export const SUGGESTION_SOURCE_LABELS: Record<TSuggestionSource, string> = {
  'search-hints': 'store search hints',
  'competitor-title': "a competitor's title or subtitle",
  'keyword-field': 'your keyword field',
};

/** Words of each title match of a research result. */
export const TITLE_MATCH_LABELS: Record<TTitleMatch, string> = {
  exact: 'exact title match',
  broad: 'every word in the title',
  partial: 'some words in the title',
  none: 'not in the title',
};

/**
 * What a tracked term's rank cell shows, in this order of precedence:
 * - `throttled`: the store throttled the last read; the next try is at `until`;
 * - `error`: the last read failed after its retries (`rank` is the last known one, if any);
 * - `queued`: never read and no failure yet ("first read queued");
 * - `unranked`: read, and the app is not in the first 200 results;
 * - `ranked`: read, at `rank` (1-200).
 */
export type TRankState =
  | { kind: 'throttled'; until: string; rank: number | null }
  | { kind: 'error'; error: string; rank: number | null }
  | { kind: 'queued'; expectedBy: string | null }
  | { kind: 'unranked' }
  | { kind: 'ranked'; rank: number };

/** The state of a tracked term's rank (see {@link TRankState}). */
export function rankState(
  item: Pick<TKeywordItem, 'rank' | 'checkedAt' | 'lastError' | 'throttledUntil' | 'nextReadAt'>,
): TRankState {
  if (item.throttledUntil !== null)
    return { kind: 'throttled', until: item.throttledUntil, rank: item.rank };
  if (item.lastError !== null) return { kind: 'error', error: item.lastError, rank: item.rank };
  if (item.checkedAt === null) return { kind: 'queued', expectedBy: item.nextReadAt };
  if (item.rank === null) return { kind: 'unranked' };
  return { kind: 'ranked', rank: item.rank };
}

const pad = (n: number) => String(n).padStart(2, '0');
const SHORT_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

/**
 * A time as the reader's 24-hour clock ('14:05'), with the day before it when it is not today
 * ('Jul 21, 14:05'); the ISO text itself when it is not a date.
 */
export function formatClock(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const clock = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  return at.toDateString() === now.toDateString() ? clock : `${SHORT_DAY.format(at)}, ${clock}`;
}

/**
 * A read's failure in words for the screen: the store client's and the scraper's messages
 * (which name URLs and classes) turned into what happened. An unknown message is shown with
 * its URLs removed.
 */
export function readErrorInWords(error: string): string {
  const text = error.trim();
  const status = /HTTP (\d{3})/.exec(text)?.[1];
  if (/throttl|rate-limit/i.test(text))
    return `The App Store is limiting search reads${status ? ` (HTTP ${status})` : ''}; the read is tried again after a pause.`;
  if (/no results for a term that had results/i.test(text))
    return 'The App Store answered no results for a term that had results before, so nothing was recorded; it is read again within the hour.';
  if (/timed out|timeout|aborted/i.test(text))
    return 'The App Store did not answer in time; the term is read again at its next round.';
  if (/could not reach|ENOTFOUND|ECONNREFUSED|ECONNRESET|fetch failed/i.test(text))
    return 'The App Store could not be reached; the term is read again at its next round.';
  if (/malformed|cut off|larger than/i.test(text))
    return "The App Store's answer could not be read; the term is read again at its next round.";
  if (status)
    return `The App Store answered with an error (HTTP ${status}); the term is read again at its next round.`;
  return text.replace(/https?:\/\/\S+/g, 'the store').replace(/\s+/g, ' ');
}

/** A rank as shown: '#3'. */
export const rankText = (rank: number) => `#${rank}`;

/**
 * The 7-day move of a rank (`change7d`: the rank 7 days ago minus now; positive is up): its
 * direction and words ('up 3', 'down 12', 'no change', 'not known yet' when null).
 */
export function changeOf(change7d: number | null): {
  direction: 'up' | 'down' | 'same' | 'unknown';
  text: string;
} {
  if (change7d === null) return { direction: 'unknown', text: 'not known yet' };
  if (change7d > 0) return { direction: 'up', text: `up ${change7d}` };
  if (change7d < 0) return { direction: 'down', text: `down ${-change7d}` };
  return { direction: 'same', text: 'no change' };
}

/** The best-ranked watched competitor of a term in its last read, or null when none ranks. */
export function topCompetitor(
  item: Pick<TKeywordItem, 'competitors'>,
): TKeywordItem['competitors'][number] | null {
  let best: TKeywordItem['competitors'][number] | null = null;
  for (const c of item.competitors) {
    if (c.rank !== null && (best === null || c.rank < (best.rank ?? Infinity))) best = c;
  }
  return best;
}

/** What a pasted list of terms holds, checked as the server will (normalised per storefront). */
export interface TPastedTerms {
  /** The terms to send, normalised, duplicates merged, first-seen order. */
  terms: string[];
  /** Entries that cannot be tracked, as typed, with why ('is longer than 100 characters'). */
  problems: { term: string; problem: string }[];
  /** Terms of the list already tracked for this app and storefront. */
  alreadyTracked: string[];
}

/**
 * Checks a pasted list (commas or new lines between terms) with the contracts' rules
 * ({@link normalizeTerm}, {@link termProblem}): which terms would be tracked, which entries are
 * refused and why, and which are tracked already.
 */
export function checkPastedTerms(
  text: string,
  storefront: string,
  tracked: ReadonlySet<string>,
): TPastedTerms {
  const out: TPastedTerms = { terms: [], problems: [], alreadyTracked: [] };
  const seen = new Set<string>();
  for (const raw of splitTermList(text)) {
    const term = normalizeTerm(raw, storefront);
    const problem = termProblem(term);
    if (problem) {
      out.problems.push({ term: raw.length > 40 ? `${raw.slice(0, 40)}…` : raw, problem });
      continue;
    }
    if (seen.has(term)) continue;
    seen.add(term);
    if (tracked.has(term)) out.alreadyTracked.push(term);
    else out.terms.push(term);
  }
  return out;
}

/**
 * The term a 400 of `POST /api/keywords` names (`terms: "<term>" <problem>`), or null for
 * another refusal.
 */
export function refusedTerm(message: string): { term: string; problem: string } | null {
  const match = /^terms: "(.*)" (.+)$/su.exec(message.trim());
  return match ? { term: match[1]!, problem: match[2]! } : null;
}

/** A sort of a table: the column and the direction. */
export interface TSort<K extends string> {
  key: K;
  dir: 'asc' | 'desc';
}

/**
 * Compares two ranks for an ascending sort: better (smaller) first, a missing rank (not in
 * the top 200, unread) after every rank whatever the direction.
 */
export function compareRanks(a: number | null, b: number | null, dir: 'asc' | 'desc'): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return dir === 'asc' ? a - b : b - a;
}

const byTerm = (a: string, b: string, dir: 'asc' | 'desc') =>
  dir === 'asc' ? a.localeCompare(b) : b.localeCompare(a);

/** Columns the tracked-keywords table sorts by. */
export type TKeywordSortKey =
  'term' | 'rank' | 'change' | 'best' | 'popularity' | 'difficulty' | 'competitor';

/**
 * The tracked terms sorted by a column, ties by term. Ranks sort best first ascending; the
 * change, popularity and difficulty sort by value; missing values always last.
 */
export function sortKeywordItems(
  items: readonly TKeywordItem[],
  sort: TSort<TKeywordSortKey>,
): TKeywordItem[] {
  const value = (i: TKeywordItem): number | null => {
    switch (sort.key) {
      case 'term':
        return null;
      case 'rank':
        return i.rank;
      case 'best':
        return i.bestRank;
      case 'competitor':
        return topCompetitor(i)?.rank ?? null;
      case 'change':
        return i.change7d;
      case 'popularity':
        return i.popularity?.value ?? null;
      case 'difficulty':
        return i.difficulty?.value ?? null;
    }
  };
  return [...items].sort((a, b) => {
    if (sort.key === 'term') return byTerm(a.term, b.term, sort.dir);
    const order = compareRanks(value(a), value(b), sort.dir);
    return order !== 0 ? order : a.term.localeCompare(b.term);
  });
}

/** A column of the gap matrix: the term, the gap flag, or the app at that index of `apps`. */
export type TGapSortKey = 'term' | 'gap' | `app-${number}`;

/**
 * The tracked rows of a keyword gap sorted by a column, ties by term: by term, flagged rows
 * first (`gap`, ascending), or by one app's rank (best first ascending, missing last).
 */
export function sortGapRows(
  rows: readonly TKeywordGap['rows'][number][],
  sort: TSort<TGapSortKey>,
): TKeywordGap['rows'][number][] {
  return [...rows].sort((a, b) => {
    let order = 0;
    if (sort.key === 'term') return byTerm(a.term, b.term, sort.dir);
    if (sort.key === 'gap') order = (Number(b.gap) - Number(a.gap)) * (sort.dir === 'asc' ? 1 : -1);
    else {
      const at = Number(sort.key.slice(4));
      order = compareRanks(a.ranks[at] ?? null, b.ranks[at] ?? null, sort.dir);
    }
    return order !== 0 ? order : a.term.localeCompare(b.term);
  });
}

/**
 * The competitor that makes a gap row a gap: the best-ranked competitor in the top
 * `top` (index into the gap's `apps` and its rank), or null.
 */
export function gapLeader(
  row: Pick<TKeywordGap['rows'][number], 'ranks'>,
  top: number,
): { index: number; rank: number } | null {
  let best: { index: number; rank: number } | null = null;
  row.ranks.forEach((rank, index) => {
    if (index === 0 || rank === null || rank > top) return;
    if (best === null || rank < best.rank) best = { index, rank };
  });
  return best;
}

/** How often the tracked terms are read again while some wait for a read (ms). */
export const QUEUED_POLL_MS = 3_000;
/** ... while some wait out a throttle and none waits for a first read (ms). */
export const THROTTLED_POLL_MS = 30_000;

/**
 * How often to read the tracked terms again: every {@link QUEUED_POLL_MS} while a term waits
 * for its first read or a refresh asked for is running (`refreshingUntil`, epoch ms), every
 * {@link THROTTLED_POLL_MS} while one is throttled, never otherwise.
 */
export function keywordPollMs(
  items: readonly TKeywordItem[] | undefined,
  refreshingUntil: number | null,
  now = Date.now(),
): number | false {
  if (refreshingUntil !== null && now < refreshingUntil) return QUEUED_POLL_MS;
  if (!items) return false;
  const states = items.map((i) => rankState(i).kind);
  if (states.includes('queued')) return QUEUED_POLL_MS;
  if (states.includes('throttled')) return THROTTLED_POLL_MS;
  return false;
}

/** One segment of a sparkline: SVG `points` of consecutive read ranks. */
export interface TSparkline {
  /** Runs of consecutive ranked reads as SVG polyline points ('x,y x,y'). */
  segments: string[];
  /** Reads not in the top 200, as x positions (drawn as marks on the bottom edge). */
  unranked: number[];
  /** The last point, when the last read ranked. */
  last: { x: number; y: number } | null;
}

/**
 * The geometry of a rank sparkline `width` x `height` (px) from reads oldest first: x evenly
 * spaced, y from the best rank seen (top) to the worst (bottom), #1 always at the top when
 * seen; reads outside the top 200 break the line. A flat line sits in the middle.
 */
export function sparkline(
  points: readonly { rank: number | null }[],
  width: number,
  height: number,
  pad = 2,
): TSparkline {
  const ranks = points.map((p) => p.rank);
  const known = ranks.filter((r): r is number => r !== null);
  const min = known.length ? Math.min(...known) : 1;
  const max = known.length ? Math.max(...known) : KEYWORD_RANK_DEPTH;
  const step = points.length > 1 ? (width - 2 * pad) / (points.length - 1) : 0;
  const x = (i: number) => Math.round((pad + i * step) * 10) / 10;
  const y = (r: number) =>
    max === min
      ? height / 2
      : Math.round((pad + ((r - min) / (max - min)) * (height - 2 * pad)) * 10) / 10;
  const segments: string[] = [];
  const unranked: number[] = [];
  let run: string[] = [];
  ranks.forEach((r, i) => {
    if (r === null) {
      unranked.push(x(i));
      if (run.length) segments.push(run.join(' '));
      run = [];
      return;
    }
    run.push(`${x(i)},${y(r)}`);
  });
  if (run.length) segments.push(run.join(' '));
  const lastRank = ranks.at(-1);
  const last =
    lastRank === null || lastRank === undefined ? null : { x: x(ranks.length - 1), y: y(lastRank) };
  return { segments, unranked, last };
}

/**
 * The words of a sparkline for screen readers: 'Rank over the last 12 reads: from #8 to #3,
 * best #2' or 'not in the top 200 in the last 5 reads'.
 */
export function sparklineLabel(points: readonly { rank: number | null }[]): string {
  const ranked = points.filter((p) => p.rank !== null) as { rank: number }[];
  const n = points.length;
  const reads = `${n} read${n === 1 ? '' : 's'}`;
  if (ranked.length === 0) return `Not in the top ${KEYWORD_RANK_DEPTH} in the last ${reads}`;
  const first = points[0]!.rank;
  const last = points.at(-1)!.rank;
  const best = Math.min(...ranked.map((p) => p.rank));
  const from = first === null ? `not in the top ${KEYWORD_RANK_DEPTH}` : rankText(first);
  const to = last === null ? `not in the top ${KEYWORD_RANK_DEPTH}` : rankText(last);
  return `Rank over the last ${reads}: from ${from} to ${to}, best ${rankText(best)}`;
}

/**
 * Classes of a table's first column (the term), which stays in view while a wide table scrolls
 * sideways on a narrow screen: opaque, above the scrolled cells.
 */
export const STICKY_CELL = 'sticky left-0 z-[1] bg-card';
/** The opaque fill of a flagged gap row (and its sticky cell): warning at 12 % over the card. */
export const GAP_ROW_FILL = 'bg-[color-mix(in_oklab,var(--warning)_12%,var(--card))]';
