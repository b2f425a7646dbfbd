/**
 * The faults production puts the system through, each run against a {@link FaultSystem} and
 * answering what happened and how long recovery took, so that the fault suite (which asserts on
 * the outcome) and `pnpm bench faults` (which records the times) run the very same scenario.
 * A recovery time is measured from the fault (the kill, or the server back up) to the end the
 * user waits for (the audit done, the upload answered).
 */
import { readdir, readFile } from 'node:fs/promises';
import type { ApiClient, TUploadFile } from '@aso/api-client';
import type { FaultSystem, TAuditEnd, TAuditWrite } from './fault.system';
import type { TClusterNode } from './own-redis-cluster.server';
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
  files: TUploadFiles,
): Promise<TMergeFaultOutcome> {
  const user = await system.newUser('merge');
  const upload = system.api.upload(user.token, files);
  // The merge of small files is short: the kill comes as soon as the job is queued or taken.
  await mergeQueued(system, 5).catch(() => undefined);
  const killedAt = Date.now();
  await system.killAndAwaitRestart('csv-merge', /\[csv-merge\s*\] .*health endpoint listening/);
  const answer = await upload;
  const recoveryMs = Date.now() - killedAt;
  return { answer, datasetIds: await system.datasetIds(user.email), recoveryMs };
}

/** Resolves once a merge job is queued or taken (polled every `everyMs`, up to 30 s). */
function mergeQueued(system: FaultSystem, everyMs = 20): Promise<void> {
  return until(
    'the merge job queued',
    async () => (await system.queuedOrActive('csv-merge')) > 0,
    30_000,
    everyMs,
  );
}

/** The two exports of an upload scenario (the caller reads or builds them). */
export interface TUploadFiles {
  conversionCSV: TUploadFile;
  redownloadsCSV: TUploadFile;
}

/**
 * A merge surely queued when `fault` strikes: csv-merge is frozen (SIGSTOP) while the upload
 * is stored and its job queued, `fault` runs, then csv-merge is thawed and takes the job
 * (or what is left of it). Answers the upload request's outcome (its answer, or the error it
 * met) and the user.
 */
async function uploadAcross(
  system: FaultSystem,
  files: TUploadFiles,
  fault: () => Promise<void>,
): Promise<{
  user: { email: string; token: string };
  outcome: Promise<{ answer?: TMergeFaultOutcome['answer']; error?: unknown }>;
  faultAt: number;
}> {
  const user = await system.newUser('merge');
  system.freeze('csv-merge', true);
  let faultAt = 0;
  try {
    const outcome = system.api.upload(user.token, files).then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error }),
    );
    await mergeQueued(system);
    faultAt = Date.now();
    await fault();
    return { user, outcome, faultAt };
  } finally {
    system.freeze('csv-merge', false);
  }
}

/**
 * The upload's answer, the user's datasets and the time since `from` (epoch ms).
 * @throws the error the upload request met when it got no answer.
 */
async function answeredSince(
  system: FaultSystem,
  user: { email: string },
  outcome: { answer?: TMergeFaultOutcome['answer']; error?: unknown },
  from: number,
): Promise<TMergeFaultOutcome> {
  if (!outcome.answer) throw outcome.error;
  return {
    answer: outcome.answer,
    datasetIds: await system.datasetIds(user.email),
    recoveryMs: Date.now() - from,
  };
}

/**
 * A Redis restart (killed, nothing saved, back empty after `downMs`) while an upload's merge
 * job is queued: the job is lost with Redis; the gateway that waits for it queues it again and
 * the upload gets its merged data. Recovery: from Redis back up to the upload's answer.
 */
export async function restartRedisMidMerge(
  system: FaultSystem,
  files: TUploadFiles,
  downMs = 2_000,
): Promise<TMergeFaultOutcome> {
  let upAt = 0;
  const { user, outcome } = await uploadAcross(system, files, async () => {
    await system.redis.kill();
    await new Promise((r) => setTimeout(r, downMs));
    await system.redis.up();
    upAt = Date.now();
  });
  return answeredSince(system, user, await outcome, upAt);
}

