/** `X-Rate-Limit` of an answer: the key's hourly request limit and what is left of it. */
export interface TAscRateLimit {
  limit: number;
  remaining: number;
}

/**
 * Parses `X-Rate-Limit: user-hour-lim:3500;user-hour-rem:3499;` (Apple: "Identifying rate
 * limits", https://developer.apple.com/documentation/appstoreconnectapi/identifying-rate-limits).
 * Null when the header is absent or lacks either figure.
 */
export function parseRateLimit(header: string | null): TAscRateLimit | null {
  if (!header) return null;
  const fields = new Map(
    header
      .split(';')
      .map((part) => part.trim().split(':'))
      .filter((kv): kv is [string, string] => kv.length === 2)
      .map(([k, v]) => [k.trim(), Number(v)]),
  );
  const limit = fields.get('user-hour-lim');
  const remaining = fields.get('user-hour-rem');
  if (limit === undefined || remaining === undefined) return null;
  if (!Number.isFinite(limit) || !Number.isFinite(remaining)) return null;
  return { limit, remaining };
}

/**
 * Pause before the next request (ms) given the last `X-Rate-Limit`: none while more than
 * `lowWaterRatio` (0-1) of the hour's limit is left; below it, the rest of the hour spread
 * over the requests left (3,600,000 / remaining), at most `maxPauseMs`. This product's rule:
 * an import slows down instead of running into 429s that would also block the user's other
 * tools sharing the key.
 */
export function rateLimitPauseMs(
  rl: TAscRateLimit | null,
  opts: { lowWaterRatio: number; maxPauseMs: number },
): number {
  if (!rl || rl.limit <= 0) return 0;
  if (rl.remaining > rl.limit * opts.lowWaterRatio) return 0;
  return Math.min(opts.maxPauseMs, Math.ceil(3_600_000 / Math.max(rl.remaining, 1)));
}
