import type { TSpike } from '@aso/contracts';

/**
 * Spike detection needs at least this many daily points (docs/product.md#dashboard-computation).
 */
export const SPIKE_MIN_POINTS = 7;
/**
 * Points on each side of the centred rolling window: 3 before and 3 after
 * (docs/product.md#dashboard-computation).
 */
export const SPIKE_HALF_WINDOW = 3;
/**
 * A value above this multiple of its rolling average is a spike
 * (docs/product.md#dashboard-computation).
 */
export const SPIKE_HIGH_RATIO = 1.5;
/**
 * A value below this multiple of its rolling average is a drop
 * (docs/product.md#dashboard-computation).
 */
export const SPIKE_LOW_RATIO = 0.5;
/**
 * Commentary mentions a spike only when its magnitude exceeds this percent
 * (docs/product.md#dashboard-computation).
 */
export const SPIKE_REPORT_MAGNITUDE = 50;
/**
 * Above this magnitude (percent) a spike is called 'notable'
 * (docs/product.md#dashboard-computation).
 */
export const SPIKE_NOTABLE_MAGNITUDE = 100;

/** One point of a daily series; `value` null on a day with missing data. */
export interface TSeriesPoint {
  /** `YYYY-MM-DD`. */
  date: string;
  value: number | null;
}

/** Points of a window that must hold data for its average to be used. */
export const SPIKE_MIN_WINDOW_POINTS = 4;

/**
 * The largest spike or drop of a daily series (docs/product.md#dashboard-computation).
 *
 * - Fewer than 7 points: null.
 * - Each point is compared with the centred 7-day rolling average of the 3 points before it,
 *   itself and the 3 points after it. Only points with a full window are judged, so the first
 *   and last 3 points never are (a 7-point series has exactly one judged point, its middle).
 *   A window whose average is 0 is skipped.
 * - Missing data is not zero (this product's rule: a day the export does not have is not a
 *   drop): a point whose value is null is never judged, and a window averages the points that
 *   have data, skipped when fewer than {@link SPIKE_MIN_WINDOW_POINTS} do. Without missing days
 *   this is exactly the spec's rule.
 * - Flagged when value / average is strictly above 1.5 (spike) or strictly below 0.5 (drop);
 *   exactly 1.5x or 0.5x is not flagged, which also makes every flagged point's magnitude
 *   exceed 50%.
 * - magnitude = |value / average - 1| x 100 (percent). Only the largest magnitude is kept; on
 *   a tie the earliest point.
 * - `reported` when the magnitude exceeds 50%; `notable` when it exceeds 100% (so exactly
 *   double the average is reported but not notable; a drop can never be notable).
 *
 * @param points - the series in ascending date order (one point per day).
 */
export function detectSpike(points: readonly TSeriesPoint[]): TSpike | null {
  if (points.length < SPIKE_MIN_POINTS) return null;
  let best: TSpike | null = null;
  for (let i = SPIKE_HALF_WINDOW; i < points.length - SPIKE_HALF_WINDOW; i++) {
    const { date, value } = points[i]!;
    if (value === null) continue;
    let sum = 0;
    let present = 0;
    for (let j = i - SPIKE_HALF_WINDOW; j <= i + SPIKE_HALF_WINDOW; j++) {
      const v = points[j]!.value;
      if (v === null) continue;
      sum += v;
      present++;
    }
    if (present < SPIKE_MIN_WINDOW_POINTS || sum <= 0) continue;
    // value / (sum / n) in one rounding step keeps 1.5x and 2x exact for integer counts.
    const ratio = (value * present) / sum;
    let type: TSpike['type'] | null = null;
    if (ratio > SPIKE_HIGH_RATIO) type = 'spike';
    else if (ratio < SPIKE_LOW_RATIO) type = 'drop';
    if (type === null) continue;
    const magnitude = Math.abs(ratio - 1) * 100;
    if (best === null || magnitude > best.magnitude) {
      best = {
        date,
        value,
        average: sum / present,
        type,
        magnitude,
        reported: magnitude > SPIKE_REPORT_MAGNITUDE,
        notable: magnitude > SPIKE_NOTABLE_MAGNITUDE,
      };
    }
  }
  return best;
}