/**
 * The system's own PostgreSQL server stopped (`pg_ctl stop -m fast`) while an upload's merge
 * is queued, csv-merge thawed to meet the outage (the job put back to run later), then the
 * server started again: the upload gets its merged data. Recovery: from the server back up to
 * the upload's answer.
 * @throws Error when the system runs on the shared server ({@link FaultSystem.noOwnPostgres}).
 */
export async function restartPostgresMidMerge(
  system: FaultSystem,
  files: TUploadFiles,
): Promise<TMergeFaultOutcome> {
  const server = system.postgres;
  if (!server) throw new Error(`no PostgreSQL server of its own: ${system.noOwnPostgres}`);
  const mark = system.log.length;
  const { user, outcome } = await uploadAcross(system, files, () => server.down('fast'));
  let upAt: number;
  try {
    // csv-merge is thawed: back up once it met the outage (the message of `deferWhileDatabaseDown`).
    await until(
      'the merge put back while the database is down',
      () => /the database is unavailable; the job runs again/.test(system.log.slice(mark)),
      30_000,
    ).catch(() => undefined);
  } finally {
    await server.up();
    upAt = Date.now();
  }
  return answeredSince(system, user, await outcome, upAt);
}

/**
 * Every database session ended (`pg_terminate_backend`, three times) while an upload's merge
 * is queued, then the merge runs: the upload gets its merged data. Recovery: from the first
 * cut to the upload's answer.
 */
export async function terminateSessionsMidMerge(
  system: FaultSystem,
  files: TUploadFiles,
): Promise<TMergeFaultOutcome> {
  const { user, outcome, faultAt } = await uploadAcross(system, files, async () => {
    for (let i = 0; i < 3; i++) {
      await system.terminateDatabaseSessions();
      await new Promise((r) => setTimeout(r, 300));
    }
  });
  return answeredSince(system, user, await outcome, faultAt);
}

/** What {@link killApiMidUpload} answers. */
export interface TApiUploadFaultOutcome extends TMergeFaultOutcome {
  /** What the upload request in flight met (the connection cut: an error). */
  cut: unknown;
}

/**
 * kill -9 of the api while an upload's merge is queued (csv-merge frozen, so the merge is
 * surely waited for by the dead gateway); the supervisor restarts the api, and the client,
 * its request cut, sends the same files again as soon as the api is ready. The answer of that
 * second upload is {@link TMergeFaultOutcome.answer}; nothing of the first may outlive it as a
 * dataset nobody has the id of. Recovery: from the kill to the second upload's answer.
 */
export async function killApiMidUpload(
  system: FaultSystem,
  files: TUploadFiles,
): Promise<TApiUploadFaultOutcome> {
  let killedAt = 0;
  const { user, outcome } = await uploadAcross(system, files, async () => {
    killedAt = Date.now();
    await system.killApiAndAwaitRestart();
  });
  const { answer: early, error: cut } = await outcome;
  if (early) throw new Error('the upload was answered though its api was killed');
  const answer = await system.api.upload(user.token, files);
  const recoveryMs = Date.now() - killedAt;
  // The first merge, thawed, ends one way or another before the datasets are counted.
  await until(
    'no merge queued or running',
    async () => (await system.queuedOrActive('csv-merge')) === 0,
    RECOVERY_BOUND_MS,
  );
  return { answer, cut, datasetIds: await system.datasetIds(user.email), recoveryMs };
}

/** What {@link killApiMidAudit} answers. */
export interface TApiAuditFaultOutcome extends TAuditFaultOutcome {
  /** Ids of the messages the follower got before the kill, then after its reconnection. */
  before: string[];
  after: { id?: string; event: string }[];
  /** The whole stream of the followed audit read once it ended. */
  full: { id?: string; event: string }[];
}

/**
 * kill -9 of the api while two audits run and a client follows the first one's progress
 * stream: the workers finish the audits, the supervisor restarts the api, and the client,
 * its stream cut, reconnects with the `Last-Event-ID` of the last message it got, once the
 * api is ready. Recovery: from the kill to the last audit's end.
 */
