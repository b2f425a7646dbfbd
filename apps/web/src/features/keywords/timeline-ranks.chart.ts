/**
 * The timeline's keyword ranks (docs/product.md#keywords): which terms are charted, the
 * ECharts option of their rank history on the timeline's time axis with the listing's changes
 * marked on it, and the rank moves seen around each change. Pure, no echarts runtime.
 */
import {
  KEYWORD_RANK_DEPTH,
  KEYWORD_RANKS_MAX_DAYS,
  changeFieldLabel,
  changeKind,
  type TKeywordRanks,
  type TListingChange,
} from '@aso/contracts';
import type { TChartOption } from '@/features/dashboard/chart.options';
import { formatDateTime } from '../watchlist/watch.helpers';

const DAY_MS = 86_400_000;

/** Terms charted at most (the best ranked): more lines than this cannot be told apart. */
export const CHARTED_TERMS_MAX = 8;

/** How long after a change its rank moves are looked for (ms): rankings take days to move. */
export const MOVE_WINDOW_MS = 7 * DAY_MS;

/**
 * The range of rank history to ask for: from the timeline's first read (or `now` minus the
 * default range when it has none) to `now`, never longer than {@link KEYWORD_RANKS_MAX_DAYS}.
 * ISO 8601 both.
 */
export function ranksRange(firstReadAt: string | null, now: number): { from: string; to: string } {
  const earliest = now - KEYWORD_RANKS_MAX_DAYS * DAY_MS + DAY_MS;
  const first = firstReadAt === null ? Number.NaN : Date.parse(firstReadAt);
  const from = Number.isNaN(first) ? now - 90 * DAY_MS : Math.max(first, earliest);
  return { from: new Date(from).toISOString(), to: new Date(now).toISOString() };
}

/**
 * The terms to chart: those with a rank in the range, best ranked first (their best rank in the
 * range, then the term), at most {@link CHARTED_TERMS_MAX}.
 */
export function chartedTerms(terms: TKeywordRanks['terms']): TKeywordRanks['terms'] {
  const best = (t: TKeywordRanks['terms'][number]) =>
    Math.min(...t.points.map((p) => p.rank ?? Infinity));
  return terms
    .filter((t) => t.points.some((p) => p.rank !== null))
    .sort((a, b) => best(a) - best(b) || a.term.localeCompare(b.term))
    .slice(0, CHARTED_TERMS_MAX);
}

/** Listing changes (not store figures) grouped by the read that found them, oldest first. */
export function listingChangeMarks(
  changes: readonly TListingChange[],
): { at: number; label: string }[] {
  const byRead = new Map<string, { at: number; fields: string[] }>();
  for (const c of changes) {
    if (changeKind(c.field) !== 'listing') continue;
    const mark = byRead.get(c.snapshotId) ?? { at: Date.parse(c.detectedAt), fields: [] };
    const label = changeFieldLabel(c.field);
    if (!mark.fields.includes(label)) mark.fields.push(label);
    byRead.set(c.snapshotId, mark);
  }
  return [...byRead.values()]
    .sort((a, b) => a.at - b.at)
    .map((m) => ({
      at: m.at,
      label:
        m.fields.length > 2
          ? `${m.fields.slice(0, 2).join(', ')} +${m.fields.length - 2}`
          : m.fields.join(', '),
    }));
}

/** Line colours of the charted terms, in chart order (the HTML legend uses them too). */
export const TERM_COLORS = [
  '#2563eb',
  '#db2777',
  '#16a34a',
  '#ea580c',
  '#7c3aed',
  '#0891b2',
  '#ca8a04',
  '#475569',
];

/** The colour of the `index`-th charted term (see {@link chartedTerms}). */
export function termColor(index: number): string {
  return TERM_COLORS[index % TERM_COLORS.length]!;
}

const NO_HIDDEN: ReadonlySet<string> = new Set();

