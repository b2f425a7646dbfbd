import { z } from 'zod';
import { ZAppId, ZStorefront, ZText, ZUuid } from './common';

/**
 * Schemas of the analytics dashboard (docs/product.md#entities, #dashboard-computation and
 * #api-calls; docs/product.md#how-a-dashboard-is-built): upload answers, chart-data rows, the KPI
 * report computed by `@aso/analytics`, and saved dashboards.
 */

/** Calendar day `YYYY-MM-DD` (no time, no zone). */
export const ZIsoDay = ZText.regex(
  /^\d{4}-\d{2}-\d{2}$/,
  'expected a calendar day YYYY-MM-DD',
).refine((value) => {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
}, 'not a real calendar day');
export type TIsoDay = z.infer<typeof ZIsoDay>;

/**
 * Inclusive range of calendar days; `start` <= `end` (docs/product.md#states-and-transitions: Date
 * range).
 */
export const ZDateRange = z
  .object({ start: ZIsoDay, end: ZIsoDay })
  .refine((range) => range.start <= range.end, {
    message: 'start must be on or before end',
    path: ['end'],
  });
export type TDateRange = z.infer<typeof ZDateRange>;

/** Multipart field names of `POST /api/uploads` (docs/product.md#api-calls). */
export const ZUploadField = z.enum(['conversionCSV', 'redownloadsCSV']);
export type TUploadField = z.infer<typeof ZUploadField>;

/**
 * One cell of a merged row: numbers as numbers, missing values ('-' or empty in the export)
 * as `null`, anything else (the date, the territory) as text.
 */
export const ZChartCell = z.union([z.number(), z.string(), z.null()]);
export type TChartCell = z.infer<typeof ZChartCell>;

/**
 * One row of `GET /api/chart-data/{downloadId}` (docs/product.md#entities: Chart data): a date
 * column (any column whose name contains 'date', text as exported, e.g. `7/20/25`) and numeric
 * metric columns keyed by their export header.
 */
export const ZChartDataRow = z.record(z.string(), ZChartCell);
export type TChartDataRow = z.infer<typeof ZChartDataRow>;

/** Answer of `GET /api/chart-data/{downloadId}`. */
export const ZChartData = z.array(ZChartDataRow);
export type TChartData = z.infer<typeof ZChartData>;

/** `mergedData` of a successful upload (docs/product.md#entities: Upload result). */
export const ZMergedData = z.object({
  /** Column names of the merged file, in order, ending with `Territory`. */
  headers: z.array(z.string()),
  /** The first 10 merged rows. */
  preview: z.array(ZChartDataRow).max(10),
  totalRows: z.number().int().nonnegative(),
  downloadId: z.string().min(1),
  /** From the exports' preamble; null when neither file names the app. */
  appName: z.string().nullable(),
  /** From the exports' preamble (`Territory,<name>`); null when neither file names it. */
  territory: z.string().nullable(),
  /**
   * True when the files were given in each other's slots (or one file in the other's slot)
   * and were recognised by their columns and merged the right way round.
   */
  swapped: z.boolean(),
  /** Sentences for the user about what the merge did, e.g. that it swapped the files. */
  notices: z.array(z.string()),
});
export type TMergedData = z.infer<typeof ZMergedData>;

/** Answer of `POST /api/uploads` (docs/product.md#api-calls). */
export const ZUploadResult = z.object({ mergedData: ZMergedData });
export type TUploadResult = z.infer<typeof ZUploadResult>;

/** Query of `GET /api/reports/{downloadId}`; without both bounds the dataset's last 30 days. */
export const ZReportQuery = z
  .object({ start: ZIsoDay.optional(), end: ZIsoDay.optional() })
  .refine((q) => (q.start === undefined) === (q.end === undefined), {
    message: 'give both start and end, or neither',
  })
  .refine((q) => q.start === undefined || q.end === undefined || q.start <= q.end, {
    message: 'start must be on or before end',
    path: ['end'],
  });
export type TReportQuery = z.infer<typeof ZReportQuery>;

// --------------------------------------------------------------------------------------------- KPI
// report (docs/product.md#dashboard-computation), computed by `buildKpiReport` of @aso/analytics.

/**
 * Traffic source ids (docs/product.md#entities: Traffic sources). The first four are the
 * dashboard's; the monthly report adds the last three.
 */
export const ZTrafficSourceId = z.enum([
  'search',
  'browse',
  'app_referrer',
  'web_referrer',
  'institutional_purchase',
  'unavailable',
  'event_notification',
]);
export type TTrafficSourceId = z.infer<typeof ZTrafficSourceId>;

/**
 * 'Up' / 'Down' at a change of 3% or more either way, else 'Stable'
 * (docs/product.md#dashboard-computation).
 */
