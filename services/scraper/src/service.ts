import type { Logger } from 'pino';
import { createDb, deferWhileDatabaseDown } from '@aso/db';
import {
  ProgressBus,
  QUEUES,
  startWorkerService,
  type Worker,
  type WorkerService,
} from '@aso/queue';
import type { TWorkerEnv } from './env';
import { createScrapeHandler } from './scrape.handler';
import { createStoreReadMetrics } from './store-read.recorder';
import type { WorkerDeps } from './worker.deps';
import { createWatchReadHandler, createWatchRoundHandler } from './watch.handler';
import { createWebhookDeliverHandler } from './webhook.handler';

/** Id of the job scheduler of the watch rounds (one across every scraper replica). */
export const WATCH_ROUND_SCHEDULER_ID = 'watch-round';

/**
 * Starts the scraper worker on the `scrape` queue (audits' scrapes, watched listings' reads and
 * the watch rounds) with `env.CONCURRENCY` jobs at once, the configured lock duration and
 * stall interval, and a queue-wide limiter (`SCRAPE_RATE_LIMIT_MAX` jobs per
 * `SCRAPE_RATE_LIMIT_DURATION_MS`, shared by every scraper process; BullMQ applies a manual
 * rate limit only when a limiter is set); the `webhook` worker (`WEBHOOK_CONCURRENCY`); and
 * the job scheduler of the watch rounds (every `WATCH_ROUND_EVERY_MS`, one id for every
 * replica).
 * `handleSignals: false` lets tests close it themselves.
 */
export async function startScraper(
  env: TWorkerEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<WorkerService> {
  return startWorkerService('scraper', env, opts, async (ctx) => {
    const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2, log: ctx.log });
    let worker: Worker | null = null;
    const deps: WorkerDeps = {
      env,
      db,
      bus: new ProgressBus(ctx.redis, { prefix: env.QUEUE_PREFIX }),
      producers: ctx.producers,
      log: ctx.log,
      metrics: createStoreReadMetrics(ctx.metrics.registry),
      worker: () => {
        if (!worker) throw new Error('scraper worker not started');
        return worker;
      },
    };
    ctx.log.info(
      {
        itunesOrigin: env.ITUNES_ORIGIN,
        appStoreOrigin: env.APP_STORE_ORIGIN,
        cacheTtlS: env.APP_CACHE_TTL,
      },
      'store origins',
    );
    worker = ctx.worker(
      QUEUES.scrape,
      {
        scrape: createScrapeHandler(deps),
        'watch-read': createWatchReadHandler(deps),
        'watch-round': createWatchRoundHandler(deps),
      },
      {
        deferOn: deferWhileDatabaseDown(ctx.log),
        limiter: { max: env.SCRAPE_RATE_LIMIT_MAX, duration: env.SCRAPE_RATE_LIMIT_DURATION_MS },
      },
    );
    ctx.worker(
      QUEUES.webhook,
      { 'webhook-deliver': createWebhookDeliverHandler(deps) },
      { concurrency: env.WEBHOOK_CONCURRENCY, deferOn: deferWhileDatabaseDown(ctx.log) },
    );
    await ctx.producers.scheduleEvery(
      WATCH_ROUND_SCHEDULER_ID,
      'watch-round',
      {},
      env.WATCH_ROUND_EVERY_MS,
    );
    return { onClose: () => db.destroy() };
  });
}
