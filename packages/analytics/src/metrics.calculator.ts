import type {
  TDateRange,
  TMonthlySourceFigures,
  TPeriodMetrics,
  TSourceColumns,
  TTrafficSourceId,
} from '@aso/contracts';
import {
  collectHeaders,
  findDateColumn,
  resolveSourceColumns,
  resolveTotalColumns,
  type TTotalColumns,
} from './columns.resolver';
import { isInRange, parseDate } from './date.helpers';
import { parseCellValue, toNumber } from './number.parser';
import { ALL_SOURCES } from './sources.constants';

/** A row object as the chart-data call returns it (values are numbers, text or null). */
export type TRowInput = Readonly<Record<string, unknown>>;

/** Raw counts of one source (or of all sources) over some rows. */
export type TCounts = TMonthlySourceFigures;

/** Which figures to count: one source, or the totals across sources. */
export type TScope = TTrafficSourceId | 'total';

/** Every scope: the total first, then the seven sources in source order. */
export const ALL_SCOPES: readonly TScope[] = ['total', ...ALL_SOURCES.map((s) => s.id)];

/** Position of each scope in {@link ALL_SCOPES} (and in precomputed counts). */
const SCOPE_INDEX = Object.fromEntries(ALL_SCOPES.map((scope, i) => [scope, i])) as Record<
  TScope,
  number
>;

/** Numbers per scope in precomputed counts, in this order: the fields of {@link TCounts}. */
const COUNT_FIELDS = 4;

/** One row with its parsed day (null when its date does not parse). */
export interface TDatedRow {
  day: string | null;
  row: TRowInput;
  /**
   * The row's counts of every scope when computed ahead by {@link prepareReportDataset}:
   * for the scope at position `i` of {@link ALL_SCOPES}, `counts[4i .. 4i+3]` are its
   * firstTimeDownloads, redownloads, totalDownloads and impressions, the values of
   * `countsOfRow(row, dataset, scope)`. Absent otherwise; treat as read-only.
   */
  counts?: Float64Array;
  /**
   * Bit `i` set when the row has data for the scope at position `i` of {@link ALL_SCOPES} (see
   * {@link entryHasData}), when computed ahead by {@link prepareReportDataset}.
   */
  present?: number;
}

/** Rows prepared once for all computations of a report. */
export interface TPreparedDataset {
  headers: string[];
  /** First column whose name contains 'date' (docs/product.md#entities), or null. */
  dateColumn: string | null;
  entries: TDatedRow[];
  sourceColumns: Record<TTrafficSourceId, TSourceColumns>;
  totalColumns: TTotalColumns;
  /** Whether any source has at least one column. */
  hasSourceColumns: boolean;
  /**
   * Whether every entry has a day and the days never decrease in row order (a merged dataset
   * is one row per date, ascending), so a range is one contiguous run of entries.
   */
  sortedByDay: boolean;
}

/**
 * Parses dates and resolves the columns of every source once (docs/product.md#entities). Rows
 * without a date column all get `day: null`.
 */
export function prepareDataset(rows: readonly TRowInput[]): TPreparedDataset {
  const headers = collectHeaders(rows);
  const dateColumn = findDateColumn(headers);
  const sourceColumns = Object.fromEntries(
    ALL_SOURCES.map((s) => [s.id, resolveSourceColumns(headers, s)]),
  ) as Record<TTrafficSourceId, TSourceColumns>;
  const entries: TDatedRow[] = rows.map((row) => ({
    day: dateColumn === null ? null : parseDate(row[dateColumn]),
    row,
  }));
  let sortedByDay = true;
  for (let i = 0; i < entries.length && sortedByDay; i++) {
    const day = entries[i]!.day;
    const before = i === 0 ? null : entries[i - 1]!.day;
    sortedByDay = day !== null && (before === null || before <= day);
  }
  return {
    headers,
    dateColumn,
    entries,
    sourceColumns,
    totalColumns: resolveTotalColumns(headers),
    hasSourceColumns: Object.values(sourceColumns).some((c) =>
      Object.values(c).some((column) => column !== null),
    ),
    sortedByDay,
  };
}

