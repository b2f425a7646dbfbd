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
} from './columns.rules';
import { isInRange, parseDate } from './date.rules';
import { toNumber } from './number.rules';
import { ALL_SOURCES } from './sources.constants';

/** A row object as the chart-data call returns it (values are numbers, text or null). */
export type TRowInput = Readonly<Record<string, unknown>>;

/** Raw counts of one source (or of all sources) over some rows. */
export type TCounts = TMonthlySourceFigures;

/** One row with its parsed day (null when its date does not parse). */
export interface TDatedRow {
  day: string | null;
  row: TRowInput;
}

/** Rows prepared once for all computations of a report. */
export interface TPreparedDataset {
  headers: string[];
  /** First column whose name contains 'date' (spec section 3), or null. */
  dateColumn: string | null;
  entries: TDatedRow[];
  sourceColumns: Record<TTrafficSourceId, TSourceColumns>;
  totalColumns: TTotalColumns;
  /** Whether any source has at least one column. */
  hasSourceColumns: boolean;
}

/** Which figures to count: one source, or the totals across sources. */
export type TScope = TTrafficSourceId | 'total';

/**
 * Parses dates and resolves the columns of every source once (spec section 3). Rows without a
 * date column all get `day: null`.
 */
export function prepareDataset(rows: readonly TRowInput[]): TPreparedDataset {
  const headers = collectHeaders(rows);
  const dateColumn = findDateColumn(headers);
  const sourceColumns = Object.fromEntries(
    ALL_SOURCES.map((s) => [s.id, resolveSourceColumns(headers, s)]),
  ) as Record<TTrafficSourceId, TSourceColumns>;
  return {
    headers,
    dateColumn,
    entries: rows.map((row) => ({
      day: dateColumn === null ? null : parseDate(row[dateColumn]),
      row,
    })),
    sourceColumns,
    totalColumns: resolveTotalColumns(headers),
    hasSourceColumns: Object.values(sourceColumns).some((c) =>
      Object.values(c).some((column) => column !== null),
    ),
  };
}

/**
 * Rows whose parsed day lies in the inclusive range; rows whose date cannot be parsed are
 * excluded (spec section 5).
 */
export function rowsInRange(dataset: TPreparedDataset, range: TDateRange): TDatedRow[] {
  return dataset.entries.filter((e) => e.day !== null && isInRange(e.day, range));
}

function cell(row: TRowInput, column: string | null): number {
  return column === null ? 0 : toNumber(row[column]);
}

/**
 * Counts of one source in one row (spec section 3: column patterns per source; spec section 5:
 * non-numeric values count as 0). Total downloads come from '<Source> Total Downloads' when the
 * export has that column, else first-time downloads + redownloads (Apple: "Total Downloads can
 * include first-time downloads, redownloads").
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
 * Totals across sources in one row (spec section 3; issue 6 point 5). First-time downloads,
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

/** Sum of `scope`'s counts over the given rows. */
export function sumCounts(
  entries: readonly TDatedRow[],
  dataset: TPreparedDataset,
  scope: TScope,
): TCounts {
  return addCounts(...entries.map((e) => countsOfRow(e.row, dataset, scope)));
}

/**
 * Conversion rate in percent: downloads / impressions x 100, and 0 when impressions are 0
 * (spec section 5). Computed as (downloads x 100) / impressions so that one rounding step
 * keeps exact boundaries (5 / 100 gives exactly 5).
 */
export function conversionRate(downloads: number, impressions: number): number {
  if (impressions === 0) return 0;
  return (downloads * 100) / impressions;
}

/**
 * Period metrics from summed counts. `conversionRate` uses first-time downloads, the product's
 * rate for sources and for 'Total Average Conversion Rate' (issue 6 point 5): a ratio of sums
 * over the range, not a mean of daily rates. `appleConversionRate` is Apple's definition, total
 * downloads / unique impressions (Apple, "Measuring app performance").
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
 * are added, rows without a parsed day are left out.
 */
export function dailyCounts(
  entries: readonly TDatedRow[],
  dataset: TPreparedDataset,
  scope: TScope,
): TDailyCounts[] {
  const byDay = new Map<string, TCounts>();
  for (const e of entries) {
    if (e.day === null) continue;
    const counts = countsOfRow(e.row, dataset, scope);
    const previous = byDay.get(e.day);
    byDay.set(e.day, previous ? addCounts(previous, counts) : counts);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, counts]) => ({ day, counts }));
}
