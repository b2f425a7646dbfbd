import type { Readable } from 'node:stream';
import { buildKpiReportOfDataset, resolveRange } from '@aso/analytics';
import {
  DASHBOARD_NAMING_MESSAGE,
  ZDashboardConfig,
  ZKpiReport,
  type TAscDashboardConfig,
  type TCreateDashboardBody,
  type TDashboard,
  type TDateRange,
  type TReportQuery,
} from '@aso/contracts';
import {
  deleteDashboard,
  findAscConnection,
  findLiveDataset,
  findLiveDatasetCsv,
  findLiveDatasetRows,
  insertDashboard,
  listDashboards,
  type TDashboardRow,
  type TDb,
  type TPage,
  type TPageRequest,
} from '@aso/db';
import { create as createContentDisposition } from 'content-disposition';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { TApiEnv } from '../env';
import { AppError, badRequest, notFound } from '../lib/app-error';
import { addWithinLimit, assertMaxBytes, assertMaxChars } from '../lib/limits';
import {
  pickChartCoding,
  prepareReads,
  type DatasetCache,
  type TChartBody,
  type TChartCoding,
  type TPreparedReads,
} from '../caches/dataset.cache';

/**
 * Reads of merged datasets and saved dashboards (docs/product.md#how-a-dashboard-is-built;
 * docs/product.md#entities and #api-calls). A dataset that is unknown, expired (even before the
 * hourly cleanup ran) or someone else's is a 404 'Dataset not found or expired', the client's
 * "dashboard data expired" state.
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
 * File name of `GET /api/download-merged/{downloadId}` (docs/product.md#reading-datasets):
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
 * A saved dashboard's name (docs/product.md#entities: Dashboard): app name, territory and the day
 * of saving as dd-mm-yyyy, e.g. 'Calm Notes: Journal & Mood United Kingdom 18-08-2025'. The day is
 * taken in UTC (the server has no user time zone); whitespace runs collapse to one space.
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
  db: TDb,
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
  db: TDb,
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
  db: TDb,
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
 * The KPI report of `userId`'s live dataset over `query`'s range
 * (docs/product.md#dashboard-computation), as the JSON answer of `GET /api/reports/{downloadId}`:
 * computed by `buildKpiReportOfDataset` of
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
  db: TDb,
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
export function toDashboard(row: TDashboardRow): TDashboard {
  return {
    id: row.id,
    name: row.name,
    appName: row.app_name,
    territory: row.territory,
    configJson: ZDashboardConfig.parse(row.config_json),
    createdAt: row.created_at.toISOString(),
  };
}

/** The settings that bound saved dashboards. */
export type TDashboardLimits = Pick<
  TApiEnv,
  'DASHBOARDS_MAX_PER_USER' | 'DASHBOARD_CONFIG_MAX_BYTES' | 'TEXT_FIELD_MAX_CHARS'
>;

/**
 * Saves a dashboard for `userId` (docs/product.md#entities, #validation-rules and #api-calls): app
 * name and territory are required (400 'Missing app name or territory data needed for dashboard
 * naming'), the dataset named by `configJson.downloadId` must be the caller's and live (404
 * otherwise); a dashboard on imported figures needs the caller's connection seeing its app
 * (404) and is named by {@link ascDashboardNaming}. The name is built by {@link buildDashboardName}. Bounded by `limits`: app name,
 * territory and session id at most `TEXT_FIELD_MAX_CHARS` characters and `configJson` at most
 * `DASHBOARD_CONFIG_MAX_BYTES` (413), at most `DASHBOARDS_MAX_PER_USER` dashboards (409).
 */
export async function createDashboard(
  db: TDb,
  userId: string,
  body: TCreateDashboardBody,
  limits: TDashboardLimits,
  now: Date = new Date(),
): Promise<TDashboard> {
  const config = body.configJson;
  // Imported data is named from the connection's record of the app, whatever the body says.
  const named =
    config.createdFrom === 'app_store_connect'
      ? await ascDashboardNaming(db, userId, config)
      : { appName: body.appName?.trim(), territory: body.territory?.trim() };
  const { appName, territory } = named;
  if (!appName || !territory) throw badRequest(DASHBOARD_NAMING_MESSAGE);
  assertMaxChars(
    { appName, territory, sessionId: body.sessionId },
    limits.TEXT_FIELD_MAX_CHARS,
    'TEXT_FIELD_MAX_CHARS',
  );
  assertMaxBytes(
    'configJson',
    body.configJson,
    limits.DASHBOARD_CONFIG_MAX_BYTES,
    'DASHBOARD_CONFIG_MAX_BYTES',
  );
  if (config.createdFrom === 'csv_upload') {
    const dataset = await findLiveDataset(db, config.downloadId, userId);
    if (!dataset) throw notFound(DATASET_NOT_FOUND_MESSAGE);
  }
  const row = await addWithinLimit(
    db,
    userId,
    {
      table: 'dashboards',
      max: limits.DASHBOARDS_MAX_PER_USER,
      what: 'saved dashboards',
      setting: 'DASHBOARDS_MAX_PER_USER',
    },
    (trx) =>
      insertDashboard(trx, {
        userId,
        name: buildDashboardName(appName, territory, now),
        appName,
        territory,
        sessionId: body.sessionId ?? null,
        config: body.configJson,
      }),
  );
  return toDashboard(row);
}

/** The territory of a saved dashboard on imported data with no territory filter. */
export const ALL_TERRITORIES = 'All territories';

/** Message of a saved dashboard whose App Store Connect app is not (or no longer) the user's. */
export const ASC_APP_NOT_FOUND_MESSAGE = 'App Store Connect app not found among your connections';

/**
 * The app name and territory a dashboard on imported figures is saved under: the app's name
 * as the user's connection `config.connectionId` recorded it, and the territory filter (or
 * {@link ALL_TERRITORIES}).
 *
 * @throws AppError 404 {@link ASC_APP_NOT_FOUND_MESSAGE} when the connection is not the
 *   user's or its key does not see the app.
 */
export async function ascDashboardNaming(
  db: TDb,
  userId: string,
  config: Pick<TAscDashboardConfig, 'connectionId' | 'appId' | 'territory'>,
): Promise<{ appName: string; territory: string }> {
  const conn = await findAscConnection(db, userId, config.connectionId);
  const app = conn?.apps.find((a) => a.appId === config.appId);
  if (!app) throw notFound(ASC_APP_NOT_FOUND_MESSAGE);
  return {
    appName: app.name || `App ${app.appId}`,
    territory: config.territory ?? ALL_TERRITORIES,
  };
}

/** One page of `userId`'s dashboards, newest first. */
export async function dashboards(
  db: TDb,
  userId: string,
  page: TPageRequest,
): Promise<TPage<TDashboard>> {
  const { rows, next } = await listDashboards(db, userId, page);
  return { rows: rows.map(toDashboard), next };
}

/** Deletes `userId`'s dashboard `id`; 404 when there is none of theirs. */
export async function removeDashboard(db: TDb, userId: string, id: string): Promise<void> {
  if (!(await deleteDashboard(db, id, userId))) throw notFound('Dashboard not found');
}
