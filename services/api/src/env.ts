import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LOG_LEVELS, parseEnv } from '@aso/contracts';

/** `apps/web/dist` of this checkout, found from this file's place (services/api/src). */
const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../../apps/web/dist', import.meta.url));

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * The api's environment (DESIGN section 7). Parsed once at start; a bad value fails fast with
 * a message naming the variable. Defaults suit one machine.
 */
export const ZApiEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/aso'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Prefix of every BullMQ and progress key in Redis. */
  QUEUE_PREFIX: z.string().min(1).default('aso'),
  /** Creates (idempotently) this admin access code at start. */
  ADMIN_ACCESS_CODE: z.string().min(8).optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  /** Take the client IP from X-Forwarded-For (only behind a trusted proxy). */
  TRUST_PROXY: bool.default(false),
  /** Requests per minute per IP and per email on login, register and the admin check. */
  AUTH_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(10),
  /** Audits a user may start per minute. */
  ANALYZE_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(10),
  /** Uploads a user may send per minute. */
  UPLOAD_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(10),
  /** How long `POST /api/uploads` waits for the merge (ms) before answering 504. */
  UPLOAD_WAIT_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Days a merged dataset (and its uploads) is kept. */
  DATASET_TTL_DAYS: z.coerce.number().min(0).default(30),
  /** Folder of the built web app to serve; empty disables. Default: the repo's `apps/web/dist`. */
  WEB_DIST_DIR: z.string().default(DEFAULT_WEB_DIST_DIR),
  /** Heartbeat comment interval on SSE streams (ms). */
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(1000).default(15_000),
});
export type TApiEnv = z.infer<typeof ZApiEnv>;

/** Parses `source` (normally `process.env`); throws an Error naming each bad variable. */
export const parseApiEnv = (source: Record<string, string | undefined>): TApiEnv =>
  parseEnv(ZApiEnv, source);

/** Reads the process environment. */
export const loadApiEnv = (): TApiEnv => parseApiEnv(process.env);
