import {
  changeKind,
  type TDateRange,
  type TListingChange,
  type TTrafficSourceId,
} from '@aso/contracts';
import { addDays, dayNumber } from './date.helpers';
import {
  conversionRate,
  countsOfEntry,
  entryHasData,
  prepareDataset,
  rowsInRange,
  type TPreparedDataset,
  type TRowInput,
  type TScope,
} from './metrics.calculator';
import { DASHBOARD_SOURCES } from './sources.constants';

/**
 * "Change impact": the dashboard's daily figures around each listing change of the app, and
 * whether the days after it left the day-to-day noise of the days before.
 *
 * It describes what happened after a change, never what the change caused: store featuring,
 * ads, seasonality and other apps move the same figures, and nothing here can tell them apart.
 */

/** The window lengths a user may choose, in days (7, 14 or 28: whole weeks, so weekdays balance). */
export const IMPACT_WINDOW_DAYS = [7, 14, 28] as const;
export type TImpactWindowDays = (typeof IMPACT_WINDOW_DAYS)[number];

/**
 * Width of the noise band in standard deviations: the band is mean ± 2 x the sample standard
 * deviation of the before window's daily values.
 */
export const NOISE_BAND_K = 2;

/** The figures judged per scope. Higher is better for each of them. */
export const IMPACT_METRICS = ['firstTimeDownloads', 'impressions', 'conversionRate'] as const;
export type TImpactMetricId = (typeof IMPACT_METRICS)[number];

/** User-facing names of {@link IMPACT_METRICS}. */
export const IMPACT_METRIC_LABELS: Record<TImpactMetricId, string> = {
  firstTimeDownloads: 'First-time downloads',
  impressions: 'Impressions',
  conversionRate: 'Conversion rate',
};

/** Scopes of the card: all sources together, then the dashboard's four sources. */
export const IMPACT_SCOPES: readonly ('total' | TTrafficSourceId)[] = [
  'total',
  ...DASHBOARD_SOURCES.map((s) => s.id),
];

/**
 * Verdict of one figure: `better` / `worse` when the after window's daily mean lies above /
 * below the noise band, `inconclusive` when it lies inside it (bounds included), `null` when
 * no verdict is given because a window is not fully covered by the data.
 */
export type TImpactVerdict = 'better' | 'worse' | 'inconclusive';

/** The card's words for each verdict: 'likely', never 'caused'. */
export const IMPACT_VERDICT_LABELS: Record<TImpactVerdict, string> = {
  better: 'likely better',
  worse: 'likely worse',
  inconclusive: 'inconclusive',
};

/**
 * A listing change as the impact math sees it: an id and the two UTC days between which it
 * went live. `lastSeenBefore` is the day of the last read that still showed the old listing
 * (`previousAt`), `firstSeenAfter` the day of the first read that showed the new one
 * (`detectedAt`); both `YYYY-MM-DD`, `lastSeenBefore` <= `firstSeenAfter`.
 */
export interface TImpactEvent {
  id: string;
  lastSeenBefore: string;
  firstSeenAfter: string;
}

/** Mean and spread of a window's daily values. */
export interface TWindowStats {
  /** Days of the window with a value for this figure. */
  days: number;
  /** Mean of the daily values; null without any. */
  mean: number | null;
  /** Sample standard deviation (n - 1) of the daily values; null with fewer than 2. */
  sd: number | null;
}

/** One figure of one scope around one change. */
export interface TImpactFigure {
  metric: TImpactMetricId;
  before: TWindowStats;
  after: TWindowStats;
  /**
   * The before window's noise band, mean ± {@link NOISE_BAND_K} x sd, in the figure's unit
   * (counts per day; conversion rate in percent 0-100). Null when the before window has fewer
   * than 2 values.
   */
  band: { low: number; high: number } | null;
  /** (after mean - before mean) / before mean x 100, percent; null when either is missing or the before mean is 0. */
  changePct: number | null;
  /** True when both windows have a value on each of their days. */
  complete: boolean;
  /** Null when `complete` is false: a partly covered window gets no verdict. */
  verdict: TImpactVerdict | null;
}

/** The figures of one scope (the total or one source). */
export interface TImpactScope {
  scope: 'total' | TTrafficSourceId;
  figures: TImpactFigure[];
}

