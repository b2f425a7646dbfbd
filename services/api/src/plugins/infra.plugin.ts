import fp from 'fastify-plugin';
import { createDb, type TDb } from '@aso/db';
import {
  CacheInvalidationBus,
  checkEvictionPolicy,
  createRedis,
  ProgressBus,
  ProgressSubscriber,
  Producers,
  redisTarget,
  type TRedisClient,
} from '@aso/queue';
import type { TApiEnv } from '../env';
import { createReadCaches, type TReadCaches } from '../caches/read-caches';

/**
 * How long a request waits for a database connection (a free one of the pool, or a new one)
 * before it answers 503 (ms).
 */
export const DB_CONNECT_TIMEOUT_MS = 1_500;

declare module 'fastify' {
  interface FastifyInstance {
    config: TApiEnv;
    db: TDb;
    /** Command connection (producer role: fails fast when Redis is down). */
    redis: TRedisClient;
    producers: Producers;
    bus: ProgressBus;
    /** The process's one progress subscriber (one Redis connection for all SSE clients). */
    progress: ProgressSubscriber;
    /** Invalidation of the in-process read caches across every api replica (same subscriber connection). */
    cacheBus: CacheInvalidationBus;
    /** Sessions, finished audits and the page-load lists, per process (`READ_CACHE_TTL_MS`). */
    readCaches: TReadCaches;
  }
}

/**
 * Opens the gateway's connections once and closes them on shutdown: a PostgreSQL pool, a
 * Redis command connection, a BullMQ producer connection (workers' role, since QueueEvents
 * and flows block), and ONE subscriber connection for the progress bus and the read caches'
 * invalidations.
 */
export const infraPlugin = fp<{ config: TApiEnv }>(async (app, { config }) => {
  const db = createDb(config.DATABASE_URL, {
    max: config.DATABASE_POOL_MAX,
    // Below the 2 s within which a request answers 503 while PostgreSQL is unreachable.
    connectionTimeoutMs: DB_CONNECT_TIMEOUT_MS,
    log: app.log,
  });
  const redis = createRedis(redisTarget(config), { role: 'producer', name: 'api:commands' });
  const queueConn = createRedis(redisTarget(config), { role: 'producer', name: 'api:queues' });
  const sub = createRedis(redisTarget(config), { role: 'subscriber', name: 'api:progress-sub' });
  // Keep the process alive when Redis is down at start; /readyz reports it.
  for (const c of [redis, queueConn, sub])
    c.on('error', (err) => app.log.debug({ err }, 'redis error'));

  const bus = new ProgressBus(redis, { prefix: config.QUEUE_PREFIX });
  const progress = new ProgressSubscriber(bus, sub);
  const producers = new Producers(queueConn, config.QUEUE_PREFIX);
  const cacheBus = new CacheInvalidationBus(redis, sub, config.QUEUE_PREFIX);
  const readCaches = createReadCaches(
    cacheBus,
    config.READ_CACHE_TTL_MS,
    config.LIST_CACHE_MB * 1024 * 1024,
  );

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate<TRedisClient>('redis', redis);
  app.decorate('producers', producers);
  app.decorate('bus', bus);
  app.decorate('progress', progress);
  app.decorate('cacheBus', cacheBus);
  app.decorate('readCaches', readCaches);

  redis.on('ready', () => void checkEvictionPolicy(redis, app.log));
  app.addHook('onReady', async () => {
    // Not awaited: the gateway must start (and report 503 on /readyz) while Redis is down.
    progress
      .start()
      .catch((err: unknown) => app.log.warn({ err }, 'progress subscriber not started'));
    void cacheBus.start();
  });

  app.addHook('onClose', async () => {
    // Graceful closes wait for Redis; when it is down they would hang, so they are bounded.
    const bounded = (p: Promise<unknown>) =>
      Promise.race([p.catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]);
    cacheBus.close();
    readCaches.sessions.close();
    readCaches.audits.close();
    readCaches.savedAudits.close();
    readCaches.dashboards.close();
    readCaches.shareLinks.close();
    await bounded(progress.close());
    await bounded(producers.close());
    for (const c of [redis, queueConn, sub]) c.disconnect();
    await db.destroy();
  });
});