export const ZChangeFlag = z.enum(['Up', 'Down', 'Stable']);
export type TChangeFlag = z.infer<typeof ZChangeFlag>;

/**
 * Sums over one period. Counts are raw sums (not rounded); rates are percent 0-100.
 * `conversionRate` = first-time downloads / impressions x 100 (the product's rate);
 * `appleConversionRate` = total downloads / impressions x 100 (Apple's definition); both 0
 * when impressions are 0 (docs/product.md#dashboard-computation).
 */
export const ZPeriodMetrics = z.object({
  firstTimeDownloads: z.number(),
  redownloads: z.number(),
  totalDownloads: z.number(),
  impressions: z.number(),
  conversionRate: z.number(),
  appleConversionRate: z.number(),
});
export type TPeriodMetrics = z.infer<typeof ZPeriodMetrics>;

/** Percent change per metric, compared against previous (0 when previous is 0 or nothing is compared). */
export const ZPeriodChanges = z.object({
  firstTimeDownloads: z.number(),
  redownloads: z.number(),
  totalDownloads: z.number(),
  impressions: z.number(),
  conversionRate: z.number(),
  appleConversionRate: z.number(),
});
export type TPeriodChanges = z.infer<typeof ZPeriodChanges>;

/** Change flag per metric (docs/product.md#dashboard-computation). */
export const ZPeriodFlags = z.object({
  firstTimeDownloads: ZChangeFlag,
  redownloads: ZChangeFlag,
  totalDownloads: ZChangeFlag,
  impressions: ZChangeFlag,
  conversionRate: ZChangeFlag,
  appleConversionRate: ZChangeFlag,
});
export type TPeriodFlags = z.infer<typeof ZPeriodFlags>;

/**
 * How much of the previous period a comparison rests on. A day "has data" for a figure when its
 * row holds at least one number in the figure's columns ('-' and empty cells are missing
 * values). Day `i` of the previous period matches day `i` of the applied range (the day
 * `periodDays` later); only matching days that both have data are compared.
 */
export const ZPreviousCoverage = z.object({
  /** Days of the previous period (the applied range's length). */
  periodDays: z.number().int().positive(),
  /** Days of the previous period with data. */
  days: z.number().int().nonnegative(),
  /** Days of the applied range with data. */
  currentDays: z.number().int().nonnegative(),
  /** Whether the previous period has any data (`days` > 0). */
  hasData: z.boolean(),
  /** Matching days compared; 0: nothing to compare (changes are 0, flags 'Stable'). */
  comparedDays: z.number().int().nonnegative(),
  /** True when some but not all days of the period are compared (0 < comparedDays < periodDays). */
  partial: z.boolean(),
});
export type TPreviousCoverage = z.infer<typeof ZPreviousCoverage>;

/** Changes of the rates in percentage points (compared minus previous; 2.7% -> 2.9% is +0.2). */
export const ZPointChanges = z.object({
  conversionRate: z.number(),
  appleConversionRate: z.number(),
});
export type TPointChanges = z.infer<typeof ZPointChanges>;

/**
 * Current and previous period with changes and flags. `current` holds the whole applied range;
 * `compared` the same figures on the compared days only and `previous` the previous period's
 * on their matching days (equal to `current` and the whole previous period when every day
 * matches), so a partly covered previous period is compared like for like. `changes` (percent,
 * compared against previous) and `flags` are those of the compared values; `pointChanges` give
 * the rates' changes in percentage points.
 */
export const ZMetricsComparison = z.object({
  current: ZPeriodMetrics,
  compared: ZPeriodMetrics,
  previous: ZPeriodMetrics,
  changes: ZPeriodChanges,
  pointChanges: ZPointChanges,
  flags: ZPeriodFlags,
  coverage: ZPreviousCoverage,
});
export type TMetricsComparison = z.infer<typeof ZMetricsComparison>;

/**
 * The largest spike or drop of a source's daily first-time downloads against the centred 7-day
 * average (docs/product.md#dashboard-computation). `magnitude` = |value / average - 1| x 100
 * (percent).
 */
export const ZSpike = z.object({
  date: ZIsoDay,
  value: z.number(),
  average: z.number(),
  type: z.enum(['spike', 'drop']),
  magnitude: z.number(),
  /** Reported in commentary (magnitude above 50%). */
  reported: z.boolean(),
  /** Magnitude above 100%. */
  notable: z.boolean(),
});
export type TSpike = z.infer<typeof ZSpike>;

/** Export columns used for one source (null when the export has none). */
export const ZSourceColumns = z.object({
  firstTimeDownloads: z.string().nullable(),
  redownloads: z.string().nullable(),
  totalDownloads: z.string().nullable(),
  impressions: z.string().nullable(),
});
export type TSourceColumns = z.infer<typeof ZSourceColumns>;

