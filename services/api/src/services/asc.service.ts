import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  ASC_MEASURES_BY_KIND,
  AscApiError,
  AscClient,
  AscKeyError,
  ascMetricRows,
  readAscPrivateKey,
  sealSecret,
  secretsKeyFrom,
} from '@aso/asc';
import type {
  TAscConnection,
  TAscConnectionBody,
  TAscImport,
  TAscMetrics,
  TAscMetricsQuery,
} from '@aso/contracts';
import {
  ascDayOwners,
  ascDimensions,
  findAscConnection,
  findOpenAscImport,
  insertAscConnection,
  insertAscImport,
  latestAscImports,
  sumAscFigures,
  type TAscConnectionRow,
  type TAscImportRow,
  type TDb,
} from '@aso/db';
import { ascImportJobId, type Producers } from '@aso/queue';
import { AppError, badRequest, notFound } from '../lib/app-error';
import { addWithinLimit } from '../lib/limits';

/** Apps of a key kept with its connection (this product's rule: a team rarely has more). */
const ASC_APPS_MAX = 500;
import type { TApiEnv } from '../env';

/** What the App Store Connect calls use. */
export interface TAscDeps {
  db: TDb;
  producers: Producers;
  config: TApiEnv;
  log: FastifyBaseLogger;
}

/** An import row as answered. */
export const toAscImport = (r: TAscImportRow): TAscImport => ({
  importId: r.id,
  appId: r.app_id,
  state: r.state,
  reportsFound: r.reports_found,
  instances: r.instances,
  segments: r.segments,
  rows: r.rows,
  error: r.error,
  notice: r.notice,
  createdAt: r.created_at.toISOString(),
  finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
});

/** A connection as answered: never key material. */
export const toAscConnection = (
  r: TAscConnectionRow,
  imports?: TAscImportRow[],
): TAscConnection => ({
  id: r.id,
  name: r.name,
  issuerId: r.issuer_id,
  keyId: r.key_id,
  createdAt: r.created_at.toISOString(),
  apps: r.apps,
  ...(imports ? { imports: imports.map(toAscImport) } : {}),
});

/**
 * Adds a connection: checks the key is an EC P-256 PEM (400), makes a test call listing the
 * apps the key sees (`GET /v1/apps`; Apple's 401/403 answer 400 in words, no answer 503),
 * seals the private key with AES-256-GCM under `SECRETS_KEY` (503 when it is not set) and
 * stores it (the first {@link ASC_APPS_MAX} apps). 409 past `ASC_CONNECTIONS_MAX_PER_USER`
 * (counted atomically with the insert, as every user collection is). The private key is held in memory for
 * the test call only and is never logged or answered.
 */
export async function addAscConnection(
  deps: TAscDeps,
  userId: string,
  body: TAscConnectionBody,
): Promise<TAscConnection> {
  if (!deps.config.SECRETS_KEY) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'App Store Connect keys cannot be stored: the server has no SECRETS_KEY (see docs/OPERATIONS.md, "App Store Connect").',
    );
  }
  let privateKey;
  try {
    privateKey = readAscPrivateKey(body.privateKey);
  } catch (error) {
    if (error instanceof AscKeyError) throw badRequest(error.message);
    throw error;
  }
  const client = new AscClient({
    origin: deps.config.ASC_API_ORIGIN,
    key: { issuerId: body.issuerId, keyId: body.keyId, privateKey },
    timeoutMs: deps.config.ASC_CHECK_TIMEOUT_MS,
    attempts: 2,
    baseDelayMs: 500,
    maxDelayMs: 2_000,
    maxPauseMs: 0,
    maxPages: 20,
  });
  let apps;
  try {
    apps = await client.listApps();
  } catch (error) {
    if (!(error instanceof AscApiError)) throw error;
    if (error.status === 401 || error.status === 403) throw badRequest(error.message);
    throw new AppError('SERVICE_UNAVAILABLE', `The key could not be checked: ${error.message}`);
  }
  const id = randomUUID();
  const sealed = sealSecret(body.privateKey, secretsKeyFrom(deps.config.SECRETS_KEY), id);
  const row = await addWithinLimit(
    deps.db,
    userId,
    {
      table: 'asc_connections',
      max: deps.config.ASC_CONNECTIONS_MAX_PER_USER,
      what: 'App Store Connect connections',
      setting: 'ASC_CONNECTIONS_MAX_PER_USER',
    },
    (trx) =>
      insertAscConnection(trx, {
        id,
        userId,
        name: body.name,
        issuerId: body.issuerId,
        keyId: body.keyId,
        privateKeySealed: sealed,
        apps: apps.slice(0, ASC_APPS_MAX),
      }),
  );
  deps.log.info({ connectionId: id, apps: apps.length }, 'App Store Connect key added');
  return toAscConnection(row, []);
}

/** The user's connection or 404. */
async function ownConnection(deps: TAscDeps, userId: string, id: string) {
  const conn = await findAscConnection(deps.db, userId, id);
  if (!conn) throw notFound('App Store Connect connection not found');
  return conn;
}

/** The user's connection with each app's last import, or 404. */
export async function ascConnectionWithImports(deps: TAscDeps, userId: string, id: string) {
  const conn = await ownConnection(deps, userId, id);
  return toAscConnection(conn, await latestAscImports(deps.db, conn.id));
}

/**
 * Queues an import of app `appId` of the user's connection `id` (404 when the connection is
 * not the user's or the key does not see the app). An import of the app already queued or
 * running is answered instead of a second one.
 */
export async function startAscImport(
  deps: TAscDeps,
  userId: string,
  id: string,
  appId: string,
): Promise<{ importId: string }> {
  const conn = await ownConnection(deps, userId, id);
  if (!conn.apps.some((a) => a.appId === appId)) {
    throw notFound(`The key of "${conn.name}" does not see an app ${appId}`);
  }
  const open = await findOpenAscImport(deps.db, conn.id, appId);
  if (open) return { importId: open.id };
  const importId = await insertAscImport(deps.db, conn.id, appId);
  await deps.producers.add('asc-import', { importId }, { jobId: ascImportJobId(importId) });
  return { importId };
}

/**
 * Daily figures of an app by source type between `from` and `to` (inclusive): sums of Counts
 * over territories and devices (or only `territory` / `device`) and every other column, made
 * by {@link ascMetricRows}. 404 when the connection is not the user's.
 */
export async function ascMetrics(
  deps: TAscDeps,
  userId: string,
  id: string,
  appId: string,
  q: TAscMetricsQuery,
): Promise<TAscMetrics> {
  const conn = await ownConnection(deps, userId, id);
  const range = { connectionId: conn.id, appId, from: q.from, to: q.to };
  const [sums, owners, dims] = await Promise.all([
    sumAscFigures(deps.db, {
      ...range,
      territory: q.territory,
      device: q.device,
      measures: ASC_MEASURES_BY_KIND,
    }),
    ascDayOwners(deps.db, range),
    ascDimensions(deps.db, conn.id, appId),
  ]);
  const rows = ascMetricRows(
    sums.map((x) => ({ ...x, sourceType: x.source_type, counts: Number(x.counts) })),
    owners.map((o) => ({ ...o, processingDate: o.processing_date })),
  );
  return { rows, territories: dims.territories, devices: dims.devices };
}