/** The impact of one change over windows of N days. */
export interface TChangeImpact {
  eventId: string;
  windowDays: number;
  /** The N days before the change: ending the day before `lastSeenBefore`. */
  before: TDateRange;
  /** The N days after the change: starting the day after `firstSeenAfter`. */
  after: TDateRange;
  /**
   * Days left out because the listing may have changed during them: `lastSeenBefore` to
   * `firstSeenAfter`, inclusive.
   */
  excluded: TDateRange;
  /** Scopes in {@link IMPACT_SCOPES} order; a scope the dataset has no column of is left out. */
  scopes: TImpactScope[];
  /** Whether every figure of every scope has complete windows. */
  complete: boolean;
  /** Ids of the other events whose uncertain days touch this one's windows: the figures mix both. */
  overlapping: string[];
}

/**
 * The change events of a history: its listing changes (not the store's figures, see
 * `changeKind`) grouped by the snapshot that showed them, newest first, each with its days.
 * `id` is the snapshot id; `fields` the changed fields in the history's order.
 */
export function impactEventsOfChanges(
  changes: readonly TListingChange[],
): (TImpactEvent & { fields: TListingChange['field'][]; detectedAt: string })[] {
  const bySnapshot = new Map<
    string,
    TImpactEvent & { fields: TListingChange['field'][]; detectedAt: string }
  >();
  for (const change of changes) {
    if (changeKind(change.field) !== 'listing') continue;
    const known = bySnapshot.get(change.snapshotId);
    if (known) {
      known.fields.push(change.field);
      continue;
    }
    bySnapshot.set(change.snapshotId, {
      id: change.snapshotId,
      lastSeenBefore: utcDay(change.previousAt),
      firstSeenAfter: utcDay(change.detectedAt),
      fields: [change.field],
      detectedAt: change.detectedAt,
    });
  }
  return [...bySnapshot.values()].sort((a, b) =>
    a.detectedAt < b.detectedAt ? 1 : a.detectedAt > b.detectedAt ? -1 : 0,
  );
}

/** The UTC calendar day `YYYY-MM-DD` of an ISO 8601 date-time. Throws a RangeError on an invalid one. */
export function utcDay(isoDateTime: string): string {
  const at = new Date(isoDateTime);
  if (Number.isNaN(at.getTime())) throw new RangeError(`invalid date-time '${isoDateTime}'`);
  return at.toISOString().slice(0, 10);
}

/**
 * Mean and sample standard deviation of some values ({@link TWindowStats}).
 */
export function windowStats(values: readonly number[]): TWindowStats {
  const n = values.length;
  if (n === 0) return { days: 0, mean: null, sd: null };
  const mean = values.reduce((s, v) => s + v, 0) / n;
  if (n < 2) return { days: n, mean, sd: null };
  const squares = values.reduce((s, v) => s + (v - mean) ** 2, 0);
  return { days: n, mean, sd: Math.sqrt(squares / (n - 1)) };
}

/**
 * Judges one figure: the noise band of the before window's daily values is mean ±
 * {@link NOISE_BAND_K} x sd (sample standard deviation); the verdict is `better` when the
 * after window's daily mean is strictly above the band, `worse` strictly below it,
 * `inconclusive` inside it. No verdict (null) unless both windows have a value on each of
 * their `windowDays` days.
 *
 * @param before - the before window's daily values (days without a value left out).
 * @param after - the after window's daily values.
 */
export function judgeFigure(
  metric: TImpactMetricId,
  before: readonly number[],
  after: readonly number[],
  windowDays: number,
): TImpactFigure {
  const b = windowStats(before);
  const a = windowStats(after);
  const band =
    b.mean !== null && b.sd !== null
      ? { low: b.mean - NOISE_BAND_K * b.sd, high: b.mean + NOISE_BAND_K * b.sd }
      : null;
  const complete = b.days === windowDays && a.days === windowDays && windowDays >= 2;
  let verdict: TImpactVerdict | null = null;
  if (complete && band !== null && a.mean !== null) {
    if (a.mean > band.high) verdict = 'better';
    else if (a.mean < band.low) verdict = 'worse';
    else verdict = 'inconclusive';
  }
  const changePct =
    b.mean !== null && a.mean !== null && b.mean !== 0 ? ((a.mean - b.mean) / b.mean) * 100 : null;
  return { metric, before: b, after: a, band, changePct, complete, verdict };
}