/**
 * The chart of the charted terms' ranks over [`from`, `to`]: one line per term (a read outside
 * the top 200 breaks its line), #1 at the top, and a dashed vertical line at each listing
 * change labelled with the changed fields, so a change and the rank moves after it are seen
 * together. Terms in `hidden` (hidden from the legend) are not drawn; each term keeps its colour
 * ({@link termColor} of its place among the charted terms) and the changes stay marked.
 */
export function buildKeywordRanksOption(
  ranks: Pick<TKeywordRanks, 'from' | 'to' | 'terms'>,
  changes: readonly TListingChange[],
  hidden: ReadonlySet<string> = NO_HIDDEN,
): TChartOption {
  const charted = chartedTerms(ranks.terms);
  const terms = charted
    .map((t, index) => ({ ...t, color: termColor(index) }))
    .filter((t) => !hidden.has(t.term));
  const marks = listingChangeMarks(changes);
  // The rank axis spans every charted term, so hiding one does not rescale it.
  const worst = Math.max(10, ...charted.flatMap((t) => t.points.map((p) => p.rank ?? 0)));
  return {
    animationDuration: 300,
    // The legend is HTML above the chart (the card's toggle buttons).
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      confine: true,
      valueFormatter: (v) => (typeof v === 'number' ? `#${v}` : `not in top ${KEYWORD_RANK_DEPTH}`),
      axisPointer: {
        label: { formatter: ({ value }) => formatDateTime(new Date(Number(value)).toISOString()) },
      },
    },
    xAxis: {
      type: 'time',
      min: Date.parse(ranks.from),
      max: Date.parse(ranks.to),
      axisLabel: { hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      inverse: true,
      min: 1,
      max: Math.min(KEYWORD_RANK_DEPTH, worst <= 10 ? 10 : Math.ceil(worst / 10) * 10),
      minInterval: 1,
      axisLabel: { formatter: (v: number) => (Number.isInteger(v) ? `#${v}` : '') },
      splitLine: { lineStyle: { type: 'dashed' } },
    },
    series: terms.map((t, i) => ({
      name: t.term,
      type: 'line',
      color: t.color,
      data: t.points.map((p) => [Date.parse(p.checkedAt), p.rank]),
      connectNulls: false,
      showSymbol: t.points.length <= 31,
      symbolSize: 5,
      ...(i === 0 && marks.length > 0
        ? {
            markLine: {
              silent: true,
              symbol: 'none',
              lineStyle: { type: 'dashed', color: '#64748b' },
              label: { formatter: '{b}', position: 'insideEndTop', fontSize: 10, color: '#475569' },
              data: marks.map((m) => ({ name: m.label, xAxis: m.at })),
            },
          }
        : {}),
    })),
  };
}

/** A term's rank just before a change and after it. */
export interface TRankMove {
  term: string;
  before: number | null;
  after: number | null;
}

/**
 * The rank moves around one listing change: per term, its last read at or before `previousAt`
 * (the read of the listing before the change) against its last read from `detectedAt` to
 * {@link MOVE_WINDOW_MS} after it; only terms read on both sides whose rank differs, the
 * biggest moves first (not in the top 200 counts as 201), at most `max`.
 */
export function movesAround(
  terms: TKeywordRanks['terms'],
  change: { previousAt: string; detectedAt: string },
  max = 5,
): TRankMove[] {
  const before = Date.parse(change.previousAt);
  const found = Date.parse(change.detectedAt);
  const moves: TRankMove[] = [];
  for (const t of terms) {
    const pts = t.points.map((p) => ({ at: Date.parse(p.checkedAt), rank: p.rank }));
    const b = pts.filter((p) => p.at <= before).at(-1);
    const a = pts.filter((p) => p.at >= found && p.at <= found + MOVE_WINDOW_MS).at(-1);
    if (!a || !b || a.rank === b.rank) continue;
    moves.push({ term: t.term, before: b.rank, after: a.rank });
  }
  const size = (m: TRankMove) => Math.abs((m.before ?? 201) - (m.after ?? 201));
  return moves.sort((x, y) => size(y) - size(x) || x.term.localeCompare(y.term)).slice(0, max);
}
