import { pino, type Logger } from 'pino';
import { createDb, type Db } from '@aso/db';
import { createRedis, createTypedWorker, ProgressBus, runWorkerService, type WorkerService } from '@aso/queue';
import type { TWorkerEnv } from './env';
import { createAnalysisHandler } from './analysis.handler';

/** What the analyzer's handlers use. */
export interface WorkerDeps {
  env: TWorkerEnv;
  db: Db;
  bus: ProgressBus;
  log: Logger;
}

/**
 * Starts the analyzer worker on the `analysis` queue with `env.CONCURRENCY` jobs at once.
 * `handleSignals: false` lets tests close it themselves.
 */
export async function startAnalyzer(
  env: TWorkerEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<WorkerService> {
  const log = opts.log ?? pino({ name: 'analyzer', level: env.LOG_LEVEL });
  const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2 });
  const redis = createRedis(env.REDIS_URL, { role: 'worker', name: 'analyzer:commands' });
  const bus = new ProgressBus(redis, { prefix: env.QUEUE_PREFIX });
  const deps: WorkerDeps = { env, db, bus, log };
  const worker = createTypedWorker(
    'analysis',
    { analysis: createAnalysisHandler(deps) },
    {
      connection: createRedis(env.REDIS_URL, { role: 'worker', name: 'analyzer:worker' }),
      prefix: env.QUEUE_PREFIX,
      concurrency: env.CONCURRENCY,
    },
  );
  return runWorkerService({
    name: 'analyzer',
    log,
    redis,
    workers: [worker],
    healthPort: env.HEALTH_PORT,
    handleSignals: opts.handleSignals,
    onClose: async () => {
      redis.disconnect();
      await db.destroy();
    },
  });
}
