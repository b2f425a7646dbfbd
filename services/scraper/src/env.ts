import { z } from 'zod';
import { parseEnv } from '@aso/contracts';
import { ZWorkerBaseEnv } from '@aso/queue';

/**
 * Environment of the scraper worker (DESIGN section 7), parsed once at start.
 */
export const ZWorkerEnv = ZWorkerBaseEnv.extend({
  /** Jobs processed at once by this process. */
  CONCURRENCY: z.coerce.number().int().min(1).max(200).default(8),
  /** Port of /healthz and /metrics; 0 picks a free port. */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9101),
  ITUNES_ORIGIN: z.string().url().default('https://itunes.apple.com'),
  APP_STORE_ORIGIN: z.string().url().default('https://apps.apple.com'),
  /** A snapshot younger than this is reused (seconds; default 24 h). */
  APP_CACHE_TTL: z.coerce.number().int().min(0).default(86_400),
  /** Timeout of one store request (ms). */
  STORE_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
});
export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;

/** Parses `source`; throws an Error naming each bad variable. */
export const parseWorkerEnv = (source: Record<string, string | undefined>): TWorkerEnv =>
  parseEnv(ZWorkerEnv, source);

/** Reads the process environment. */
export const loadWorkerEnv = (): TWorkerEnv => parseWorkerEnv(process.env);
