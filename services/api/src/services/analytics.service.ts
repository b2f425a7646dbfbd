import { buildKpiReport } from '@aso/analytics';
import {
  DASHBOARD_NAMING_MESSAGE,
  ZDashboardConfig,
  type TChartData,
  type TCreateDashboardBody,
  type TDashboard,
  type TKpiReport,
  type TReportQuery,
} from '@aso/contracts';
import {
  deleteDashboard,
  findLiveDataset,
  findLiveDatasetCsv,
  findLiveDatasetRows,
  insertDashboard,
  listDashboards,
  type DashboardRow,
  type Db,
} from '@aso/db';
import { AppError, badRequest, notFound } from '../lib/app-error';

/**
 * Reads of merged datasets and saved dashboards (DESIGN section 3; spec sections 3 and 7).
 * A dataset that is unknown, expired (even before the hourly cleanup ran) or someone else's is
 * a 404 'Dataset not found or expired', the client's "dashboard data expired" state.
 */

/** Message of every dataset 404. */
export const DATASET_NOT_FOUND_MESSAGE = 'Dataset not found or expired';

/** Lower-case ASCII words joined by '-' ('Calm Notes: Journal & Mood' -> 'calm-notes-journal-mood'). */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * File name of `GET /api/download-merged/{downloadId}` (issue 6 point 4):
 * '<app>-<territory>-merged.csv', both slugified; 'dataset' stands in for an unknown app name
 * (or one with no letters or digits), and an unknown territory is left out
 * ('dataset-merged.csv' when neither is known).
 */
export function mergedFileName(appName: string | null, territory: string | null): string {
  const app = slugify(appName ?? '') || 'dataset';
  const where = slugify(territory ?? '');
  return `${[app, where].filter(Boolean).join('-')}-merged.csv`;
}

/**
 * `Content-Disposition` of a download: `attachment` with the plain `filename` and the RFC 6266
 * / RFC 8187 `filename*` form.
 */
export function attachmentHeader(fileName: string): string {
  const plain = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * A saved dashboard's name (spec section 3: Dashboard): app name, territory and the day of
 * saving as dd-mm-yyyy, e.g. 'Calm Notes: Journal & Mood United Kingdom 18-08-2025'. The day
 * is taken in UTC (the server has no user time zone); whitespace runs collapse to one space.
 */
export function buildDashboardName(appName: string, territory: string, at: Date): string {
  if (Number.isNaN(at.getTime())) throw new RangeError('at must be a valid Date');
  const dd = String(at.getUTCDate()).padStart(2, '0');
  const mm = String(at.getUTCMonth() + 1).padStart(2, '0');
  const clean = (s: string) => s.trim().replace(/\s+/g, ' ');
  return `${clean(appName)} ${clean(territory)} ${dd}-${mm}-${at.getUTCFullYear()}`;
}

/** The rows of `userId`'s live dataset, as `GET /api/chart-data/{downloadId}` answers them. */
export async function chartData(db: Db, userId: string, downloadId: string): Promise<TChartData> {
  const dataset = await findLiveDatasetRows(db, downloadId, userId);
  if (!dataset) throw notFound(DATASET_NOT_FOUND_MESSAGE);
  // Stored by the merge worker in this shape; the route's response schema checks it again.
  return dataset.rows as TChartData;
}

/** The processed CSV of `userId`'s live dataset and its download file name. */
export async function mergedCsv(
  db: Db,
  userId: string,
  downloadId: string,
): Promise<{ csv: string; fileName: string }> {
  const dataset = await findLiveDatasetCsv(db, downloadId, userId);
  if (!dataset) throw notFound(DATASET_NOT_FOUND_MESSAGE);
  return {
    csv: dataset.processed_csv,
    fileName: mergedFileName(dataset.app_name, dataset.territory),
  };
}

/**
 * The KPI report of `userId`'s live dataset over `query`'s range, computed by
 * `buildKpiReport` of @aso/analytics (issue 6 point 6); without a range, that package's
 * default (the dataset's last 30 days, or its whole span when shorter).
 *
 * @throws AppError 404 for a dataset that is not live and the caller's; 400 for a range the
 *   analytics package refuses.
 */
export async function kpiReport(
  db: Db,
  userId: string,
  downloadId: string,
  query: TReportQuery,
): Promise<TKpiReport> {
  const dataset = await findLiveDatasetRows(db, downloadId, userId);
  if (!dataset) throw notFound(DATASET_NOT_FOUND_MESSAGE);
  const range = query.start && query.end ? { start: query.start, end: query.end } : undefined;
  try {
    return buildKpiReport(dataset.rows, range);
  } catch (err) {
    if (err instanceof RangeError) throw new AppError('BAD_REQUEST', err.message, { cause: err });
    throw err;
  }
}

/** A dashboard row in the contract's shape. */
export function toDashboard(row: DashboardRow): TDashboard {
  return {
    id: row.id,
    name: row.name,
    appName: row.app_name,
    territory: row.territory,
    configJson: ZDashboardConfig.parse(row.config_json),
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Saves a dashboard for `userId` (spec sections 3, 5, 7): app name and territory are required
 * (400 'Missing app name or territory data needed for dashboard naming'), the dataset named by
 * `configJson.downloadId` must be the caller's and live (404 otherwise), and the name is built
 * by {@link buildDashboardName}.
 */
export async function createDashboard(
  db: Db,
  userId: string,
  body: TCreateDashboardBody,
  now: Date = new Date(),
): Promise<TDashboard> {
  const appName = body.appName?.trim();
  const territory = body.territory?.trim();
  if (!appName || !territory) throw badRequest(DASHBOARD_NAMING_MESSAGE);
  const dataset = await findLiveDataset(db, body.configJson.downloadId, userId);
  if (!dataset) throw notFound(DATASET_NOT_FOUND_MESSAGE);
  const row = await insertDashboard(db, {
    userId,
    name: buildDashboardName(appName, territory, now),
    appName,
    territory,
    sessionId: body.sessionId ?? null,
    config: body.configJson,
  });
  return toDashboard(row);
}

/** `userId`'s dashboards, newest first. */
export async function dashboards(db: Db, userId: string): Promise<TDashboard[]> {
  return (await listDashboards(db, userId)).map(toDashboard);
}

/** Deletes `userId`'s dashboard `id`; 404 when there is none of theirs. */
export async function removeDashboard(db: Db, userId: string, id: string): Promise<void> {
  if (!(await deleteDashboard(db, id, userId))) throw notFound('Dashboard not found');
}
