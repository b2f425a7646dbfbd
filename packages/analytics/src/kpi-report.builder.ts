import type { TDateRange, TKpiReport, TSourceReport } from '@aso/contracts';
import {
  writePerformanceOverview,
  writeRankingSentence,
  writeSourceCommentary,
} from './commentary.writer';
import {
  addDays,
  assertDateRange,
  defaultDateRange,
  previousPeriod,
  rangeLengthDays,
} from './date.helpers';
import { writeExecutiveSummary } from './executive-summary.writer';
import {
  dailyCounts,
  entryHasData,
  prepareDataset,
  rowsInRange,
  type TDatedRow,
  type TPreparedDataset,
  type TRowInput,
  type TScope,
} from './metrics.calculator';
import { buildMonthlyReport } from './monthly-report.builder';
import { comparePeriodRows } from './period-comparison.builder';
import { DASHBOARD_SOURCES } from './sources.constants';
import { detectSpike, type TSeriesPoint } from './spike.detector';

/**
 * The applied range of a dataset: `range` when given (checked), else the dataset's last 30
 * days, or its whole span when shorter, or the documented default 2025-07-20..2025-08-18 when no
 * date parses (docs/product.md#dashboard-computation).
 *
 * @throws RangeError when `range` has a bound that is not a `YYYY-MM-DD` day or start > end.
 */
export function resolveRange(dataset: TPreparedDataset, range?: TDateRange | null): TDateRange {
  if (range) {
    assertDateRange(range);
    return { start: range.start, end: range.end };
  }
  const { span } = daySpan(dataset);
  return defaultDateRange(span ? [span.start, span.end] : []);
}

/**
 * First and last parsed day of a dataset (null when no date parses) and how many rows have a
 * parsed day. On a dataset sorted by day these are its first and last entries.
 */
export function daySpan(dataset: TPreparedDataset): { span: TDateRange | null; dated: number } {
  const { entries } = dataset;
  if (dataset.sortedByDay) {
    const first = entries[0]?.day;
    const last = entries.at(-1)?.day;
    return first && last
      ? { span: { start: first, end: last }, dated: entries.length }
      : { span: null, dated: 0 };
  }
  let start: string | null = null;
  let end: string | null = null;
  let dated = 0;
  for (const { day } of entries) {
    if (day === null) continue;
    dated++;
    if (start === null || day < start) start = day;
    if (end === null || day > end) end = day;
  }
  return { span: start !== null && end !== null ? { start, end } : null, dated };
}

/**
 * The default range of chart-data rows (for the date picker and the reports call): the
 * dataset's last 30 days, its whole span when shorter, or 2025-07-20..2025-08-18 when no date
 * parses (docs/product.md#dashboard-computation).
 */
export function defaultRangeOfRows(rows: readonly TRowInput[]): TDateRange {
  return resolveRange(prepareDataset(rows));
}

/**
 * Daily first-time downloads of `scope` on every day of `range`, ascending; null on a day
 * absent from the export or whose cells for the scope are all empty (missing data, not 0).
 */
export function dailySeries(
  entries: readonly TDatedRow[],
  dataset: TPreparedDataset,
  scope: TScope,
  range: TDateRange,
): TSeriesPoint[] {
  const withData = new Set(
    entries.filter((e) => e.day !== null && entryHasData(e, dataset, scope)).map((e) => e.day!),
  );
  const counts = new Map(dailyCounts(entries, dataset, scope).map((d) => [d.day, d.counts]));
  const out: TSeriesPoint[] = [];
  for (let day = range.start; day <= range.end; day = addDays(day, 1))
    out.push({
      date: day,
      value: withData.has(day) ? (counts.get(day)?.firstTimeDownloads ?? 0) : null,
    });
  return out;
}

/** Days of the range listed by {@link missingDaysOf}. */
export const MISSING_DAYS_LISTED = 5;

/**
 * Days of `range` absent from the export or empty in every source: their count and the first
 * {@link MISSING_DAYS_LISTED}.
 */
export function missingDaysOf(
  entries: readonly TDatedRow[],
  dataset: TPreparedDataset,
  range: TDateRange,
): { count: number; days: string[] } {
  const missing = dailySeries(entries, dataset, 'total', range)
    .filter((p) => p.value === null)
    .map((p) => p.date);
  return { count: missing.length, days: missing.slice(0, MISSING_DAYS_LISTED) };
}

