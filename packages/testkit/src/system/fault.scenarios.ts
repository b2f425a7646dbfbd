/**
 * The faults production puts the system through, each run against a {@link FaultSystem} and
 * answering what happened and how long recovery took, so that the fault suite (which asserts on
 * the outcome) and `pnpm bench faults` (which records the times) run the very same scenario.
 * A recovery time is measured from the fault (the kill, or the server back up) to the end the
 * user waits for (the audit done, the upload answered).
 */
import type { ApiClient, TUploadFile } from '@aso/api-client';
import type { FaultSystem, TAuditEnd } from './fault.system';
import { until } from './wait.helpers';

/** Main app of the scenarios' audits (recorded by the replay server). */
export const FAULT_APP_URL = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';
/** Competitor of the scraper scenario: two scrape jobs in flight. */
const FAULT_COMPETITOR_URL = 'https://apps.apple.com/us/app/instagram/id389801252';

/**
 * Wide correctness bound of one recovery (ms): far above what the settings give (lock 8 s plus
 * a stall check of 3 s, a restart backoff of seconds). A scenario that needs longer failed.
 */
export const RECOVERY_BOUND_MS = 90_000;

/** What an audit scenario answers. */
export interface TAuditFaultOutcome {
  /** The audits in flight during the fault, as they ended. */
  audits: TAuditEnd[];
  /** From the fault (or the server back) to the last audit finished (ms). */
  recoveryMs: number;
}

/** Starts `n` audits of {@link FAULT_APP_URL} at once; answers their ids. */
async function startAudits(system: FaultSystem, token: string, n: number): Promise<string[]> {
  return Promise.all(
    Array.from(
      { length: n },
      async () => (await system.api.analyze(token, { appStoreUrl: FAULT_APP_URL })).id,
    ),
  );
}

/** Waits for every audit's end; answers them and the time since `from` (epoch ms). */
async function endsSince(
  system: FaultSystem,
  token: string,
  ids: string[],
  from: number,
): Promise<TAuditFaultOutcome> {
  const audits: TAuditEnd[] = [];
  for (const id of ids) audits.push(await system.auditEnd(token, id, RECOVERY_BOUND_MS));
  return { audits, recoveryMs: Date.now() - from };
}

/** True when every audit ended done with exactly one `complete` event. */
export function completedOnce(audits: readonly TAuditEnd[]): boolean {
  return audits.every(
    (a) => a.status === 'done' && a.terminal.length === 1 && a.terminal[0] === 'complete',
  );
}

/**
 * One audit with nothing going wrong: the time from POST /api/analyze to its end (ms), the
 * baseline the recovery times are compared with.
 */
export async function normalAudit(system: FaultSystem, token: string): Promise<TAuditFaultOutcome> {
  const started = Date.now();
  const ids = await startAudits(system, token, 1);
  return endsSince(system, token, ids, started);
}

/**
 * kill -9 of a worker (`scraper` or `analyzer`) while an audit's scrape jobs are in flight
 * (the scraper's audit has a competitor: two jobs); the supervisor starts it again and the
 * job, its lock expired, runs on the new process. Recovery: from the kill to the audit's end.
 */
export async function killWorkerMidAudit(
  system: FaultSystem,
  token: string,
  worker: 'scraper' | 'analyzer',
): Promise<TAuditFaultOutcome> {
  const { id } = await system.api.analyze(token, {
    appStoreUrl: FAULT_APP_URL,
    ...(worker === 'scraper' ? { competitorUrl1: FAULT_COMPETITOR_URL } : {}),
  });
  // The analyzer is killed while the audit's jobs are in flight: its analysis runs on the
  // restarted one.
  await system.jobRunning('scrape');
  const killedAt = Date.now();
  await system.killAndAwaitRestart(
    worker,
    new RegExp(`\\[${worker}\\s*\\] .*health endpoint listening`),
  );
  return endsSince(system, token, [id], killedAt);
}

/** What {@link killMergeMidUpload} answers. */
export interface TMergeFaultOutcome {
  /** The upload's answer (`POST /api/uploads`). */
  answer: Awaited<ReturnType<ApiClient['upload']>>;
  /** Ids of the datasets the user owns afterwards (exactly the answer's one when nothing was duplicated). */
  datasetIds: string[];
  /** From the kill to the upload's answer (ms). */
  recoveryMs: number;
}

/**
 * kill -9 of csv-merge as soon as the merge job of an upload is queued or taken: the job runs
 * again (or for the first time) on the restarted worker and the waiting upload request gets
 * its merged data. `files` are the two exports (the caller reads or builds them).
 */