export async function killApiMidAudit(
  system: FaultSystem,
  token: string,
): Promise<TApiAuditFaultOutcome> {
  const ids = await startAudits(system, token, 2);
  const followedId = ids[0]!;
  const before: string[] = [];
  let connected: () => void = () => undefined;
  const firstMessage = new Promise<void>((r) => (connected = r));
  const cut = system
    .readProgress(token, followedId, {
      timeoutMs: RECOVERY_BOUND_MS,
      onMessage: (m) => {
        if (m.id) before.push(m.id);
        connected();
      },
    })
    .catch(() => undefined);
  await Promise.race([firstMessage, cut]);
  await system.jobRunning('scrape');
  const killedAt = Date.now();
  await system.killApiAndAwaitRestart();
  await cut;
  const after = await system.readProgress(token, followedId, {
    lastEventId: before.at(-1),
    timeoutMs: RECOVERY_BOUND_MS,
  });
  const outcome = await endsSince(system, token, ids, killedAt);
  const full = await system.readProgress(token, followedId, { timeoutMs: RECOVERY_BOUND_MS });
  return { ...outcome, before, after, full };
}

/** What {@link killRenderMidReport} answers. */
export interface TRenderFaultOutcome {
  /** Status of the report request in flight during the kill (200, or a retryable 5xx). */
  firstStatus: number;
  /** The PDF the user got (from that request, or its retry). */
  pdf: Buffer;
  /** Stored PDFs of the audit (one when nothing was duplicated). */
  documents: number;
  /** From the kill to the PDF in the user's hands (ms). */
  recoveryMs: number;
  /** Processes launched by the killed worker still running 10 s after the kill (Chromium). */
  leftBrowsers: number;
}

/**
 * Pids of the processes started with `--aso-render-owner={owner}`: the Chromium that the
 * render worker of pid `owner` launched (Linux `/proc`; elsewhere none are found).
 */
export async function browsersOwnedBy(owner: number): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(`--aso-render-owner=${owner}`)) found.push(Number(entry));
  }
  return found;
}

/**
 * kill -9 of the render worker while it renders the PDF report of a finished audit that a
 * user asked for (`GET /api/audit/{id}/report.pdf`, waited for by the api): the supervisor
 * restarts it, the render job, its lock expired, runs again, and the request gets the PDF; a
 * request that nevertheless ran out of time (a retryable 5xx) is sent again, as the user
 * would. The system must serve the web app ({@link FaultSystemOptions.web}).
 */
export async function killRenderMidReport(
  system: FaultSystem,
  token: string,
): Promise<TRenderFaultOutcome> {
  const [auditId] = await startAudits(system, token, 1);
  const status = await system.settle(token, auditId!, RECOVERY_BOUND_MS);
  if (status !== 'done') throw new Error(`the audit to print ended ${status}`);
  const report = () =>
    fetch(`${system.apiUrl}/api/audit/${auditId}/report.pdf`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(2 * RECOVERY_BOUND_MS),
    });
  const first = report();
  await system.jobRunning('render', RECOVERY_BOUND_MS);
  const killedPid = system.pid('render');
  const killedAt = Date.now();
  await system.killAndAwaitRestart('render', /\[render\s*\] .*health endpoint listening/);
  let res = await first;
  const firstStatus = res.status;
  if (firstStatus >= 500) res = await report();
  if (res.status !== 200) throw new Error(`report.pdf answered ${res.status}: ${await res.text()}`);
  const pdf = Buffer.from(await res.arrayBuffer());
  const recoveryMs = Date.now() - killedAt;
  const stored = await system.database.db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('kind', '=', 'audit')
    .where('subject_id', '=', auditId!)
    .executeTakeFirstOrThrow();
  // The killed worker's Chromium must not outlive it (it quits when its DevTools pipe closes).
  let left: number[] = [];
  await until(
    "the killed render worker's Chromium quits",
    async () => (left = await browsersOwnedBy(killedPid)).length === 0,
    Math.max(0, killedAt + 10_000 - Date.now()),
    200,
  ).catch(() => undefined /* reported as leftBrowsers */);
  return { firstStatus, pdf, documents: Number(stored.n), recoveryMs, leftBrowsers: left.length };
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

/** What {@link killScraperMidWatchRead} answers. */
export interface TWatchFaultOutcome {
  /** The watched listing once read: when and with what error (null when none). */
  lastCheckedAt: string | null;
  lastError: string | null;
  /** Snapshots of the listing read since it is watched (one when the read was stored once). */
  snapshots: number;
  /** From the kill to the listing read (ms). */
  recoveryMs: number;
}

