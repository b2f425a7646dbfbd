import type { Logger } from 'pino';
import { createDb, deferWhileDatabaseDown } from '@aso/db';
import {
  ProgressBus,
  QUEUES,
  startWorkerService,
  type Worker,
  type TWorkerService,
} from '@aso/queue';
import type { TWorkerEnv } from './env';
import { createScrapeHandler } from './scrape.handler';
import { createStoreReadMetrics } from './store-read.recorder';
import type { TWorkerDeps } from './worker.deps';
import { createWatchReadHandler, createWatchRoundHandler } from './watch.handler';
import { createWebhookDeliverHandler } from './webhook.handler';
import {
  createKeywordReadHandler,
  createKeywordRoundHandler,
  searchLimiter,
} from './keyword.handler';

/** Id of the job scheduler of the watch rounds (one across every scraper replica). */
export const WATCH_ROUND_SCHEDULER_ID = 'watch-round';

/** Id of the job scheduler of the keyword rounds (one across every scraper replica). */
export const KEYWORD_ROUND_SCHEDULER_ID = 'keyword-round';

/**
 * Starts the scraper worker on the `scrape` queue (audits' scrapes, watched listings' reads and
 * the watch rounds) with `env.CONCURRENCY` jobs at once, the configured lock duration and
 * stall interval, and a queue-wide limiter (`SCRAPE_RATE_LIMIT_MAX` jobs per
 * `SCRAPE_RATE_LIMIT_DURATION_MS`, shared by every scraper process; BullMQ applies a manual
 * rate limit only when a limiter is set); the `webhook` worker (`WEBHOOK_CONCURRENCY`); and
 * the job scheduler of the watch rounds (every `WATCH_ROUND_EVERY_MS`, one id for every
 * replica); the `keyword-search` worker (search reads under their own limiter, see
 * `searchLimiter`) and the keyword rounds' scheduler (`KEYWORD_ROUND_EVERY_MS`).
 * `handleSignals: false` lets tests close it themselves.
 */
export async function startScraper(
  env: TWorkerEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<TWorkerService> {
  return startWorkerService('scraper', env, opts, async (ctx) => {
    const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2, log: ctx.log });
    let worker: Worker | null = null;
    let keywordWorker: Worker | null = null;
    const deps: TWorkerDeps = {
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
      keywordWorker: () => {
        if (!keywordWorker) throw new Error('keyword worker not started');
        return keywordWorker;
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
        'keyword-round': createKeywordRoundHandler(deps),
      },
      {
        deferOn: deferWhileDatabaseDown(ctx.log),
        limiter: { max: env.SCRAPE_RATE_LIMIT_MAX, duration: env.SCRAPE_RATE_LIMIT_DURATION_MS },
      },
    );
    ctx.worker(
      QUEUES.webhook,
      { 'webhook-deliver': createWebhookDeliverHandler(deps) },
      { deferOn: deferWhileDatabaseDown(ctx.log) },
    );
    keywordWorker = ctx.worker(
      QUEUES.keywordSearch,
      { 'keyword-read': createKeywordReadHandler(deps) },
      { deferOn: deferWhileDatabaseDown(ctx.log), limiter: searchLimiter(env) },
    );
    await ctx.producers.scheduleEvery(
      KEYWORD_ROUND_SCHEDULER_ID,
      'keyword-round',
      {},
      env.KEYWORD_ROUND_EVERY_MS,
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
