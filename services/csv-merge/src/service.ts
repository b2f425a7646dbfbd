import type { Logger } from 'pino';
import { createDb, deferWhileDatabaseDown } from '@aso/db';
import { QUEUES, startWorkerService, type TWorkerService } from '@aso/queue';
import type { TWorkerEnv } from './env';
import { createCleanupHandler, createMergeHandler } from './merge.handler';
import { ExportParsePool } from './merge/index';
import type { TWorkerDeps } from './worker.deps';

/**
 * Every hour (ms): how often expired datasets and uploads are deleted
 * (docs/product.md#reading-datasets).
 */
export const CLEANUP_EVERY_MS = 3_600_000;

/**
 * Starts the csv-merge worker (`csv-merge` queue, `env.CONCURRENCY` at once) and the
 * maintenance worker, and registers the hourly cleanup job scheduler (idempotent across
 * replicas: same scheduler id).
 */
export async function startCsvMerge(
  env: TWorkerEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<TWorkerService> {
  return startWorkerService('csv-merge', env, opts, async (ctx) => {
    const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2, log: ctx.log });
    // Started now, so no merge waits for a thread to start.
    const parsePool =
      env.PARSE_THREADS > 0 ? new ExportParsePool({ threads: env.PARSE_THREADS }) : null;
    await parsePool?.start();
    const deps: TWorkerDeps = { env, db, log: ctx.log, redis: ctx.redis, parsePool };
    ctx.worker(
      QUEUES.csvMerge,
      { merge: createMergeHandler(deps) },
      { deferOn: deferWhileDatabaseDown(ctx.log) },
    );
    ctx.worker(QUEUES.maintenance, { 'cleanup-expired': createCleanupHandler(deps) });
    await ctx.producers.scheduleEvery(
      'cleanup-expired-hourly',
      'cleanup-expired',
      {},
      CLEANUP_EVERY_MS,
    );
    return {
      onClose: async () => {
        await parsePool?.close();
        await db.destroy();
      },
    };
  });
}