/** Derived per source (docs/product.md#entities: Derived per source). */
export const ZSourceReport = ZMetricsComparison.extend({
  id: ZTrafficSourceId,
  /** Apple's source type name, e.g. 'App Store Search'. */
  name: z.string(),
  /** Short chart title, e.g. 'Search'. */
  label: z.string(),
  /** False when the source's columns are absent or all zero in the range (UI shows a dash). */
  hasData: z.boolean(),
  columns: ZSourceColumns,
  /** Share of all first-time downloads in the range, percent 0-100. */
  shareOfFirstTimeDownloads: z.number(),
  spike: ZSpike.nullable(),
  /** At most 3 lines. */
  commentary: z.array(z.string()).max(3),
});
export type TSourceReport = z.infer<typeof ZSourceReport>;

/** Executive summary (docs/product.md#dashboard-computation: Executive summary wording). */
export const ZExecutiveSummary = z.object({
  /** The first-time conversion rate the thresholds judge (first-time downloads / impressions, percent). */
  conversionRate: z.number(),
  /** >= 5% solid, 3% to < 5% typical, < 3% room for improvement. */
  conversionAssessment: z.enum(['solid', 'typical', 'room_for_improvement']),
  /** App Store Browse conversion above 1%. */
  browseVeryPositive: z.boolean(),
  /** App Store Search conversion below 80% of the overall rate. */
  searchUnderperforming: z.boolean(),
  /** Sources whose first-time downloads changed by 10% or more either way. */
  keyFluctuations: z.array(
    z.object({ id: ZTrafficSourceId, name: z.string(), change: z.number(), flag: ZChangeFlag }),
  ),
  lines: z.array(z.string()),
  text: z.string(),
});
export type TExecutiveSummary = z.infer<typeof ZExecutiveSummary>;

/** Counts of one source in one month (or over the range). */
export const ZMonthlySourceFigures = z.object({
  firstTimeDownloads: z.number(),
  redownloads: z.number(),
  totalDownloads: z.number(),
  impressions: z.number(),
});
export type TMonthlySourceFigures = z.infer<typeof ZMonthlySourceFigures>;

const ZSourceFiguresRecord = z.object({
  search: ZMonthlySourceFigures,
  browse: ZMonthlySourceFigures,
  app_referrer: ZMonthlySourceFigures,
  web_referrer: ZMonthlySourceFigures,
  institutional_purchase: ZMonthlySourceFigures,
  unavailable: ZMonthlySourceFigures,
  event_notification: ZMonthlySourceFigures,
});

/** One row of the monthly report. */
export const ZMonthlyReportRow = z.object({
  /** `YYYY-MM`. */
  month: z.string().regex(/^\d{4}-\d{2}$/),
  /** e.g. 'Jul 2025'. */
  label: z.string(),
  /** Days of the month with at least one row in the range. */
  days: z.number().int().nonnegative(),
  sources: ZSourceFiguresRecord,
  totals: ZPeriodMetrics,
});
export type TMonthlyReportRow = z.infer<typeof ZMonthlyReportRow>;

/** One segment of the download composition bar (share of total downloads). */
export const ZCompositionSegment = z.object({
  id: ZTrafficSourceId,
  name: z.string(),
  totalDownloads: z.number(),
  /** Percent 0-100 of the bar. */
  share: z.number(),
  /** Labels show only for segments above 15% (docs/product.md#dashboard-computation). */
  showLabel: z.boolean(),
});
export type TCompositionSegment = z.infer<typeof ZCompositionSegment>;

/** Monthly report (docs/product.md#dashboard-sections and #dashboard-computation). */
export const ZMonthlyReport = z.object({
  status: z.enum(['ok', 'no_data', 'no_date_field']),
  /** 'No data available' or 'No date field found'; null when status is 'ok'. */
  message: z.string().nullable(),
  months: z.array(ZMonthlyReportRow),
  sources: ZSourceFiguresRecord,
  totals: ZPeriodMetrics,
  /** Null when total downloads are 0: no composition bar is shown. */
  composition: z
    .object({ totalDownloads: z.number(), segments: z.array(ZCompositionSegment) })
    .nullable(),
});
export type TMonthlyReport = z.infer<typeof ZMonthlyReport>;

/**
 * The whole KPI report of `GET /api/reports/{downloadId}` (docs/product.md#dashboard-computation).
 */
