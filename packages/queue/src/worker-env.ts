import { z } from 'zod';
import { LOG_LEVELS } from '@aso/contracts';

/**
 * Environment fields every worker service reads (DESIGN section 7); each service extends it
 * in its own `env.ts`. Defaults suit one machine.
 */
export const ZWorkerBaseEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/aso'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Prefix of every BullMQ and progress key in Redis. */
  QUEUE_PREFIX: z.string().min(1).default('aso'),
  /**
   * How long a worker's lock on an active job lasts without renewal (ms; BullMQ
   * `lockDuration`, default 30 000). A worker that dies loses its jobs' locks after this.
   */
  LOCK_DURATION_MS: z.coerce.number().int().min(500).default(30_000),
  /**
   * How often a worker looks for stalled jobs (locks expired because their worker died) and
   * hands them to another worker (ms; BullMQ `stalledInterval`, default 30 000).
   */
  STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(30_000),
});
