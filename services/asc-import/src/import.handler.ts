import {
  ASC_REPORTS,
  AscApiError,
  AscClient,
  AscKeyError,
  AscReportError,
  datesToReplace,
  gunzipSegments,
  openSecret,
  readAscPrivateKey,
  readReportTsv,
  SecretBoxError,
  type TAscReport,
  type TAscReportDef,
  type TAscReportInstance,
  type TAscReportRequest,
} from '@aso/asc';
import {
  findAscConnectionSecret,
  findAscImport,
  findOpenAscImport,
  insertAscImport,
  isDatabaseUnavailableError,
  listImportedAscApps,
  storeAscInstance,
  storedAscInstanceIds,
  updateAscImport,
} from '@aso/db';
import { ascImportJobId, jobLogger, type TJobHandler } from '@aso/queue';
import type { TWorkerDeps } from './worker.deps';

/** Errors whose message is meant for the user (in words, never holding key material). */
const isWordedError = (e: unknown): e is Error =>
  e instanceof AscApiError ||
  e instanceof AscReportError ||
  e instanceof AscKeyError ||
  e instanceof SecretBoxError;

/** The client of a connection: its private key opened in this process's memory only. */
function clientFor(
  deps: TWorkerDeps,
  conn: { id: string; issuer_id: string; key_id: string; private_key_sealed: string },
): AscClient {
  if (!deps.secretsKey) {
    throw new SecretBoxError(
      'The importer has no SECRETS_KEY, so it cannot open the stored key (see docs/OPERATIONS.md, "App Store Connect").',
    );
  }
  const pem = openSecret(conn.private_key_sealed, deps.secretsKey, conn.id);
  return new AscClient({
    origin: deps.env.ASC_API_ORIGIN,
    key: { issuerId: conn.issuer_id, keyId: conn.key_id, privateKey: readAscPrivateKey(pem) },
    timeoutMs: deps.env.ASC_TIMEOUT_MS,
    attempts: deps.env.ASC_RETRY_ATTEMPTS,
    baseDelayMs: deps.env.ASC_RETRY_BASE_DELAY_MS,
    maxPauseMs: deps.env.ASC_MAX_PAUSE_MS,
    maxSegmentBytes: deps.env.ASC_MAX_SEGMENT_BYTES,
  });
}

/**
 * What an import says when the one-time snapshot was refused but the ONGOING request's daily
 * reports were imported.
 */
export const SNAPSHOT_REFUSED_NOTICE =
  'Daily reports were imported, but not the history before them: the one-time snapshot was refused (403), because requesting it needs a key with the Admin role. Import once with an Admin key to add the history.';

/**
 * The report requests to read: every request of the app (a stopped one still lists the
 * instances it produced), after making sure of one ONGOING request that is not stopped
 * (created when none exists or every one was `stoppedDueToInactivity`) and one
 * ONE_TIME_SNAPSHOT for history (created once). Apple: "Downloading analytics reports"
 * (https://developer.apple.com/documentation/appstoreconnectapi/downloading-analytics-reports).
 * A key without the Admin role gets a 403 on creating a request, explained in words: fatal
 * for the ONGOING one (nothing to import without it), while a refused snapshot only costs
 * the history, said in `notice` ({@link SNAPSHOT_REFUSED_NOTICE}). A 409 on the snapshot
 * (one exists) is no news.
 */
async function ensureRequests(
  client: AscClient,
  appId: string,
): Promise<{ requests: TAscReportRequest[]; notice: string | null }> {
  const existing = await client.listReportRequests(appId);
  const requests: TAscReportRequest[] = [...existing];
  const ongoing = existing.find((r) => r.accessType === 'ONGOING' && !r.stoppedDueToInactivity);
  if (!ongoing) requests.push(await client.createReportRequest(appId, 'ONGOING'));
  let notice: string | null = null;
  if (!existing.some((r) => r.accessType === 'ONE_TIME_SNAPSHOT')) {
    try {
      requests.push(await client.createReportRequest(appId, 'ONE_TIME_SNAPSHOT'));
    } catch (error) {
      if (!(error instanceof AscApiError)) throw error;
      if (error.status === 403) notice = SNAPSHOT_REFUSED_NOTICE;
      else if (error.status !== 409) throw error;
    }
  }
  return { requests, notice };
}

/** The report of `def` among a request's reports of its category: by name, in preference. */
function pickReport(def: TAscReportDef, reports: readonly TAscReport[]): TAscReport | null {
  for (const name of def.names) {
    const found = reports.find((r) => r.name === name);
    if (found) return found;
  }
  return null;
}

/**
 * Downloads an instance's segments (listing them again once when a URL expired), gunzips and
 * reads them. Returns the figures and the number of segments.
 */
async function readInstance(
  client: AscClient,
  def: TAscReportDef,
  instance: TAscReportInstance,
  appId: string,
  maxRows: number,
) {
  let segments = await client.listSegments(instance.id);
  const bytes: Buffer[] = [];
  for (let i = 0; i < segments.length; i++) {
    try {
      bytes.push(await client.downloadSegment(segments[i]!));
    } catch (error) {
      const expired = error instanceof AscApiError && [403, 404, 410].includes(error.status);
      if (!expired) throw error;
      // Segment URLs expire: list the instance's segments again for fresh URLs, once.
      segments = await client.listSegments(instance.id);
      const again = segments[i];
      if (!again) throw error;
      bytes.push(await client.downloadSegment(again));
    }
  }
  const figures = readReportTsv(def, gunzipSegments(bytes), appId, maxRows);
  return { figures, segments: segments.length };
}