/** The windows of an event: N days each side, leaving out the days the change may have happened on. */
export function impactWindows(
  event: TImpactEvent,
  windowDays: number,
): Pick<TChangeImpact, 'before' | 'after' | 'excluded'> {
  if (!Number.isInteger(windowDays) || windowDays < 1) {
    throw new RangeError(`windowDays must be a positive whole number, got ${windowDays}`);
  }
  if (dayNumber(event.lastSeenBefore) > dayNumber(event.firstSeenAfter)) {
    throw new RangeError(
      `event ${event.id}: lastSeenBefore ${event.lastSeenBefore} is after firstSeenAfter ${event.firstSeenAfter}`,
    );
  }
  return {
    before: {
      start: addDays(event.lastSeenBefore, -windowDays),
      end: addDays(event.lastSeenBefore, -1),
    },
    after: {
      start: addDays(event.firstSeenAfter, 1),
      end: addDays(event.firstSeenAfter, windowDays),
    },
    excluded: { start: event.lastSeenBefore, end: event.firstSeenAfter },
  };
}

/** Daily values of the three figures of a scope in a range: one value per day with data. */
function dailyFigures(
  dataset: TPreparedDataset,
  range: TDateRange,
  scope: TScope,
): Record<TImpactMetricId, number[]> {
  const byDay = new Map<string, { ftd: number; imp: number }>();
  for (const entry of rowsInRange(dataset, range)) {
    if (entry.day === null || !entryHasData(entry, dataset, scope)) continue;
    const c = countsOfEntry(entry, dataset, scope);
    const known = byDay.get(entry.day);
    if (known) {
      known.ftd += c.firstTimeDownloads;
      known.imp += c.impressions;
    } else byDay.set(entry.day, { ftd: c.firstTimeDownloads, imp: c.impressions });
  }
  const days = [...byDay.values()];
  return {
    firstTimeDownloads: days.map((d) => d.ftd),
    impressions: days.map((d) => d.imp),
    // A day without impressions has no conversion rate (it is not a rate of 0).
    conversionRate: days.filter((d) => d.imp > 0).map((d) => conversionRate(d.ftd, d.imp)),
  };
}

function overlaps(a: TDateRange, b: TDateRange): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/**
 * The impact of each event on a dashboard's daily data, over windows of `windowDays` days.
 *
 * - Windows: the `windowDays` days before `lastSeenBefore` and the `windowDays` days after
 *   `firstSeenAfter`; the days in between (both included) are left out, since the listing may
 *   have changed on any of them.
 * - Figures per scope (all sources, then Search, Browse, App Referrer, Web Referrer): daily
 *   first-time downloads, daily impressions and the daily conversion rate (first-time
 *   downloads / impressions x 100, percent, only on days with impressions), each judged by
 *   {@link judgeFigure}: a verdict only when the after mean leaves the before window's band
 *   mean ± 2 sd, and only when the data covers every day of both windows.
 * - `overlapping` names the other events whose left-out days touch this event's windows.
 *
 * @param rows - the chart-data rows (a date column and metric columns, docs/product.md#entities),
 * or a dataset prepared from them.
 * @param events - the listing changes, any order; the result keeps their order.
 * @throws RangeError when `windowDays` is not a positive whole number or an event's days are
 *   invalid or reversed.
 */
export function buildChangeImpact(
  rows: readonly TRowInput[] | TPreparedDataset,
  events: readonly TImpactEvent[],
  windowDays: number,
): TChangeImpact[] {
  const dataset = Array.isArray(rows)
    ? prepareDataset(rows as readonly TRowInput[])
    : (rows as TPreparedDataset);
  const scopes = IMPACT_SCOPES.filter(
    (scope) =>
      scope === 'total' ||
      Object.values<string | null>({ ...dataset.sourceColumns[scope] }).some((c) => c !== null),
  );
  const windows = events.map((event) => impactWindows(event, windowDays));
  return events.map((event, i) => {
    const { before, after, excluded } = windows[i]!;
    const impactScopes = scopes.map((scope) => {
      const b = dailyFigures(dataset, before, scope);
      const a = dailyFigures(dataset, after, scope);
      return {
        scope,
        figures: IMPACT_METRICS.map((metric) =>
          judgeFigure(metric, b[metric], a[metric], windowDays),
        ),
      };
    });
    const overlapping = events
      .filter(
        (other, j) =>
          j !== i &&
          (overlaps(windows[j]!.excluded, before) || overlaps(windows[j]!.excluded, after)),
      )
      .map((other) => other.id);
    return {
      eventId: event.id,
      windowDays,
      before,
      after,
      excluded,
      scopes: impactScopes,
      complete: impactScopes.every((s) => s.figures.every((f) => f.complete)),
      overlapping,
    };
  });
}