/**
 * {@link prepareDataset} plus every row's counts of every scope computed once (stored in each
 * entry's `counts`), for a dataset that many reports will be computed from (the gateway keeps
 * it between requests). Reports built from it are identical to reports built from the rows:
 * the counts are those of {@link countsOfRow}, added in the same order.
 */
export function prepareReportDataset(rows: readonly TRowInput[]): TPreparedDataset {
  const dataset = prepareDataset(rows);
  const width = ALL_SCOPES.length * COUNT_FIELDS;
  // One buffer for all rows; each entry holds a view of its part.
  const table = new Float64Array(dataset.entries.length * width);
  dataset.entries.forEach((entry, i) => {
    const counts = table.subarray(i * width, (i + 1) * width);
    ALL_SCOPES.forEach((scope, s) => {
      const c = countsOfRow(entry.row, dataset, scope);
      counts.set(
        [c.firstTimeDownloads, c.redownloads, c.totalDownloads, c.impressions],
        s * COUNT_FIELDS,
      );
    });
    entry.counts = counts;
    let present = 0;
    ALL_SCOPES.forEach((scope, s) => {
      if (rowHasData(entry.row, dataset, scope)) present |= 1 << s;
    });
    entry.present = present;
  });
  return dataset;
}

/** True for a cell holding a number (a number, or text such as '1,234'); '-' and '' are missing. */
function holdsNumber(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && typeof parseCellValue(value) === 'number';
}

/**
 * Whether a row has data for `scope`: at least one of the scope's columns holds a number (for
 * the totals: a total column or any source's column). A day whose cells are all missing ('-')
 * is a day without data, not a day of zeros.
 */
export function rowHasData(row: TRowInput, dataset: TPreparedDataset, scope: TScope): boolean {
  const sourceColumns = (id: TTrafficSourceId): (string | null)[] =>
    Object.values<string | null>(dataset.sourceColumns[id]);
  const columns: (string | null)[] =
    scope === 'total'
      ? [
          ...Object.values<string | null>({ ...dataset.totalColumns }),
          ...ALL_SOURCES.flatMap((s) => sourceColumns(s.id)),
        ]
      : sourceColumns(scope);
  return columns.some((column) => column !== null && holdsNumber(row[column]));
}

/** {@link rowHasData} of an entry, from its precomputed `present` bits when it has them. */
export function entryHasData(entry: TDatedRow, dataset: TPreparedDataset, scope: TScope): boolean {
  if (entry.present !== undefined) return (entry.present & (1 << SCOPE_INDEX[scope])) !== 0;
  return rowHasData(entry.row, dataset, scope);
}

