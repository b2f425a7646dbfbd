import { z } from 'zod';
import { LOG_LEVELS, redisEnvFields } from '@aso/contracts';
import { DEFAULT_WORKER_NICENESS } from './cpu-priority';

/**
 * Environment fields every worker service reads (docs/product.md#configuration); each service
 * extends it in its own `env.ts`. Defaults suit one machine.
 */
export const ZWorkerBaseEnv = z.object({
  /** `production` in the images; `development` elsewhere. */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Least severe pino level written to stdout. */
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** PostgreSQL connection URL. */
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/aso'),
  ...redisEnvFields,
  ...lockEnv({ lockDurationMs: 30_000, stalledIntervalMs: 30_000 }),
  /**
   * Unix nice value of the worker process (0 as started, 19 the lowest CPU priority): on a
   * machine it shares with the api, the api gets the CPU first (docs/OPERATIONS.md#cpu-priority).
   */
  WORKER_NICENESS: z.coerce.number().int().min(0).max(19).default(DEFAULT_WORKER_NICENESS),
});

/**
 * The lock settings of a worker's queue, `LOCK_DURATION_MS` and `STALLED_INTERVAL_MS`, with the
 * queue's own defaults (each service extends {@link ZWorkerBaseEnv} with its own). A worker
 * killed mid-job holds its job until the lock expires, and another worker (or the same one,
 * restarted) takes it at the next stall check: the job runs again at most about
 * `lockDurationMs + stalledIntervalMs` after the kill. BullMQ renews the lock every half
 * duration while the job runs, so the duration must outlast the longest stretch a job keeps
 * the event loop busy (long CPU work pauses to renew it, see `job.extendLock`).
 */
export function lockEnv(defaults: { lockDurationMs: number; stalledIntervalMs: number }) {
  return {
    /**
     * How long a worker's lock on an active job lasts without renewal (ms; BullMQ
     * `lockDuration`). A worker that dies loses its jobs' locks after this.
     */
    LOCK_DURATION_MS: z.coerce.number().int().min(500).default(defaults.lockDurationMs),
    /**
     * How often a worker looks for stalled jobs (locks expired because their worker died) and
     * hands them to another worker (ms; BullMQ `stalledInterval`).
     */
    STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(defaults.stalledIntervalMs),
  };
}
export type TWorkerBaseEnv = z.infer<typeof ZWorkerBaseEnv>;
