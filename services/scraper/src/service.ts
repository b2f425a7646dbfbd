import { pino, type Logger } from 'pino';
import { createDb, type Db } from '@aso/db';
import { createRedis, createTypedWorker, ProgressBus, runWorkerService, type WorkerService } from '@aso/queue';
import type { TWorkerEnv } from './env';
import { createScrapeHandler } from './scrape.handler';

/** What the scraper's handlers use. */
export interface WorkerDeps {
  env: TWorkerEnv;
  db: Db;
  bus: ProgressBus;
  log: Logger;
}

/**
 * Starts the scraper worker on the `scrape` queue with `env.CONCURRENCY` jobs at once.
 * `handleSignals: false` lets tests close it themselves.
 */
export async function startScraper(
  env: TWorkerEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<WorkerService> {
  const log = opts.log ?? pino({ name: 'scraper', level: env.LOG_LEVEL });
  const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2 });
  const redis = createRedis(env.REDIS_URL, { role: 'worker', name: 'scraper:commands' });
  const bus = new ProgressBus(redis, { prefix: env.QUEUE_PREFIX });
  const deps: WorkerDeps = { env, db, bus, log };
  const worker = createTypedWorker(
    'scrape',
    { scrape: createScrapeHandler(deps) },
    {
      connection: createRedis(env.REDIS_URL, { role: 'worker', name: 'scraper:worker' }),
      prefix: env.QUEUE_PREFIX,
      concurrency: env.CONCURRENCY,
    },
  );
  return runWorkerService({
    name: 'scraper',
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
