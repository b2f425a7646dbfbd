/**
 * Order statistics used by every benchmark. Percentiles use the nearest-rank method, so every
 * reported value is one that was actually observed (with 3 runs, p95 is the slowest run).
 */

/**
 * The `p`-th percentile (0-100) of `values` by nearest rank: the smallest value such that at
 * least `p` percent of the values are at or below it.
 * @throws RangeError when `values` is empty or `p` is outside 0-100.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('percentile of an empty list');
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile ${p} is outside 0-100`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** Median (nearest rank, so the lower middle value of an even count). */
export const median = (values: readonly number[]): number => percentile(values, 50);

/** Summary of a list of samples: count, min, p50, p95, p99, max and mean (same unit as the samples). */
export interface TSummary {
  count: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Summarises `values`. @throws RangeError when `values` is empty. */
export function summarize(values: readonly number[]): TSummary {
  if (values.length === 0) throw new RangeError('summary of an empty list');
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  return {
    count: values.length,
    min,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max,
    mean: sum / values.length,
  };
}

/**
 * Ratio of a figure to its baseline (`value / baseline`); null when the baseline is 0 or not a
 * finite number (a ratio would then say nothing).
 */
export function ratio(value: number, baseline: number): number | null {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return null;
  return value / baseline;
}