/**
 * kill -9 of the scraper while it reads a listing a new user just started watching (the first
 * read, `POST /api/watchlist`, in flight: every store answer is delayed): the read runs again
 * on the restarted scraper, and the listing ends read once, without an error. Recovery: from
 * the kill to the listing's `lastCheckedAt`.
 */
export async function killScraperMidWatchRead(system: FaultSystem): Promise<TWatchFaultOutcome> {
  const user = await system.newUser('watch');
  const call = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const res = await fetch(`${system.apiUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  type TItem = {
    id: string;
    createdAt: string;
    appId: string;
    lastCheckedAt: string | null;
    lastError: string | null;
  };
  const item = await call<TItem>('/api/watchlist', {
    method: 'POST',
    body: JSON.stringify({ appStoreUrl: FAULT_APP_URL, role: 'mine' }),
  });
  await system.jobRunning('scrape');
  const killedAt = Date.now();
  await system.killAndAwaitRestart('scraper', /\[scraper\s*\] .*health endpoint listening/);
  let read: TItem | undefined;
  await until(
    'the watched listing read',
    async () => {
      read = (await call<TItem[]>('/api/watchlist')).find((i) => i.id === item.id);
      return Boolean(read?.lastCheckedAt);
    },
    RECOVERY_BOUND_MS,
    250,
  );
  const recoveryMs = Date.now() - killedAt;
  const history = await call<{ snapshots: { fetchedAt: string }[] }>(
    `/api/apps/${encodeURIComponent(item.appId)}/history?storefront=us`,
  );
  return {
    lastCheckedAt: read!.lastCheckedAt,
    lastError: read!.lastError,
    // The audits before stored snapshots of the same app: only the watch's own reads count.
    snapshots: history.snapshots.filter(
      (snapshot) => Date.parse(snapshot.fetchedAt) >= Date.parse(item.createdAt),
    ).length,
    recoveryMs,
  };
}

/** What {@link killClusterMasterMidAudit} answers. */
export interface TClusterFailoverOutcome extends TAuditFaultOutcome {
  /** The slot of the deployment's hash tag (every key of the system is in it). */
  slot: number;
  /** The master that served the slot and was killed. */
  killed: TClusterNode;
  /** The node serving the slot once the cluster was ok again (its replica, promoted). */
  promoted: TClusterNode;
  /** From the kill to every node reporting `cluster_state:ok` with every slot served (ms). */
  failoverMs: number;
  /** Every change PostgreSQL made to each audit's row during the case, by audit id. */
  writes: Record<string, TAuditWrite[]>;
}

/**
 * On a Redis Cluster ({@link FaultSystem} started with `cluster`): three audits with a
 * competitor each, and while their scrapes run, kill -9 of the master that serves the slot of
 * the `analysis` queue (every key of the deployment shares its hash tag, so it holds them all).
 * The cluster promotes that master's replica; ioredis refreshes the slot map; the audits go on.
 * Recovery: from the kill to the last audit's end. Every change to the audits' rows is
 * recorded, so the caller can check the result was written once.
 * @throws Error when the system does not run on a cluster, or a bound is passed.
 */
export async function killClusterMasterMidAudit(
  system: FaultSystem,
  token: string,
): Promise<TClusterFailoverOutcome> {
  const cluster = system.cluster;
  if (!cluster) throw new Error('the system does not run on a Redis Cluster');
  await system.recordAuditWrites();
  const ids = await Promise.all(
    [0, 1, 2].map(
      async () =>
        (
          await system.api.analyze(token, {
            appStoreUrl: FAULT_APP_URL,
            competitorUrl1: FAULT_COMPETITOR_URL,
          })
        ).id,
    ),
  );
  await system.jobRunning('scrape');
  const slot = await cluster.slotOf(`${system.prefix}:analysis:wait`);
  const killed = await cluster.masterOf(slot);
  const killedAt = Date.now();
  await cluster.kill(killed);
  await cluster.awaitOk(60_000);
  const failoverMs = Date.now() - killedAt;
  const promoted = await cluster.masterOf(slot);
  const outcome = await endsSince(system, token, ids, killedAt);
  const writes: Record<string, TAuditWrite[]> = {};
  for (const id of ids) writes[id] = await system.auditWrites(id);
  return { ...outcome, slot, killed, promoted, failoverMs, writes };
}