/**
 * Runs import `importId`: ensures the app's report requests (a refused history snapshot is
 * the import's `notice`, see {@link ensureRequests}), finds the App Store Discovery
 * and Engagement and App Downloads reports, lists their DAILY instances, and stores each
 * instance not stored before, oldest processing date first, so each Date ends up with the
 * record set of the newest instance that carried it. Counts are written to the import row
 * after each instance (the progress the screen shows). An instance that cannot be read is
 * named in the import's error and left for the next import; the others are stored.
 * A database outage is thrown unchanged (the job is deferred, see `deferOn`).
 */
export function createAscImportHandler(deps: TWorkerDeps): TJobHandler<'asc-import'> {
  return async (data, job, signal) => {
    const log = jobLogger(deps.log, job);
    const imp = await findAscImport(deps.db, data.importId);
    if (!imp) return { skipped: 'import gone' };
    const conn = await findAscConnectionSecret(deps.db, imp.connection_id);
    if (!conn) {
      await updateAscImport(deps.db, imp.id, {
        state: 'failed',
        error: 'The connection was deleted.',
        finished_at: new Date(),
      });
      return { skipped: 'connection gone' };
    }
    await updateAscImport(deps.db, imp.id, {
      state: 'running',
      started_at: new Date(),
      error: null,
      notice: null,
    });
    const counts = { reports_found: 0, instances: 0, segments: 0, rows: 0 };
    const problems: string[] = [];
    try {
      const client = clientFor(deps, conn);
      const { requests, notice } = await ensureRequests(client, imp.app_id);
      if (notice) {
        await updateAscImport(deps.db, imp.id, { notice });
        log.info({ importId: imp.id }, 'one-time snapshot refused; importing the daily reports');
      }
      const stored = await storedAscInstanceIds(deps.db, conn.id, imp.app_id);
      for (const def of ASC_REPORTS) {
        const instances = new Map<string, TAscReportInstance>();
        for (const request of requests) {
          const report = pickReport(def, await client.listReports(request.id, def.category));
          if (!report) continue;
          counts.reports_found++;
          for (const i of await client.listInstances(report.id, 'DAILY')) instances.set(i.id, i);
        }
        const todo = [...instances.values()]
          .filter((i) => !stored.has(i.id))
          .sort(
            (a, b) => a.processingDate.localeCompare(b.processingDate) || a.id.localeCompare(b.id),
          );
        for (const instance of todo) {
          if (signal.aborted)
            throw new AscApiError(
              'The import was stopped (the importer is shutting down).',
              0,
              true,
            );
          try {
            const read = await readInstance(
              client,
              def,
              instance,
              imp.app_id,
              deps.env.ASC_MAX_ROWS_PER_INSTANCE,
            );
            counts.segments += read.segments;
            counts.rows += await storeAscInstance(
              deps.db,
              {
                connectionId: conn.id,
                appId: imp.app_id,
                kind: def.kind,
                instanceId: instance.id,
                processingDate: instance.processingDate,
                figures: read.figures,
              },
              (owners, dates) => datesToReplace(owners, instance.processingDate, dates),
            );
            stored.add(instance.id);
            counts.instances++;
          } catch (error) {
            if (
              !(error instanceof AscReportError) &&
              !(error instanceof AscApiError && error.status === 0)
            )
              throw error;
            problems.push(`${instance.processingDate}: ${error.message}`);
            log.warn({ instance: instance.id, err: error.message }, 'report instance not stored');
          }
          await updateAscImport(deps.db, imp.id, counts);
        }
      }
      const error =
        problems.length === 0
          ? null
          : `${problems.length} report instance${problems.length > 1 ? 's' : ''} could not be read and will be tried again next import. First: ${problems[0]}`;
      await updateAscImport(deps.db, imp.id, {
        ...counts,
        state: problems.length === 0 ? 'done' : 'failed',
        error,
        finished_at: new Date(),
      });
      log.info(
        { importId: imp.id, ...counts, problems: problems.length },
        'App Store Connect import finished',
      );
      return counts;
    } catch (error) {
      if (isDatabaseUnavailableError(error)) throw error;
      const words = isWordedError(error)
        ? error.message
        : 'The import failed on an unexpected error; the importer log has the detail.';
      if (!isWordedError(error)) log.error({ err: error }, 'App Store Connect import failed');
      await updateAscImport(deps.db, imp.id, {
        ...counts,
        state: 'failed',
        error: words,
        finished_at: new Date(),
      });
      return { failed: words };
    }
  };
}

/**
 * The scheduled round (every `ASC_IMPORT_INTERVAL`): queues an import of every app imported
 * before (at most `ASC_ROUND_MAX`), unless one is queued or running. Only new instances are
 * downloaded, so a daily round fetches the day's instance.
 */
export function createAscImportRoundHandler(deps: TWorkerDeps): TJobHandler<'asc-import-round'> {
  return async () => {
    const apps = await listImportedAscApps(deps.db, deps.env.ASC_ROUND_MAX);
    let queued = 0;
    for (const a of apps) {
      if (await findOpenAscImport(deps.db, a.connection_id, a.app_id)) continue;
      const importId = await insertAscImport(deps.db, a.connection_id, a.app_id);
      await deps.producers.add('asc-import', { importId }, { jobId: ascImportJobId(importId) });
      queued++;
    }
    return { queued };
  };
}
