import type {
  TCompositionSegment,
  TDateRange,
  TMonthlyReport,
  TMonthlyReportRow,
  TTrafficSourceId,
} from '@aso/contracts';
import { formatMonth, monthKey } from './date.helpers';
import {
  addCounts,
  rowsInRange,
  sumCounts,
  toPeriodMetrics,
  zeroCounts,
  type TCounts,
  type TDatedRow,
  type TPreparedDataset,
} from './metrics.calculator';
import { ALL_SOURCES } from './sources.constants';

/** The monthly report's message with no rows (docs/product.md#dashboard-computation). */
export const NO_DATA_MESSAGE = 'No data available';
/**
 * The monthly report's message when no column name contains 'date'
 * (docs/product.md#dashboard-computation).
 */
export const NO_DATE_FIELD_MESSAGE = 'No date field found';
/**
 * Composition labels show only for segments above this percent
 * (docs/product.md#dashboard-computation).
 */
export const COMPOSITION_LABEL_MIN_SHARE = 15;

type TSourceFigures = Record<TTrafficSourceId, TCounts>;

function sourceFigures(entries: readonly TDatedRow[], dataset: TPreparedDataset): TSourceFigures {
  return Object.fromEntries(
    ALL_SOURCES.map((s) => [s.id, sumCounts(entries, dataset, s.id)]),
  ) as TSourceFigures;
}

function emptySourceFigures(): TSourceFigures {
  return Object.fromEntries(ALL_SOURCES.map((s) => [s.id, zeroCounts()])) as TSourceFigures;
}

/**
 * The Download Composition bar (docs/product.md#dashboard-sections and #dashboard-computation):
 * each of the seven sources' share of the downloads of all seven, by total downloads (first-time
 * downloads + redownloads), in source order, sources with none left out. Labels show only for
 * segments strictly above 15%. Null, i.e. no bar, when those downloads add up to 0
 * (docs/product.md#dashboard-computation).
 */
export function buildComposition(figures: TSourceFigures): TMonthlyReport['composition'] {
  const total = addCounts(...ALL_SOURCES.map((s) => figures[s.id])).totalDownloads;
  if (!(total > 0)) return null;
  const segments: TCompositionSegment[] = [];
  for (const s of ALL_SOURCES) {
    const value = figures[s.id].totalDownloads;
    if (!(value > 0)) continue;
    const share = (value * 100) / total;
    segments.push({
      id: s.id,
      name: s.name,
      totalDownloads: value,
      share,
      showLabel: share > COMPOSITION_LABEL_MIN_SHARE,
    });
  }
  return { totalDownloads: total, segments };
}

/**
 * The Monthly Report over the applied range (docs/product.md#dashboard-sections and
 * #dashboard-computation): one row per calendar month that has rows in the range, ascending, with
 * per-source counts for all seven sources (the dashboard's four plus Institutional Purchase,
 * Unavailable and Event Notification) and the month's totals; range-wide per-source figures and
 * totals; and the composition bar.
 *
 * Status: 'no_data' with 'No data available' when the dataset has no rows or none in the
 * range; 'no_date_field' with 'No date field found' when no column name contains 'date'.
 */
export function buildMonthlyReport(dataset: TPreparedDataset, range: TDateRange): TMonthlyReport {
  const empty = (status: TMonthlyReport['status'], message: string): TMonthlyReport => ({
    status,
    message,
    months: [],
    sources: emptySourceFigures(),
    totals: toPeriodMetrics(zeroCounts()),
    composition: null,
  });
  if (dataset.entries.length === 0) return empty('no_data', NO_DATA_MESSAGE);
  if (dataset.dateColumn === null) return empty('no_date_field', NO_DATE_FIELD_MESSAGE);
  const entries = rowsInRange(dataset, range);
  if (entries.length === 0) return empty('no_data', NO_DATA_MESSAGE);

  const byMonth = new Map<string, TDatedRow[]>();
  for (const e of entries) {
    const key = monthKey(e.day!);
    const list = byMonth.get(key);
    if (list) list.push(e);
    else byMonth.set(key, [e]);
  }
  const months: TMonthlyReportRow[] = [...byMonth.keys()].sort().map((key) => {
    const monthEntries = byMonth.get(key)!;
    return {
      month: key,
      label: formatMonth(key),
      days: new Set(monthEntries.map((e) => e.day)).size,
      sources: sourceFigures(monthEntries, dataset),
      totals: toPeriodMetrics(sumCounts(monthEntries, dataset, 'total')),
    };
  });
  const sources = sourceFigures(entries, dataset);
  return {
    status: 'ok',
    message: null,
    months,
    sources,
    totals: toPeriodMetrics(sumCounts(entries, dataset, 'total')),
    composition: buildComposition(sources),
  };
}
