import type { Worker } from 'bullmq';
import { pino, type Logger } from 'pino';
import { QUEUE_WORKERS, type TQueueName } from './catalog';
import { Producers } from './producer';
import { lowerCpuPriority } from './cpu-priority';
import { createRedis, redisTarget, type TRedisClient } from './redis';
import { createTypedWorker, type TQueueHandlers, type TTypedWorkerOptions } from './worker';
import type { TWorkerBaseEnv } from './worker-env';
import { createServiceMetrics, type TServiceMetrics } from './metrics';
import { runWorkerService, type TWorkerService } from './worker-runtime';

/** The environment a worker service starts from: the base fields plus its own sizing. */
export type TWorkerServiceEnv = TWorkerBaseEnv & {
  /** Jobs at once of the service's main worker. */
  CONCURRENCY: number;
  /** Port of `/healthz` and `/metrics`; 0 picks a free one; null disables. */
  HEALTH_PORT: number | null;
};

/** Worker options a service may set; connection, prefix, lock and stall come from the env. */
export type TServiceWorkerOptions = Omit<TTypedWorkerOptions, 'connection' | 'prefix'>;

/** What {@link startWorkerService} gives the service's `setup`. */
export interface TWorkerServiceContext<E extends TWorkerServiceEnv> {
  env: E;
  log: Logger;
  /** The service's command connection (progress appends, reads); closed by the bootstrap. */
  redis: TRedisClient;
  /** Producers on the command connection (queue reads, schedulers); closed by the bootstrap. */
  producers: Producers;
  /**
   * The service's metrics, served at `/metrics` (job and queue metrics included); a service
   * adds its own with `registers: [ctx.metrics.registry]`.
   */
  metrics: TServiceMetrics;
  /**
   * Starts a typed worker on `queue` with the service's worker connection, key prefix, the
   * queue's concurrency ({@link QUEUE_WORKERS}), `LOCK_DURATION_MS` and `STALLED_INTERVAL_MS`;
   * `opts` overrides them. Throws when `queue` is served by another process.
   */
  worker<Q extends TQueueName>(
    queue: Q,
    handlers: TQueueHandlers<Q>,
    opts?: TServiceWorkerOptions,
  ): Worker;
}

/** What a service's `setup` returns. */
export interface TWorkerServiceParts {
  /** Called after the workers closed, before the bootstrap closes its connections. */
  onClose?: () => Promise<void>;
}

/** Options of {@link startWorkerService}. */
export interface TStartWorkerServiceOptions {
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
  opts: TStartWorkerServiceOptions,
  setup: (ctx: TWorkerServiceContext<E>) => Promise<TWorkerServiceParts> | TWorkerServiceParts,
): Promise<TWorkerService> {
  const log = opts.log ?? pino({ name, level: env.LOG_LEVEL });
  const redis = createRedis(redisTarget(env), { role: 'worker', name: `${name}:commands` });
  const connection = createRedis(redisTarget(env), { role: 'worker', name: `${name}:worker` });
  const producers = new Producers(redis, env.QUEUE_PREFIX);
  const metrics = createServiceMetrics({ service: name });
  const workers: Worker[] = [];
  const ctx: TWorkerServiceContext<E> = {
    env,
    log,
    redis,
    producers,
    metrics,
    worker: (queue, handlers, workerOpts) => {
      const served = QUEUE_WORKERS[queue];
      if (served.process !== name) {
        throw new Error(`queue ${queue} is served by ${served.process}, not by ${name}`);
      }
      const worker = createTypedWorker(queue, handlers, {
        connection,
        prefix: env.QUEUE_PREFIX,
        concurrency: queueConcurrency(queue, env),
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
 * Jobs at once of `queue`'s worker in a process with environment `env`: the catalog's number,
 * or the value of the variable it names ({@link QUEUE_WORKERS}). Throws when that variable is
 * not a positive whole number in `env` (a service env that lacks it is a programming error).
 */
export function queueConcurrency(queue: TQueueName, env: object): number {
  const { concurrency } = QUEUE_WORKERS[queue];
  if (typeof concurrency === 'number') return concurrency;
  const value: unknown = (env as Record<string, unknown>)[concurrency];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new Error(`${concurrency} (the concurrency of queue ${queue}) is not set`);
  }
  return value;
}

/**
 * The `main.ts` of a worker service: reads the environment with `loadEnv` (a bad variable
 * prints its message and exits with code 1), lowers the process's CPU priority to
 * `WORKER_NICENESS` ({@link lowerCpuPriority}; a thread that refuses is logged, the service
 * starts anyway) and starts the service with `start`. Only the process's entry point does so:
 * a service started inside another process (tests) leaves that process's priority alone.
 */
export async function runWorkerMain<
  E extends Pick<TWorkerBaseEnv, 'WORKER_NICENESS' | 'LOG_LEVEL'>,
>(loadEnv: () => E, start: (env: E) => Promise<unknown>): Promise<void> {
  let env: E;
  try {
    env = loadEnv();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  const priority = lowerCpuPriority(env.WORKER_NICENESS);
  if (priority.refused.length > 0) {
    pino({ level: env.LOG_LEVEL }).warn(
      { niceness: priority.niceness, wanted: env.WORKER_NICENESS, refused: priority.refused },
      'could not lower the CPU priority of every thread',
    );
  }
  await start(env);
}
