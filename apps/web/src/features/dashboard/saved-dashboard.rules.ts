/**
 * Pure helpers of the dashboard calls: reading the saved dashboards list, a saved dashboard's
 * config, the "dashboard data expired" error, and a download's file name.
 */
import { ZDashboardConfig, type TDashboardConfig } from '@aso/contracts';

/** Anything with zod's `parse`. */
export interface TParser<T> {
  parse(data: unknown): T;
}

/**
 * A saved dashboard as listed, with `configJson` kept unparsed: a row whose config lacks a
 * downloadId must still be listed so that opening it can say 'Dashboard data is incomplete'
 * (spec section 4).
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
 * (spec section 8).
 */
export function isExpiredError(err: unknown): boolean {
  return err instanceof Error && err.message.includes('404');
}

/**
 * `configJson` of a saved dashboard when it names a dataset, else null (the 'Dashboard data is
 * incomplete' case of spec section 4).
 */
export function dashboardConfig(dashboard: TSavedDashboard): TDashboardConfig | null {
  const raw = (dashboard.configJson ?? {}) as Record<string, unknown>;
  if (typeof raw.downloadId !== 'string' || raw.downloadId === '') return null;
  const parsed = ZDashboardConfig.safeParse(raw);
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
