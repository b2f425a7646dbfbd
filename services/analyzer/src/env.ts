import { z } from 'zod';
import { parseEnv } from '@aso/contracts';
import { lockEnv, ZWorkerBaseEnv } from '@aso/queue';

/**
 * Environment of the analyzer worker (docs/product.md#configuration), parsed once at start.
 */
export const ZWorkerEnv = ZWorkerBaseEnv.extend({
  /**
   * The analysis waits on the model or runs rules in milliseconds: a short lock lets a killed
   * analyzer's job run again within about 11 s.
   */
  ...lockEnv({ lockDurationMs: 8_000, stalledIntervalMs: 3_000 }),
  /** Jobs processed at once by this process. */
  CONCURRENCY: z.coerce.number().int().min(1).max(200).default(4),
  /** Port of /healthz and /metrics; 0 picks a free port. */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9102),
  /** 'heuristic' (default, offline) or 'openai'; openai is chosen when OPENAI_API_KEY is set. */
  AI_PROVIDER: z.enum(['heuristic', 'openai']).optional(),
  /** Key of the OpenAI-compatible server; when set, the model writes the audit's texts. */
  OPENAI_API_KEY: z.string().min(1).optional(),
  /** Base URL of an OpenAI-compatible server (default: OpenAI's). */
  OPENAI_BASE_URL: z.string().url().optional(),
  /** Model of the text sections. */
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  /** Model that reads screenshots. */
  OPENAI_VISION_MODEL: z.string().default('gpt-4o-mini'),
  /** Timeout of one model call (ms). */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  /**
   * Retries of one model call made by the openai client itself: 408, 409, 429 and 5xx answers
   * and dropped connections, waiting what `retry-after` asks (up to a minute) or backing off.
   * When they are used up, the section falls back to the rules' text; the audit completes.
   */
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /**
   * How JSON is asked for: `json_schema` (strict Structured Outputs) or `json_object` (JSON
   * mode, for servers without `json_schema` such as older Ollama or some vLLM builds; the answer
   * is validated with the same zod schemas).
   */
  OPENAI_RESPONSE_FORMAT: z.enum(['json_schema', 'json_object']).default('json_schema'),
  /** Upper bound of output tokens of one model call (`max_completion_tokens`). */
  OPENAI_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(256).max(128_000).default(4096),
  /**
   * Steady cap of the `analysis` queue shared by every analyzer process: at most
   * `ANALYSIS_RATE_LIMIT_MAX` jobs per `ANALYSIS_RATE_LIMIT_DURATION_MS`.
   */
  ANALYSIS_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(50),
  /** The window of `ANALYSIS_RATE_LIMIT_MAX` (ms). */
  ANALYSIS_RATE_LIMIT_DURATION_MS: z.coerce.number().int().min(10).default(1_000),
  /** iPhone screenshots per app sent to the vision model (the first ones matter most). */
  OPENAI_MAX_SCREENSHOTS: z.coerce.number().int().min(1).max(10).default(5),
  /**
   * Age (ms) after which an unfinished audit whose analysis job has ended (failed, completed
   * or gone) is closed as failed by the sweep; well above the longest audit (scrape retries,
   * model timeouts and retries). Default 30 min.
   */
  STALE_AUDIT_AFTER_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(30 * 60_000),
  /** How often each analyzer runs that sweep (ms). Default 5 min. */
  STALE_AUDIT_SWEEP_EVERY_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(5 * 60_000),
  /**
   * How often each analyzer looks for unfinished audits whose jobs are gone from Redis and
   * queues them again (ms; also right after every Redis reconnect). Default 10 s, so an audit
   * whose jobs a Redis restart lost runs again within about 15 s of Redis answering.
   */
  AUDIT_RECOVERY_EVERY_MS: z.coerce.number().int().min(500).default(10_000),
  /** Audits younger than this are not re-enqueued: their jobs are being added (ms). */
  AUDIT_RECOVERY_MIN_AGE_MS: z.coerce.number().int().min(0).default(5_000),
});
export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;

/**
 * The analysis provider in use: `AI_PROVIDER` when set, else `openai` when `OPENAI_API_KEY`
 * is set, else `heuristic` (docs/product.md#analysis-providers). Throws when `openai` is
 * asked for without a key.
 */
export function selectProvider(
  env: Pick<TWorkerEnv, 'AI_PROVIDER' | 'OPENAI_API_KEY'>,
): 'heuristic' | 'openai' {
  const provider = env.AI_PROVIDER ?? (env.OPENAI_API_KEY ? 'openai' : 'heuristic');
  if (provider === 'openai' && !env.OPENAI_API_KEY) {
    throw new Error('AI_PROVIDER=openai needs OPENAI_API_KEY');
  }
  return provider;
}

/** Parses `source`; throws an Error naming each bad variable. */
export const parseWorkerEnv = (source: Record<string, string | undefined>): TWorkerEnv =>
  parseEnv(ZWorkerEnv, source);

/** Reads the process environment. */
export const loadWorkerEnv = (): TWorkerEnv => parseWorkerEnv(process.env);