/** Number of leading entries whose day passes `before` (entries sorted by day). */
function countLeading(entries: readonly TDatedRow[], before: (day: string) => boolean): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(entries[mid]!.day!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Rows whose parsed day lies in the inclusive range, in row order; rows whose date cannot be
 * parsed are excluded (docs/product.md#dashboard-computation). On a dataset sorted by day (see
 * `TPreparedDataset.sortedByDay`) the run is found by binary search instead of a scan.
 */
export function rowsInRange(dataset: TPreparedDataset, range: TDateRange): TDatedRow[] {
  const { entries } = dataset;
  if (dataset.sortedByDay) {
    const from = countLeading(entries, (day) => day < range.start);
    const to = countLeading(entries, (day) => day <= range.end);
    return from < to ? entries.slice(from, to) : [];
  }
  return entries.filter((e) => e.day !== null && isInRange(e.day, range));
}

function cell(row: TRowInput, column: string | null): number {
  return column === null ? 0 : toNumber(row[column]);
}

/**
 * Counts of one source in one row (docs/product.md#entities: column patterns per source;
 * docs/product.md#dashboard-computation: non-numeric values count as 0). Total downloads come from
 * '<Source> Total Downloads' when the export has that column, else first-time downloads +
 * redownloads (Apple: "Total Downloads can include first-time downloads, redownloads").
 */
export function sourceCountsOfRow(row: TRowInput, columns: TSourceColumns): TCounts {
  const firstTimeDownloads = cell(row, columns.firstTimeDownloads);
  const redownloads = cell(row, columns.redownloads);
  return {
    firstTimeDownloads,
    redownloads,
    totalDownloads:
      columns.totalDownloads === null
        ? firstTimeDownloads + redownloads
        : cell(row, columns.totalDownloads),
    impressions: cell(row, columns.impressions),
  };
}

/**
 * Totals across sources in one row (docs/product.md#entities). First-time downloads,
 * redownloads and impressions come from 'Total First-Time Downloads', 'Total Redownloads' and
 * 'Total Impressions' when the export has them, else they are sums over all seven sources.
 * Total Downloads comes from the 'Total Downloads' column; without it, it is the sum of the
 * sources' total downloads (each first-time downloads + redownloads unless the source has its
 * own Total Downloads column), or total first-time downloads + total redownloads when the
 * export has no per-source columns at all.
 */
export function totalCountsOfRow(row: TRowInput, dataset: TPreparedDataset): TCounts {
  const t = dataset.totalColumns;
  let sum: TCounts | null = null;
  const perSource = (): TCounts => {
    sum ??= addCounts(
      ...ALL_SOURCES.map((s) => sourceCountsOfRow(row, dataset.sourceColumns[s.id])),
    );
    return sum;
  };
  const firstTimeDownloads =
    t.firstTimeDownloads === null
      ? perSource().firstTimeDownloads
      : cell(row, t.firstTimeDownloads);
  const redownloads = t.redownloads === null ? perSource().redownloads : cell(row, t.redownloads);
  let totalDownloads: number;
  if (t.totalDownloads !== null) totalDownloads = cell(row, t.totalDownloads);
  else if (dataset.hasSourceColumns) totalDownloads = perSource().totalDownloads;
  else totalDownloads = firstTimeDownloads + redownloads;
  return {
    firstTimeDownloads,
    redownloads,
    totalDownloads,
    impressions: t.impressions === null ? perSource().impressions : cell(row, t.impressions),
  };
}

/** Counts of `scope` in one row. */
export function countsOfRow(row: TRowInput, dataset: TPreparedDataset, scope: TScope): TCounts {
  return scope === 'total'
    ? totalCountsOfRow(row, dataset)
    : sourceCountsOfRow(row, dataset.sourceColumns[scope]);
}

/**
 * Counts of `scope` in one entry: from its precomputed counts when it has them (see
 * {@link prepareReportDataset}), else {@link countsOfRow}. A new object every call.
 */
export function countsOfEntry(entry: TDatedRow, dataset: TPreparedDataset, scope: TScope): TCounts {
  const k = entry.counts;
  if (k === undefined) return countsOfRow(entry.row, dataset, scope);
  const at = SCOPE_INDEX[scope] * COUNT_FIELDS;
  return {
    firstTimeDownloads: k[at]!,
    redownloads: k[at + 1]!,
    totalDownloads: k[at + 2]!,
    impressions: k[at + 3]!,
  };
}

/** Zero counts. */
export function zeroCounts(): TCounts {
  return { firstTimeDownloads: 0, redownloads: 0, totalDownloads: 0, impressions: 0 };
}

/** Field-wise sum of counts. */
export function addCounts(...items: TCounts[]): TCounts {
  const out = zeroCounts();
  for (const c of items) {
    out.firstTimeDownloads += c.firstTimeDownloads;
    out.redownloads += c.redownloads;
    out.totalDownloads += c.totalDownloads;
    out.impressions += c.impressions;
  }
  return out;
}

/**
 * Sum of `scope`'s counts over the given rows, added in row order from zero (the same sums as
 * {@link addCounts} of every row's counts; a loop, so any number of rows fits).
 */
export function sumCounts(
  entries: readonly TDatedRow[],
  dataset: TPreparedDataset,
  scope: TScope,
): TCounts {
  const out = zeroCounts();
  const at = SCOPE_INDEX[scope] * COUNT_FIELDS;
  for (const e of entries) {
    const k = e.counts;
    if (k !== undefined) {
      out.firstTimeDownloads += k[at]!;
      out.redownloads += k[at + 1]!;
      out.totalDownloads += k[at + 2]!;
      out.impressions += k[at + 3]!;
    } else {
      const c = countsOfRow(e.row, dataset, scope);
      out.firstTimeDownloads += c.firstTimeDownloads;
      out.redownloads += c.redownloads;
      out.totalDownloads += c.totalDownloads;
      out.impressions += c.impressions;
    }
  }
  return out;
}

/**
 * Conversion rate in percent: downloads / impressions x 100, and 0 when impressions are 0
 * (docs/product.md#dashboard-computation). Computed as (downloads x 100) / impressions so that one
 * rounding step keeps exact boundaries (5 / 100 gives exactly 5).
 */
export function conversionRate(downloads: number, impressions: number): number {
  if (impressions === 0) return 0;
  return (downloads * 100) / impressions;
}

/** How a conversion rate of the reports is named and computed. */
export interface TConversionRateDefinition {
  /** The rate's name, e.g. 'First-time conversion rate'. */
  name: string;
  /** Its formula in words, e.g. 'first-time downloads / impressions'. */
  formula: string;
  /** One sentence for a tooltip: what it counts and whose definition it is. */
  description: string;
}

/**
 * The two conversion rates, by the field of `TPeriodMetrics` holding each (percent 0-100).
 * `conversionRate` (first-time downloads / impressions, the rate many ASO practitioners use)
 * is the one every report of this product judges and compares: the KPI card, the executive
 * summary's thresholds, the commentary and the monthly report. `appleConversionRate` is App
 * Store Connect's definition, total downloads / unique impressions
 * (https://developer.apple.com/app-store/measuring-app-performance/), shown beside it under its
 * own name, never mixed into the same figures.
 */
export const CONVERSION_RATES: Record<
  'conversionRate' | 'appleConversionRate',
  TConversionRateDefinition
> = {
  conversionRate: {
    name: 'First-time conversion rate',
    formula: 'first-time downloads / impressions',
    description:
      'First-time downloads divided by impressions: how often a view led to a first download, redownloads left out. The rate this report judges and compares.',
  },
  appleConversionRate: {
    name: 'App Store conversion rate',
    formula: 'total downloads / impressions',
    description:
      "App Store Connect's definition: total downloads (first-time downloads and redownloads) divided by unique impressions.",
  },
};

/** 'First-time conversion rate (first-time downloads / impressions)'. */
export function conversionRateLabel(key: keyof typeof CONVERSION_RATES): string {
  const d = CONVERSION_RATES[key];
  return `${d.name} (${d.formula})`;
}

/**
 * Period metrics from summed counts. `conversionRate` uses first-time downloads, the product's rate
 * for sources and for the totals' first-time conversion rate
 * (docs/product.md#dashboard-computation): a ratio of sums over the range, not a mean of daily
 * rates. `appleConversionRate` is Apple's definition, total downloads / unique impressions (Apple,
 * "Measuring app performance").
 */
export function toPeriodMetrics(counts: TCounts): TPeriodMetrics {
  return {
    ...counts,
    conversionRate: conversionRate(counts.firstTimeDownloads, counts.impressions),
    appleConversionRate: conversionRate(counts.totalDownloads, counts.impressions),
  };
}

/** One day's counts of a scope (rows sharing a day are added). */
export interface TDailyCounts {
  day: string;
  counts: TCounts;
}

/**
 * Day-by-day counts of `scope` over the given rows, ascending by day; rows with the same day
 * are added (in row order), rows without a parsed day are left out.
 */
export function dailyCounts(
  entries: readonly TDatedRow[],
  dataset: TPreparedDataset,
  scope: TScope,
): TDailyCounts[] {
  // Rows already in day order (a merged dataset's are) need neither a map nor a sort.
  const ordered: TDailyCounts[] = [];
  let inOrder = true;
  for (const e of entries) {
    if (e.day === null) continue;
    const last = ordered.at(-1);
    if (last !== undefined && e.day < last.day) {
      inOrder = false;
      break;
    }
    const counts = countsOfEntry(e, dataset, scope);
    if (last !== undefined && last.day === e.day) last.counts = addCounts(last.counts, counts);
    else ordered.push({ day: e.day, counts });
  }
  if (inOrder) return ordered;

  const byDay = new Map<string, TCounts>();
  for (const e of entries) {
    if (e.day === null) continue;
    const counts = countsOfEntry(e, dataset, scope);
    const previous = byDay.get(e.day);
    byDay.set(e.day, previous ? addCounts(previous, counts) : counts);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, counts]) => ({ day, counts }));
}
