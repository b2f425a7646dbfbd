import { pino, type Logger } from 'pino';
import { Queue } from 'bullmq';
import { createDb, deferWhileDatabaseDown, type Db } from '@aso/db';
import {
  closeQuietly,
  createRedis,
  createTypedWorker,
  JOBS,
  QUEUES,
  runWorkerService,
  type WorkerService,
} from '@aso/queue';
import type { TWorkerEnv } from './env';
import { createCleanupHandler, createMergeHandler } from './merge.handler';

/** What the csv-merge handlers use. */
export interface WorkerDeps {
  env: TWorkerEnv;
  db: Db;
  log: Logger;
}

/** Every hour (ms): how often expired datasets and uploads are deleted (spec section 5). */
export const CLEANUP_EVERY_MS = 3_600_000;

/**
 * Starts the csv-merge worker (`csv-merge` queue, `env.CONCURRENCY` at once) and the
 * maintenance worker, and registers the hourly cleanup job scheduler (idempotent across
 * replicas: same scheduler id).
 */
export async function startCsvMerge(
  env: TWorkerEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<WorkerService> {
  const log = opts.log ?? pino({ name: 'csv-merge', level: env.LOG_LEVEL });
  const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2, log });
  const redis = createRedis(env.REDIS_URL, { role: 'worker', name: 'csv-merge:commands' });
  const deps: WorkerDeps = { env, db, log };
  const connection = createRedis(env.REDIS_URL, { role: 'worker', name: 'csv-merge:worker' });
  const merge = createTypedWorker(
    QUEUES.csvMerge,
    { merge: createMergeHandler(deps) },
    {
      connection,
      prefix: env.QUEUE_PREFIX,
      concurrency: env.CONCURRENCY,
      lockDuration: env.LOCK_DURATION_MS,
      stalledInterval: env.STALLED_INTERVAL_MS,
      deferOn: deferWhileDatabaseDown(log),
    },
  );
  const maintenance = createTypedWorker(
    QUEUES.maintenance,
    { 'cleanup-expired': createCleanupHandler(deps) },
    { connection, prefix: env.QUEUE_PREFIX, concurrency: 1 },
  );
  const maintenanceQueue = new Queue(QUEUES.maintenance, {
    connection: redis,
    prefix: env.QUEUE_PREFIX,
  });
  const scheduleCleanup = () =>
    maintenanceQueue.upsertJobScheduler(
      'cleanup-expired-hourly',
      { every: CLEANUP_EVERY_MS },
      { name: 'cleanup-expired', data: {}, opts: JOBS['cleanup-expired'].options },
    );
  await scheduleCleanup();
  // A Redis that came back empty (restarted without persistence, or failed over to a replica
  // that had not caught up) has lost the scheduler: this process owns it, so it re-creates it
  // on every reconnect (an upsert: a scheduler that survived is left as it is).
  redis.on('ready', () => {
    scheduleCleanup().then(
      () => log.info('cleanup job scheduler re-created after a Redis reconnect'),
      (err: unknown) => log.warn({ err }, 'could not re-create the cleanup job scheduler'),
    );
  });
  return runWorkerService({
    name: 'csv-merge',
    log,
    redis,
    workers: [merge, maintenance],
    healthPort: env.HEALTH_PORT,
    handleSignals: opts.handleSignals,
    onClose: async () => {
      await closeQuietly(maintenanceQueue);
      redis.disconnect();
      connection.disconnect();
      await db.destroy();
    },
  });
}