export const ZKpiReport = z.object({
  /** The applied range (inclusive) and its length in days. */
  range: z.object({ start: ZIsoDay, end: ZIsoDay, days: z.number().int().positive() }),
  /** Same length immediately before `range` (docs/product.md#dashboard-computation). */
  previousRange: z.object({ start: ZIsoDay, end: ZIsoDay, days: z.number().int().positive() }),
  /** First and last parsed day of the whole dataset; null when no date parses. */
  dataSpan: z.object({ start: ZIsoDay, end: ZIsoDay }).nullable(),
  /** The dataset's date column; null when no column name contains 'date'. */
  dateColumn: z.string().nullable(),
  rowCounts: z.object({
    total: z.number().int().nonnegative(),
    current: z.number().int().nonnegative(),
    previous: z.number().int().nonnegative(),
    /** Rows whose date does not parse (excluded from every range). */
    unparseableDates: z.number().int().nonnegative(),
  }),
  /** Cards: Total Downloads, Total Impressions, First-time conversion rate, App Store conversion rate. */
  totals: ZMetricsComparison,
  performanceOverview: z.string(),
  /**
   * The four dashboard sources in the documented order: search, browse, app_referrer, web_referrer.
   */
  sources: z.array(ZSourceReport),
  rankingSentence: z.string(),
  executiveSummary: ZExecutiveSummary,
  monthlyReport: ZMonthlyReport,
});
export type TKpiReport = z.infer<typeof ZKpiReport>;

// ---------------------------------------------------------------------------------------------
// Dashboards (docs/product.md#entities: Dashboard; docs/product.md#api-calls).

/** The watched listing a dashboard is about (`mine`), as the user chose it. */
const ZWatchedAppRef = z.object({ appId: ZAppId, storefront: ZStorefront });

/** What every saved dashboard keeps of its view. */
const dashboardView = {
  /** The date range applied when the dashboard was saved; reopening applies it again. */
  dateRange: ZDateRange.optional(),
  /** The metric columns selected in the chart when saved. */
  selectedMetrics: z.array(ZText.max(300)).max(200).optional(),
  /**
   * The watched app (as the user's own, `mine`) whose listing changes the dashboard marks and
   * judges in "Change impact". App Store Connect exports name the app but not its App Store
   * id, so the user confirms which watched listing the data is about; imported data carries
   * the id, and this only says which storefront's listing when several are watched.
   */
  watchedApp: ZWatchedAppRef.optional(),
};

/** `configJson` of a dashboard created from an upload. */
export const ZCsvDashboardConfig = z.object({
  downloadId: ZText.min(1),
  headers: z.array(ZText),
  totalRows: z.number().int().nonnegative(),
  createdFrom: z.literal('csv_upload'),
  ...dashboardView,
});
export type TCsvDashboardConfig = z.infer<typeof ZCsvDashboardConfig>;

/**
 * `configJson` of a dashboard on the figures imported from App Store Connect: the user's
 * connection, the app (its Apple id), and the territory and device filters (null: all).
 * The figures are read again when it opens, so it shows every import since it was saved.
 */
export const ZAscDashboardConfig = z.object({
  createdFrom: z.literal('app_store_connect'),
  connectionId: ZUuid,
  appId: ZAppId.max(20),
  territory: ZText.min(1).max(60).nullable(),
  device: ZText.min(1).max(40).nullable(),
  ...dashboardView,
});
export type TAscDashboardConfig = z.infer<typeof ZAscDashboardConfig>;

/** `configJson` of a saved dashboard, by where its data comes from (`createdFrom`). */
export const ZDashboardConfig = z.discriminatedUnion('createdFrom', [
  ZCsvDashboardConfig,
  ZAscDashboardConfig,
]);
export type TDashboardConfig = z.infer<typeof ZDashboardConfig>;

/** A saved dashboard. `name` is built from app name, territory and date. */
export const ZDashboard = z.object({
  id: z.string(),
  name: z.string(),
  appName: z.string(),
  territory: z.string(),
  configJson: ZDashboardConfig,
  createdAt: z.iso.datetime({ offset: true }),
});
export type TDashboard = z.infer<typeof ZDashboard>;

/** Answer of `GET /api/dashboards`. */
export const ZDashboardList = z.array(ZDashboard);
export type TDashboardList = z.infer<typeof ZDashboardList>;

/** Message of a save without app name or territory (docs/product.md#error-catalogue). */
export const DASHBOARD_NAMING_MESSAGE =
  'Missing app name or territory data needed for dashboard naming';

/**
 * Body of `POST /api/dashboards`. appName and territory are checked by the route (not here)
 * so that their absence answers 400 with {@link DASHBOARD_NAMING_MESSAGE}.
 */
export const ZCreateDashboardBody = z.object({
  sessionId: ZText.optional(),
  appName: ZText.nullish(),
  territory: ZText.nullish(),
  configJson: ZDashboardConfig,
});
export type TCreateDashboardBody = z.infer<typeof ZCreateDashboardBody>;
