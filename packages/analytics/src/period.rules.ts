import type {
  TChangeFlag,
  TMetricsComparison,
  TPeriodChanges,
  TPeriodFlags,
  TPeriodMetrics,
} from '@aso/contracts';

/** A change of this many percent or more either way is 'Up' or 'Down' (spec section 9). */
export const CHANGE_FLAG_THRESHOLD = 3;

/**
 * Percent change from `previous` to `current`: (current - previous) / previous x 100, and 0
 * when `previous` is 0 (spec section 5). Computed as ((current - previous) x 100) / previous
 * so that integer counts land exactly on boundaries (100 -> 103 gives exactly 3).
 */
export function percentChange(current: number, previous: number): number {
  if (previous === 0) return 0;
  return ((current - previous) * 100) / previous;
}

/**
 * 'Up' at a change of +3% or more, 'Down' at -3% or less, otherwise 'Stable' (spec section 9).
 * The unrounded change is compared: 2.995% is 'Stable' although it displays as 3.0%, and
 * exactly 3% is 'Up'.
 */
export function changeFlag(change: number): TChangeFlag {
  if (change >= CHANGE_FLAG_THRESHOLD) return 'Up';
  if (change <= -CHANGE_FLAG_THRESHOLD) return 'Down';
  return 'Stable';
}

const METRIC_KEYS = [
  'firstTimeDownloads',
  'redownloads',
  'totalDownloads',
  'impressions',
  'conversionRate',
  'appleConversionRate',
] as const satisfies ReadonlyArray<keyof TPeriodMetrics>;

/**
 * Current against previous period for every metric (spec sections 3 and 9: current and
 * previous-period figures, percentage changes): percent changes ({@link percentChange}) and
 * flags ({@link changeFlag}). Rates are compared as relative changes of the rate (a rate
 * going from 2.0% to 2.5% is +25%), like the counts.
 */
export function comparePeriods(
  current: TPeriodMetrics,
  previous: TPeriodMetrics,
): TMetricsComparison {
  const changes = {} as TPeriodChanges;
  const flags = {} as TPeriodFlags;
  for (const key of METRIC_KEYS) {
    changes[key] = percentChange(current[key], previous[key]);
    flags[key] = changeFlag(changes[key]);
  }
  return { current, previous, changes, flags };
}
