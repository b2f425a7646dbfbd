import { z } from 'zod';
import { parseEnv } from '@aso/contracts';
import { ZWorkerBaseEnv } from '@aso/queue';

/**
 * Environment of the analyzer worker (DESIGN section 7), parsed once at start.
 */
export const ZWorkerEnv = ZWorkerBaseEnv.extend({
  /** Jobs processed at once by this process. */
  CONCURRENCY: z.coerce.number().int().min(1).max(200).default(4),
  /** Port of /healthz and /metrics; 0 picks a free port. */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9102),
  /** 'heuristic' (default, offline) or 'openai'; openai is chosen when OPENAI_API_KEY is set. */
  AI_PROVIDER: z.enum(['heuristic', 'openai']).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  OPENAI_VISION_MODEL: z.string().default('gpt-4o-mini'),
  /** Timeout of one model call (ms). */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
});
export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;

/** Parses `source`; throws an Error naming each bad variable. */
export const parseWorkerEnv = (source: Record<string, string | undefined>): TWorkerEnv =>
  parseEnv(ZWorkerEnv, source);

/** Reads the process environment. */
export const loadWorkerEnv = (): TWorkerEnv => parseWorkerEnv(process.env);