export async function killMergeMidUpload(
  system: FaultSystem,
  files: { conversionCSV: TUploadFile; redownloadsCSV: TUploadFile },
): Promise<TMergeFaultOutcome> {
  const user = await system.newUser('merge');
  const upload = system.api.upload(user.token, files);
  // The merge of small files is short: the kill comes as soon as the job is queued or taken.
  await until(
    'the merge job queued',
    async () => {
      const redis = system.redisClient();
      try {
        const [waiting, active] = await Promise.all([
          redis.llen(`${system.prefix}:csv-merge:wait`),
          redis.llen(`${system.prefix}:csv-merge:active`),
        ]);
        return waiting + active > 0;
      } finally {
        redis.disconnect();
      }
    },
    30_000,
    5,
  ).catch(() => undefined);
  const killedAt = Date.now();
  await system.killAndAwaitRestart('csv-merge', /\[csv-merge\s*\] .*health endpoint listening/);
  const answer = await upload;
  const recoveryMs = Date.now() - killedAt;
  const mine = await system.database.db
    .selectFrom('datasets as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select('d.id')
    .where('u.email', '=', user.email)
    .execute();
  return { answer, datasetIds: mine.map((d) => d.id), recoveryMs };
}

/** What {@link restartRedisMidAudit} answers. */
export interface TRedisFaultOutcome extends TAuditFaultOutcome {
  /** The messages a client following the first audit across the restart received. */
  followed: { event: string }[];
}

/**
 * Two audits in flight, a client following the first one's progress stream; Redis is killed
 * (nothing saved) and started again empty after `downMs`. The analyzer re-adds the lost flows.
 * Recovery: from Redis back up to the last audit's end.
 */
export async function restartRedisMidAudit(
  system: FaultSystem,
  token: string,
  downMs = 2_000,
): Promise<TRedisFaultOutcome> {
  const ids = await startAudits(system, token, 2);
  await system.jobRunning('scrape');
  // The follower has its first message before the fault: its stream spans the restart.
  let connected: () => void = () => undefined;
  const firstMessage = new Promise<void>((r) => (connected = r));
  const followed = system.readProgress(token, ids[0]!, {
    timeoutMs: RECOVERY_BOUND_MS,
    onMessage: () => connected(),
  });
  await Promise.race([firstMessage, followed]);
  await system.redis.kill();
  await new Promise((r) => setTimeout(r, downMs));
  await system.redis.up();
  const outcome = await endsSince(system, token, ids, Date.now());
  return { ...outcome, followed: await followed };
}

/** Three audits while every database session is ended three times (`pg_terminate_backend`). */
export async function terminateSessionsMidAudit(
  system: FaultSystem,
  token: string,
): Promise<TAuditFaultOutcome> {
  const ids = await startAudits(system, token, 3);
  const cutAt = Date.now();
  for (let i = 0; i < 3; i++) {
    await system.terminateDatabaseSessions();
    await new Promise((r) => setTimeout(r, 300));
  }
  return endsSince(system, token, ids, cutAt);
}

/** What {@link restartPostgresMidAudit} answers. */
export interface TPostgresFaultOutcome extends TAuditFaultOutcome {
  /** HTTP statuses the api answered while the server was down. */
  whileDown: { auditRead: number; analyze: number; readyz: number };
  /** From the server back up to the api's first 200 on an audit read (ms). */
  apiRecoveryMs: number;
}

/**
 * Two audits in flight while the system's own PostgreSQL server is stopped as an operator
 * restarts it (`pg_ctl stop -m fast`) and started again once a worker has met the outage (a
 * job put back to run later). While it is down the api is asked for an audit, a new audit and
 * its readiness. Recovery: from the server back up to the last audit's end.
 * @throws Error when the system runs on the shared server ({@link FaultSystem.noOwnPostgres}).
 */
export async function restartPostgresMidAudit(
  system: FaultSystem,
  token: string,
): Promise<TPostgresFaultOutcome> {
  const server = system.postgres;
  if (!server) throw new Error(`no PostgreSQL server of its own: ${system.noOwnPostgres}`);
  const status = async (path: string, init?: RequestInit) =>
    (
      await fetch(`${system.apiUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        signal: AbortSignal.timeout(10_000),
      })
    ).status;
  const ids = await startAudits(system, token, 2);
  await system.jobRunning('scrape');
  const mark = system.log.length;
  await server.down('fast');
  let whileDown: TPostgresFaultOutcome['whileDown'];
  try {
    whileDown = {
      auditRead: await status(`/api/audit/${ids[0]}`),
      analyze: await status('/api/analyze', {
        method: 'POST',
        body: JSON.stringify({ appStoreUrl: FAULT_APP_URL }),
      }),
      readyz: await status('/readyz'),
    };
    // Back up once a worker met the outage mid-job (the message of `deferWhileDatabaseDown`).
    await until(
      'a job put back while the database is down',
      () => /the database is unavailable; the job runs again/.test(system.log.slice(mark)),
      30_000,
    );
  } finally {
    // Whatever happened, the next case finds the server up.
    await server.up();
  }
  const upAt = Date.now();
  await until(
    'the api reading audits again',
    async () => (await status(`/api/audit/${ids[0]}`)) === 200,
    RECOVERY_BOUND_MS,
    50,
  );
  const apiRecoveryMs = Date.now() - upAt;
  return { ...(await endsSince(system, token, ids, upAt)), whileDown, apiRecoveryMs };
}
