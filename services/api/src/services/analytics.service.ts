import type { Readable } from 'node:stream';
import { buildKpiReportOfDataset, resolveRange } from '@aso/analytics';
import {
  DASHBOARD_NAMING_MESSAGE,
  ZDashboardConfig,
  ZKpiReport,
  type TCreateDashboardBody,
  type TDashboard,
  type TDateRange,
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
import { create as createContentDisposition } from 'content-disposition';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, badRequest, notFound } from '../lib/app-error';
import {
  pickChartCoding,
  prepareReads,
  type DatasetCache,
  type TChartBody,
  type TChartCoding,
  type TPreparedReads,
} from './dataset.cache';

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
 * File name of `GET /api/download-merged/{downloadId}` (spec section 5):
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
 * `Content-Disposition` of a download (RFC 6266), built by the `content-disposition` package:
 * `attachment` with `filename` (quoted when it needs to be), plus the RFC 8187 `filename*`
 * form and an ISO-8859-1 fallback when the name has other characters.
 */
export function attachmentHeader(fileName: string): string {
  return createContentDisposition(fileName);
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

/**
 * `userId`'s live dataset `downloadId` prepared for reads (docs/BENCHMARKS.md). Ownership and
 * liveness are checked on every call (`findLiveDataset`, one indexed lookup) before anything of
 * `cache` is used; the rows are loaded (`findLiveDatasetRows`) and prepared (`prepareReads`) only
 * when `cache` does not hold them.
 *
 * @throws AppError 404 for a dataset that is not live and the caller's.
 */
export async function preparedDataset(
  db: Db,
  cache: DatasetCache,
  userId: string,
  downloadId: string,
): Promise<TPreparedReads> {
  const dataset = await findLiveDataset(db, downloadId, userId);
  if (!dataset) throw notFound(DATASET_NOT_FOUND_MESSAGE);
  const prepared = await cache.get(dataset, async () => {
    const stored = await findLiveDatasetRows(db, dataset.id, userId);
    return stored && prepareReads(dataset, stored.rows);
  });
  // Gone (expired, deleted) between the two reads.
  if (!prepared) throw notFound(DATASET_NOT_FOUND_MESSAGE);
  return prepared;
}

/**
 * The answer of `GET /api/chart-data/{downloadId}`: `userId`'s live dataset's rows as JSON
 * (rendered once per dataset and process, checked once against `ZChartData`), compressed in
 * the coding `acceptEncoding` prefers (`coding`; null: identity), with its ETag.
 *
 * @throws AppError 404 for a dataset that is not live and the caller's;
 *   ResponseSerializationError (500) when the stored rows do not match `ZChartData`.
 */
export async function chartData(
  db: Db,
  cache: DatasetCache,
  userId: string,
  downloadId: string,
  acceptEncoding?: string,
): Promise<TChartBody & { coding: TChartCoding | null }> {
  const prepared = await preparedDataset(db, cache, userId, downloadId);
  const { chart } = prepared;
  if ('error' in chart) throw chart.error;
  const coding = pickChartCoding(acceptEncoding);
  return { ...(await cache.chartBody(prepared, chart, coding)), coding };
}

/**
 * The processed CSV of `userId`'s live dataset as a stream (rendered from the stored rows as
 * it is read, never built whole) and its download file name.
 *
 * @throws AppError 404 for a dataset that is not live and the caller's.
 */
export async function mergedCsv(
  db: Db,
  userId: string,
  downloadId: string,
): Promise<{ csv: Readable; fileName: string }> {
  const dataset = await findLiveDatasetCsv(db, downloadId, userId);
  if (!dataset) throw notFound(DATASET_NOT_FOUND_MESSAGE);
  return {
    csv: dataset.csv,
    fileName: mergedFileName(dataset.app_name, dataset.territory),
  };
}

/**
 * The KPI report of `userId`'s live dataset over `query`'s range (spec section 5), as the
 * JSON answer of `GET /api/reports/{downloadId}`: computed by `buildKpiReportOfDataset` of
 * @aso/analytics from the dataset prepared once (see {@link preparedDataset}; the same report
 * as `buildKpiReport` of its rows), checked against `ZKpiReport` and serialized as the route's
 * serializer did, once per dataset and range while the dataset is cached. Without a range,
 * that package's default (the dataset's last 30 days, or its whole span when shorter).
 *
 * @throws AppError 404 for a dataset that is not live and the caller's; 400 for a range the
 *   analytics package refuses; ResponseSerializationError (500) for a report that does not
 *   match `ZKpiReport`.
 */
export async function kpiReport(
  db: Db,
  cache: DatasetCache,
  userId: string,
  downloadId: string,
  query: TReportQuery,
): Promise<Buffer> {
  const prepared = await preparedDataset(db, cache, userId, downloadId);
  const range = query.start && query.end ? { start: query.start, end: query.end } : undefined;
  let applied: TDateRange;
  try {
    applied = resolveRange(prepared.report, range);
  } catch (err) {
    if (err instanceof RangeError) throw new AppError('BAD_REQUEST', err.message, { cause: err });
    throw err;
  }
  const key = `${applied.start}..${applied.end}`;
  const kept = cache.report(prepared, key);
  if (kept) return kept;
  const checked = ZKpiReport.safeParse(buildKpiReportOfDataset(prepared.report, applied));
  if (!checked.success)
    throw new ResponseSerializationError('GET', '/api/reports/:downloadId', {
      cause: checked.error,
    });
  const body = Buffer.from(JSON.stringify(checked.data), 'utf8');
  cache.keepReport(prepared, key, body);
  return body;
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
