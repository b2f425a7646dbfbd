import { z } from 'zod';
import { parseEnv } from '@aso/contracts';
import { ASC_DEFAULT_ORIGIN } from '@aso/asc';
import { lockEnv, ZWorkerBaseEnv } from '@aso/queue';

/**
 * Environment of the App Store Connect importer, parsed once at start. The importer is the
 * only process that opens the sealed private keys, so it is the one that needs `SECRETS_KEY`.
 */
export const ZAscImportEnv = ZWorkerBaseEnv.extend({
  // An import waits on App Store Connect most of the time; a short lock hands a killed
  // importer's job on within about 45 s, and what it stored is not read again.
  ...lockEnv({ lockDurationMs: 30_000, stalledIntervalMs: 15_000 }),
  /** Imports run at once by this process (each one app); scale with replicas. */
  CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Port of /healthz and /metrics; 0 picks a free port. */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9105),
  /**
   * Base64 of the 32-byte key that seals App Store Connect private keys (AES-256-GCM).
   * `pnpm start` writes a random one into `.env` when none is set. Unset, the importer runs
   * but every import fails saying so.
   */
  SECRETS_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be the base64 of 32 bytes')
    .optional(),
  /** Origin of the App Store Connect API (a stand-in's for tests and the offline demo). */
  ASC_API_ORIGIN: z.url({ protocol: /^https?$/ }).default(ASC_DEFAULT_ORIGIN),
  /** Timeout of each App Store Connect request, body included (ms). */
  ASC_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(60_000),
  /** Tries of a request answered 429, 5xx or not at all. */
  ASC_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(5),
  /** First backoff between tries (ms, doubling, with jitter). */
  ASC_RETRY_BASE_DELAY_MS: z.coerce.number().int().min(10).default(2_000),
  /** Longest pause between requests when the hour's requests run low (ms). */
  ASC_MAX_PAUSE_MS: z.coerce.number().int().min(0).default(10_000),
  /** How often every app imported before is imported again (s; default a day). */
  ASC_IMPORT_INTERVAL: z.coerce.number().int().min(60).default(86_400),
  /** Apps queued by one scheduled round at most. */
  ASC_ROUND_MAX: z.coerce.number().int().min(1).default(1_000),
  /** Largest report segment downloaded (bytes). */
  ASC_MAX_SEGMENT_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .default(256 * 1024 * 1024),
  /** Most rows read from one report instance. */
  ASC_MAX_ROWS_PER_INSTANCE: z.coerce.number().int().min(1).default(2_000_000),
});
export type TAscImportEnv = z.infer<typeof ZAscImportEnv>;

/** Parses `source`; throws an Error naming each bad variable (never echoing its value). */
export const parseAscImportEnv = (source: Record<string, string | undefined>): TAscImportEnv =>
  parseEnv(ZAscImportEnv, source);

/** Reads the process environment. */
export const loadAscImportEnv = (): TAscImportEnv => parseAscImportEnv(process.env);

/** Environment of the re-encrypt command (`pnpm secrets:reencrypt`). */
export const ZReencryptEnv = z.object({
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/aso'),
  /** The key the stored secrets are sealed with now. */
  SECRETS_KEY_PREVIOUS: z.string().min(1, 'set it to the SECRETS_KEY the secrets were sealed with'),
  /** The new key to seal them with (then set as SECRETS_KEY everywhere). */
  SECRETS_KEY: z.string().min(1, 'set it to the new key'),
});

/** Reads the re-encrypt command's environment; throws naming a missing variable. */
export const loadReencryptEnv = () => parseEnv(ZReencryptEnv, process.env);