/**
 * The whole KPI report of a merged dataset, as `GET /api/reports/{downloadId}` answers it and
 * the web dashboard renders it (docs/product.md#dashboard-sections and #dashboard-computation).
 *
 * - Rows are the chart-data rows (numbers, numeric text such as '1,234', '-' or null);
 *   non-numeric values count as 0 and rows whose date does not parse are left out of every
 *   period (docs/product.md#dashboard-computation).
 * - `range` is inclusive; without it the dataset's last 30 days (see {@link resolveRange}).
 *   The previous period has the same number of days and ends the day before `range.start`.
 * - Totals: Total Downloads from the 'Total Downloads' column (else first-time downloads +
 *   redownloads), Total Impressions, and the first-time conversion rate = first-time
 *   downloads / impressions x 100 over the range, with the App Store conversion rate (total
 *   downloads / impressions) beside it under its own name.
 * - Per dashboard source (search, browse, app_referrer, web_referrer): the same figures,
 *   changes and flags, the largest spike of daily first-time downloads, and commentary.
 * - The ranking sentence, the Performance Overview, the Executive Summary and the Monthly
 *   Report (which adds the three extra sources).
 *
 * Deterministic: the same rows and range always give the same report, texts included.
 *
 * @throws RangeError for a malformed `range` (see {@link resolveRange}).
 */
export function buildKpiReport(rows: readonly TRowInput[], range?: TDateRange | null): TKpiReport {
  return buildKpiReportOfDataset(prepareDataset(rows), range);
}

/**
 * {@link buildKpiReport} of rows already prepared by `prepareDataset` or, for a dataset that
 * many reports are computed from, `prepareReportDataset` (dates parsed, columns resolved and
 * counts computed once). The report is identical to `buildKpiReport` of the same rows; only
 * the rows of the range and of its previous period are visited (found by binary search when
 * the rows are sorted by day, as merged datasets are). The dataset is not modified.
 *
 * @throws RangeError for a malformed `range` (see {@link resolveRange}).
 */
export function buildKpiReportOfDataset(
  dataset: TPreparedDataset,
  range?: TDateRange | null,
): TKpiReport {
  const applied = resolveRange(dataset, range);
  const previous = previousPeriod(applied);
  const days = rangeLengthDays(applied);
  const currentRows = rowsInRange(dataset, applied);
  const previousRows = rowsInRange(dataset, previous);

  const periodRows = { range: applied, previousRange: previous, currentRows, previousRows };
  const totals = comparePeriodRows(periodRows, dataset, 'total');

  const sources: TSourceReport[] = DASHBOARD_SOURCES.map((source) => {
    const columns = dataset.sourceColumns[source.id];
    const comparison = comparePeriodRows(periodRows, dataset, source.id);
    const c = comparison.current;
    const hasColumns = Object.values(columns).some((col) => col !== null);
    const hasData =
      currentRows.length > 0 &&
      hasColumns &&
      c.firstTimeDownloads + c.redownloads + c.totalDownloads + c.impressions !== 0;
    const spike = hasData
      ? detectSpike(dailySeries(currentRows, dataset, source.id, applied))
      : null;
    const share =
      totals.current.firstTimeDownloads > 0
        ? (c.firstTimeDownloads * 100) / totals.current.firstTimeDownloads
        : 0;
    return {
      id: source.id,
      name: source.name,
      label: source.label,
      hasData,
      columns,
      ...comparison,
      shareOfFirstTimeDownloads: share,
      spike,
      commentary: writeSourceCommentary({
        source,
        hasData,
        comparison,
        has: {
          firstTimeDownloads: columns.firstTimeDownloads !== null,
          impressions: columns.impressions !== null,
          redownloads: columns.redownloads !== null,
        },
        spike,
        shareOfFirstTimeDownloads: share,
      }),
    };
  });

  const { span: dataSpan, dated } = daySpan(dataset);

  return {
    range: { ...applied, days },
    previousRange: { ...previous, days },
    dataSpan,
    dateColumn: dataset.dateColumn,
    rowCounts: {
      total: dataset.entries.length,
      current: currentRows.length,
      previous: previousRows.length,
      unparseableDates: dataset.entries.length - dated,
    },
    totals,
    performanceOverview: writePerformanceOverview({
      range: { ...applied, days },
      totals,
      totalRows: dataset.entries.length,
      currentRows: currentRows.length,
      hasDateColumn: dataset.dateColumn !== null,
      missingDays:
        currentRows.length > 0 ? missingDaysOf(currentRows, dataset, applied) : undefined,
    }),
    sources,
    rankingSentence: writeRankingSentence(
      sources.map((s) => ({
        name: s.name,
        firstTimeDownloads: s.current.firstTimeDownloads,
        share: s.shareOfFirstTimeDownloads,
      })),
    ),
    executiveSummary: writeExecutiveSummary({
      totals,
      sources,
      currentRows: currentRows.length,
    }),
    monthlyReport: buildMonthlyReport(dataset, applied),
  };
}
