/**
 * What the dashboard needs to know about a loaded dataset before drawing anything: its metric
 * columns, the default metric, its span, the default applied range and the picker bounds.
 * Everything here delegates to `@aso/analytics` (the one implementation of the dashboard math);
 * this module only picks the UI defaults of docs/product.md#states-and-transitions and
 * #dashboard-computation.
 */
import {
  SPEC_DEFAULT_RANGE,
  collectHeaders,
  defaultDateRange,
  getMetricColumns,
  prepareDataset,
  resolveTotalColumns,
  rowsInRange,
  type TDatedRow,
  type TRowInput,
} from '@aso/analytics';
import type { TDateRange } from '@aso/contracts';

/**
 * Picker bounds when a dataset has no parseable date (docs/product.md#dashboard-computation: "dates
 * outside 2025-01-01..2025-12-31 are disallowed by default").
 */
export const SPEC_PICKER_BOUNDS: Readonly<TDateRange> = Object.freeze({
  start: '2025-01-01',
  end: '2025-12-31',
});

/** UI facts of a dataset. */
export interface TDatasetInfo {
  /** Column names in first-seen order. */
  headers: string[];
  /** First column whose name contains 'date', or null. */
  dateColumn: string | null;
  /** Metric columns (docs/product.md#entities): all but the date and territory columns. */
  metrics: string[];
  /** The metric selected at first: the 'Total Downloads' column, else the first metric; [] with none. */
  defaultMetrics: string[];
  /** First and last parsed day; null when no date parses. */
  span: TDateRange | null;
  /**
   * Last 30 days of the span (whole span if shorter); documented default 2025-07-20..2025-08-18
   * with no span.
   */
  defaultRange: TDateRange;
  /** Picker bounds: the span, or 2025-01-01..2025-12-31 with no span. */
  bounds: TDateRange;
}

/**
 * Describes chart-data rows for the dashboard (see {@link TDatasetInfo}). Never throws: rows of
 * any shape give a usable description.
 */
export function describeDataset(rows: readonly TRowInput[]): TDatasetInfo {
  const headers = collectHeaders(rows);
  const dataset = prepareDataset(rows);
  const metrics = getMetricColumns(headers);
  const total = resolveTotalColumns(metrics).totalDownloads;
  const defaultMetric = total ?? metrics[0] ?? null;
  const days = dataset.entries.map((e) => e.day).filter((d): d is string => d !== null);
  const span =
    days.length === 0
      ? null
      : {
          start: days.reduce((a, b) => (b < a ? b : a)),
          end: days.reduce((a, b) => (b > a ? b : a)),
        };
  return {
    headers,
    dateColumn: dataset.dateColumn,
    metrics,
    defaultMetrics: defaultMetric === null ? [] : [defaultMetric],
    span,
    defaultRange: span ? defaultDateRange(days) : { ...SPEC_DEFAULT_RANGE },
    bounds: span ?? { ...SPEC_PICKER_BOUNDS },
  };
}

/**
 * The rows the dashboard plots and exports for an applied range, ascending by day. Rows whose date
 * does not parse are excluded (docs/product.md#dashboard-computation). When no row of the dataset
 * has a parseable date at all, every row is kept in file order, so a dataset without usable dates
 * still shows its values.
 */
export function rowsForRange(rows: readonly TRowInput[], range: TDateRange): TDatedRow[] {
  const dataset = prepareDataset(rows);
  if (!dataset.entries.some((e) => e.day !== null)) return dataset.entries;
  return rowsInRange(dataset, range).sort((a, b) =>
    a.day! < b.day! ? -1 : a.day! > b.day! ? 1 : 0,
  );
}

/**
 * Metrics whose name contains `query` (trimmed, case-insensitive), in their original order
 * (docs/product.md#dashboard-sections).
 */
export function filterMetrics(metrics: readonly string[], query: string): string[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [...metrics];
  return metrics.filter((m) => m.toLowerCase().includes(q));
}

/**
 * 'select all (N)' acting on the filtered list (docs/product.md#dashboard-sections): the current
 * selection plus every filtered metric, kept in the dataset's column order.
 */
export function selectAllFiltered(
  metrics: readonly string[],
  selected: readonly string[],
  filtered: readonly string[],
): string[] {
  const next = new Set([...selected, ...filtered]);
  return metrics.filter((m) => next.has(m));
}

/** Toggles one metric, keeping the dataset's column order. */
export function toggleMetric(
  metrics: readonly string[],
  selected: readonly string[],
  metric: string,
): string[] {
  const next = new Set(selected);
  if (next.has(metric)) next.delete(metric);
  else next.add(metric);
  return metrics.filter((m) => next.has(m));
}
