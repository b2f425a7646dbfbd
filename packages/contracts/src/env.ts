import { z } from 'zod';

/** Fields shared by the api's and workers' environments (DESIGN section 7). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Parses an environment (normally `process.env`) with `schema`. Throws an Error whose message
 * lists each bad variable as `NAME: problem`, so a service fails fast naming what to fix.
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  source: Record<string, string | undefined>,
): z.infer<S> {
  const res = schema.safeParse(source);
  if (!res.success) {
    const lines = res.error.issues.map(
      (i) => `${i.path.join('.') || '(environment)'}: ${i.message}`,
    );
    throw new Error(`invalid environment:\n  ${lines.join('\n  ')}`);
  }
  return res.data;
}

/** A yes/no environment variable: `true`/`1` or `false`/`0` (default false). */
export const ZEnvFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'expected true, false, 1 or 0' })
  .default('false')
  .transform((v) => v === 'true' || v === '1');
