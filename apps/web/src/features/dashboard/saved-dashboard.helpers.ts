/**
 * Pure helpers of the dashboard calls: reading the saved dashboards list, a saved dashboard's
 * config (an upload's dataset or an imported app), the "dashboard data expired" error, and a
 * download's file name.
 */
import { ZAscDashboardConfig, ZCsvDashboardConfig, type TDashboardConfig } from '@aso/contracts';

/**
 * Toast texts of docs/product.md#error-catalogue ("Save fails") and of the other dashboard
 * actions, for uploads and imported figures alike.
 */
export const SAVE_TEXTS = {
  failedTitle: 'Save Failed',
  failed: 'Failed to save dashboard. Please try again.',
  savedTitle: 'Dashboard Saved',
} as const;

/** Anything with zod's `parse`. */
export interface TParser<T> {
  parse(data: unknown): T;
}

/**
 * A saved dashboard as listed, with `configJson` kept unparsed: a row whose config lacks a
 * downloadId must still be listed so that opening it can say 'Dashboard data is incomplete'
 * (docs/product.md#states-and-transitions).
 */
export interface TSavedDashboard {
  id: string;
  name: string;
  appName: string | null;
  territory: string | null;
  configJson: unknown;
  createdAt: string | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Reads the dashboards list leniently: only `id` and `name` are required of each item. */
export const ZSavedDashboardList: TParser<TSavedDashboard[]> = {
  parse(data: unknown): TSavedDashboard[] {
    if (!Array.isArray(data)) throw new TypeError('expected a JSON array of dashboards');
    return data.map((item: unknown, index) => {
      const o = (item ?? {}) as Record<string, unknown>;
      const id = typeof o.id === 'number' ? String(o.id) : text(o.id);
      if (!id) throw new TypeError(`dashboard ${index} has no id`);
      return {
        id,
        name: text(o.name) ?? `Dashboard ${id}`,
        appName: text(o.appName),
        territory: text(o.territory),
        configJson: o.configJson,
        createdAt: text(o.createdAt),
      };
    });
  },
};

/**
 * The chart-data error that means "dashboard data expired": the error text contains 404
 * (docs/product.md#error-catalogue).
 */
export function isExpiredError(err: unknown): boolean {
  return err instanceof Error && err.message.includes('404');
}

/**
 * `configJson` of a saved dashboard when it names its data (a dataset, or an imported app of a
 * connection), else null (the 'Dashboard data is incomplete' case of
 * docs/product.md#states-and-transitions).
 */
export function dashboardConfig(dashboard: TSavedDashboard): TDashboardConfig | null {
  const raw = (dashboard.configJson ?? {}) as Record<string, unknown>;
  if (raw.createdFrom === 'app_store_connect') {
    const parsed = ZAscDashboardConfig.safeParse(raw);
    return parsed.success ? parsed.data : null;
  }
  if (typeof raw.downloadId !== 'string' || raw.downloadId === '') return null;
  const parsed = ZCsvDashboardConfig.safeParse(raw);
  if (parsed.success) return parsed.data;
  // A config with a downloadId but odd other fields still opens: the rows carry the headers.
  return {
    downloadId: raw.downloadId,
    headers: Array.isArray(raw.headers)
      ? raw.headers.filter((h): h is string => typeof h === 'string')
      : [],
    totalRows: typeof raw.totalRows === 'number' ? raw.totalRows : 0,
    createdFrom: 'csv_upload',
  };
}

/** Whether a saved dashboard shows figures imported from App Store Connect. */
export function isAscDashboard(dashboard: TSavedDashboard): boolean {
  return (
    (dashboard.configJson as { createdFrom?: unknown } | null)?.createdFrom === 'app_store_connect'
  );
}
