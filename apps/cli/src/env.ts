import { z } from 'zod';
import { parseEnv } from '@aso/contracts';

/**
 * Environment of the `pnpm aso` CLI (docs/product.md#entities): where the gateway runs and who
 * signs in. `ASO_ACCESS_CODE` and `ASO_EMAIL` are needed by commands that call the API.
 */
export const ZCliEnv = z.object({
  /** Where the gateway runs. */
  ASO_API_URL: z.string().url().default('http://127.0.0.1:3000'),
  /** Email of the account the CLI signs in as. */
  ASO_EMAIL: z.string().trim().optional(),
  /** That account's personal sign-in code. */
  ASO_ACCESS_CODE: z.string().trim().optional(),
  /** Timeout of one plain API call (ms); the progress stream has none. */
  ASO_HTTP_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
});
export type TCliEnv = z.infer<typeof ZCliEnv>;

/** Parses `source`; throws an Error naming each bad variable. */
export const parseCliEnv = (source: Record<string, string | undefined>): TCliEnv =>
  parseEnv(ZCliEnv, source);

/** Reads the process environment. */
export const loadCliEnv = (): TCliEnv => parseCliEnv(process.env);
