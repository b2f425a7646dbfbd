import type { TDateRange, TTrafficSourceId } from '@aso/contracts';
import {
  dailyCounts,
  prepareDataset,
  rowsInRange,
  toPeriodMetrics,
  type TRowInput,
} from './metrics.calculator';

/** One day of a 'Traffic source performance' chart (docs/product.md#dashboard-sections). */
export interface TSourceSeriesPoint {
  /** `YYYY-MM-DD`. */
  date: string;
  firstTimeDownloads: number;
  impressions: number;
  /** First-time downloads / impressions x 100 for the day; 0 without impressions. */
  conversionRate: number;
}

/**
 * The daily series of one traffic source for its chart (docs/product.md#dashboard-sections:
 * first-time downloads and impressions as bars, conversion rate (%) as a line), ascending by day.
 * With `range`, only its days (rows with unparseable dates are excluded,
 * docs/product.md#dashboard-computation); without it, every row whose date parses. An empty array
 * means 'No data available'.
 */
export function buildSourceSeries(
  rows: readonly TRowInput[],
  source: TTrafficSourceId,
  range?: TDateRange | null,
): TSourceSeriesPoint[] {
  const dataset = prepareDataset(rows);
  const entries = range ? rowsInRange(dataset, range) : dataset.entries;
  return dailyCounts(entries, dataset, source).map(({ day, counts }) => {
    const m = toPeriodMetrics(counts);
    return {
      date: day,
      firstTimeDownloads: m.firstTimeDownloads,
      impressions: m.impressions,
      conversionRate: m.conversionRate,
    };
  });
}
