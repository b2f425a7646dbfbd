import type {
  TChangeFlag,
  TMetricsComparison,
  TPeriodChanges,
  TPeriodFlags,
  TPeriodMetrics,
  TPreviousCoverage,
} from '@aso/contracts';

/**
 * A change of this many percent or more either way is 'Up' or 'Down'
 * (docs/product.md#dashboard-computation).
 */
export const CHANGE_FLAG_THRESHOLD = 3;

/**
 * Percent change from `previous` to `current`: (current - previous) / previous x 100, and 0 when
 * `previous` is 0 (docs/product.md#dashboard-computation). Computed as ((current - previous) x 100)
 * / previous so that integer counts land exactly on boundaries (100 -> 103 gives exactly 3).
 */
export function percentChange(current: number, previous: number): number {
  if (previous === 0) return 0;
  return ((current - previous) * 100) / previous;
}

/**
 * 'Up' at a change of +3% or more, 'Down' at -3% or less, otherwise 'Stable'
 * (docs/product.md#dashboard-computation). The unrounded change is compared: 2.995% is 'Stable'
 * although it displays as 3.0%, and exactly 3% is 'Up'.
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

/** Options of {@link comparePeriods}. */
export interface TCompareOptions {
  /** The current figures on the compared days only (default: `current`, every day matched). */
  compared?: TPeriodMetrics;
  /**
   * How much of the previous period is compared (default: the previous period counts as
   * covered when any of its figures is not 0, with no day counts known).
   */
  coverage?: TPreviousCoverage;
}

/**
 * Current against previous period for every metric (docs/product.md#entities and
 * #dashboard-computation: current and previous-period figures, percentage changes): percent changes
 * ({@link percentChange}) and flags ({@link changeFlag}) of `options.compared` (the current figures
 * on the days that have a matching previous day) against `previous`. Rates are compared as relative
 * changes of the rate for the flag (a rate going from 2.0% to 2.5% is +25%, 'Up') and given in
 * percentage points in `pointChanges` (+0.5), which is how they are shown. Nothing compared
 * (`coverage.comparedDays` 0) gives changes of 0 and 'Stable' flags: read `coverage` before showing
 * them.
 */
export function comparePeriods(
  current: TPeriodMetrics,
  previous: TPeriodMetrics,
  options: TCompareOptions = {},
): TMetricsComparison {
  const compared = options.compared ?? current;
  const covered = METRIC_KEYS.some((key) => previous[key] !== 0);
  const coverage: TPreviousCoverage = options.coverage ?? {
    periodDays: 1,
    days: covered ? 1 : 0,
    currentDays: 1,
    hasData: covered,
    comparedDays: covered ? 1 : 0,
    partial: false,
  };
  const comparable = coverage.comparedDays > 0;
  const changes = {} as TPeriodChanges;
  const flags = {} as TPeriodFlags;
  for (const key of METRIC_KEYS) {
    changes[key] = comparable ? percentChange(compared[key], previous[key]) : 0;
    flags[key] = changeFlag(changes[key]);
  }
  const points = (key: 'conversionRate' | 'appleConversionRate') =>
    comparable ? compared[key] - previous[key] : 0;
  return {
    current,
    compared,
    previous,
    changes,
    pointChanges: {
      conversionRate: points('conversionRate'),
      appleConversionRate: points('appleConversionRate'),
    },
    flags,
    coverage,
  };
}
