import type { Worker } from 'bullmq';
import { pino, type Logger } from 'pino';
import { createDb, deferWhileDatabaseDown, type Db } from '@aso/db';
import {
  createRedis,
  createTypedWorker,
  ProgressBus,
  runWorkerService,
  type WorkerService,
} from '@aso/queue';
import type { TWorkerEnv } from './env';
import { createScrapeHandler } from './scrape.handler';

/** What the scraper's handlers use. */
export interface WorkerDeps {
  env: TWorkerEnv;
  db: Db;
  bus: ProgressBus;
  log: Logger;
  /** The running worker (for BullMQ's manual rate limit after a 429). Throws before start. */
  worker: () => Worker;
}

/**
 * Starts the scraper worker on the `scrape` queue with `env.CONCURRENCY` jobs at once, the
 * configured lock duration and stall interval, and a queue-wide limiter
 * (`SCRAPE_RATE_LIMIT_MAX` jobs per `SCRAPE_RATE_LIMIT_DURATION_MS`, shared by every scraper
 * process; BullMQ applies a manual rate limit only when a limiter is set).
 * `handleSignals: false` lets tests close it themselves.
 */
export async function startScraper(
  env: TWorkerEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<WorkerService> {
  const log = opts.log ?? pino({ name: 'scraper', level: env.LOG_LEVEL });
  const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2, log });
  const redis = createRedis(env.REDIS_URL, { role: 'worker', name: 'scraper:commands' });
  const bus = new ProgressBus(redis, { prefix: env.QUEUE_PREFIX });
  const workerConnection = createRedis(env.REDIS_URL, { role: 'worker', name: 'scraper:worker' });
  let worker: Worker | null = null;
  const deps: WorkerDeps = {
    env,
    db,
    bus,
    log,
    worker: () => {
      if (!worker) throw new Error('scraper worker not started');
      return worker;
    },
  };
  log.info(
    {
      itunesOrigin: env.ITUNES_ORIGIN,
      appStoreOrigin: env.APP_STORE_ORIGIN,
      cacheTtlS: env.APP_CACHE_TTL,
    },
    'store origins',
  );
  worker = createTypedWorker(
    'scrape',
    { scrape: createScrapeHandler(deps) },
    {
      connection: workerConnection,
      prefix: env.QUEUE_PREFIX,
      concurrency: env.CONCURRENCY,
      lockDuration: env.LOCK_DURATION_MS,
      stalledInterval: env.STALLED_INTERVAL_MS,
      deferOn: deferWhileDatabaseDown(log),
      limiter: { max: env.SCRAPE_RATE_LIMIT_MAX, duration: env.SCRAPE_RATE_LIMIT_DURATION_MS },
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
      // BullMQ does not close connections it was given.
      workerConnection.disconnect();
      redis.disconnect();
      await db.destroy();
    },
  });
}
