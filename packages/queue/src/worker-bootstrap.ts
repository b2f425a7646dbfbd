import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import type { TQueueName } from './catalog';
import { Producers } from './producer';
import { createRedis } from './redis';
import { createTypedWorker, type QueueHandlers, type TypedWorkerOptions } from './worker';
import type { TWorkerBaseEnv } from './worker-env';
import { createServiceMetrics, type ServiceMetrics } from './metrics';
import { runWorkerService, type WorkerService } from './worker-runtime';

/** The environment a worker service starts from: the base fields plus its own sizing. */
export type TWorkerServiceEnv = TWorkerBaseEnv & {
  /** Jobs at once of the service's main worker. */
  CONCURRENCY: number;
  /** Port of `/healthz` and `/metrics`; 0 picks a free one; null disables. */
  HEALTH_PORT: number | null;
};

/** Worker options a service may set; connection, prefix, lock and stall come from the env. */
export type TServiceWorkerOptions = Omit<TypedWorkerOptions, 'connection' | 'prefix'>;

/** What {@link startWorkerService} gives the service's `setup`. */
export interface WorkerServiceContext<E extends TWorkerServiceEnv> {
  env: E;
  log: Logger;
  /** The service's command connection (progress appends, reads); closed by the bootstrap. */
  redis: Redis;
  /** Producers on the command connection (queue reads, schedulers); closed by the bootstrap. */
  producers: Producers;
  /**
   * The service's metrics, served at `/metrics` (job and queue metrics included); a service
   * adds its own with `registers: [ctx.metrics.registry]`.
   */
  metrics: ServiceMetrics;
  /**
   * Starts a typed worker on `queue` with the service's worker connection, key prefix,
   * `CONCURRENCY`, `LOCK_DURATION_MS` and `STALLED_INTERVAL_MS`; `opts` overrides them.
   */
  worker<Q extends TQueueName>(
    queue: Q,
    handlers: QueueHandlers<Q>,
    opts?: TServiceWorkerOptions,
  ): Worker;
}

/** What a service's `setup` returns. */
export interface WorkerServiceParts {
  /** Called after the workers closed, before the bootstrap closes its connections. */
  onClose?: () => Promise<void>;
}

/** Options of {@link startWorkerService}. */
export interface StartWorkerServiceOptions {
  /** Install SIGTERM/SIGINT handlers (default true; tests close the service themselves). */
  handleSignals?: boolean;
  /** Logger to use instead of a new pino logger named after the service. */
  log?: Logger;
}

/**
 * The one bootstrap of the worker services (scraper, analyzer, csv-merge): opens the command
 * connection (`<name>:commands`) and the workers' connection (`<name>:worker`), runs `setup`
 * (which starts the workers through `ctx.worker` and returns its own close step), then serves
 * them with {@link runWorkerService} (health, metrics, job logs, graceful shutdown). The job
 * schedulers `setup` made through `ctx.producers.scheduleEvery` are upserted again each time
 * the command connection (re)connects, since a Redis that came back empty lost them. On close:
 * the workers finish, `onClose` runs, then the producers and both connections close.
 */
export async function startWorkerService<E extends TWorkerServiceEnv>(
  name: string,
  env: E,
  opts: StartWorkerServiceOptions,
  setup: (ctx: WorkerServiceContext<E>) => Promise<WorkerServiceParts> | WorkerServiceParts,
): Promise<WorkerService> {
  const log = opts.log ?? pino({ name, level: env.LOG_LEVEL });
  const redis = createRedis(env.REDIS_URL, { role: 'worker', name: `${name}:commands` });
  const connection = createRedis(env.REDIS_URL, { role: 'worker', name: `${name}:worker` });
  const producers = new Producers(redis, env.QUEUE_PREFIX);
  const metrics = createServiceMetrics({ service: name });
  const workers: Worker[] = [];
  const ctx: WorkerServiceContext<E> = {
    env,
    log,
    redis,
    producers,
    metrics,
    worker: (queue, handlers, workerOpts) => {
      const worker = createTypedWorker(queue, handlers, {
        connection,
        prefix: env.QUEUE_PREFIX,
        concurrency: env.CONCURRENCY,
        lockDuration: env.LOCK_DURATION_MS,
        stalledInterval: env.STALLED_INTERVAL_MS,
        ...workerOpts,
      });
      workers.push(worker);
      return worker;
    },
  };
  const parts = await setup(ctx);
  // The schedulers `setup` made are re-created on every reconnect (see rescheduleAll).
  const reschedule = () => {
    producers.rescheduleAll().then(
      (n) =>
        n > 0 && log.info({ schedulers: n }, 'job schedulers re-created after a Redis reconnect'),
      (err: unknown) => log.warn({ err }, 'could not re-create the job schedulers'),
    );
  };
  redis.on('ready', reschedule);
  return runWorkerService({
    name,
    log,
    redis,
    workers,
    healthPort: env.HEALTH_PORT,
    metrics,
    handleSignals: opts.handleSignals,
    onClose: async () => {
      redis.off('ready', reschedule);
      await parts.onClose?.();
      await producers.close().catch(() => undefined);
      // BullMQ does not close connections it was given.
      connection.disconnect();
      redis.disconnect();
    },
  });
}

/**
 * The `main.ts` of a worker service: reads the environment with `loadEnv` (a bad variable
 * prints its message and exits with code 1) and starts the service with `start`.
 */
export async function runWorkerMain<E>(
  loadEnv: () => E,
  start: (env: E) => Promise<unknown>,
): Promise<void> {
  let env: E;
  try {
    env = loadEnv();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  await start(env);
}
