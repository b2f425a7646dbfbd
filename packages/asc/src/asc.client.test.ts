import { describe, expect, it } from 'vitest';
import { parseRateLimit, rateLimitPauseMs } from './asc.rate-limit';

describe('X-Rate-Limit', () => {
  it('reads the hourly limit and what is left', () => {
    expect(parseRateLimit('user-hour-lim:3500;user-hour-rem:3499;')).toEqual({
      limit: 3500,
      remaining: 3499,
    });
    expect(parseRateLimit('user-hour-rem:10; user-hour-lim:3500')).toEqual({
      limit: 3500,
      remaining: 10,
    });
    expect(parseRateLimit(null)).toBeNull();
    expect(parseRateLimit('user-hour-lim:3500;')).toBeNull();
  });

  it('paces requests only once the hour runs low, spreading what is left', () => {
    const opts = { lowWaterRatio: 0.1, maxPauseMs: 10_000 };
    expect(rateLimitPauseMs({ limit: 3500, remaining: 351 }, opts)).toBe(0);
    expect(rateLimitPauseMs({ limit: 3500, remaining: 350 }, opts)).toBe(10_000);
    expect(rateLimitPauseMs({ limit: 3500, remaining: 350 }, { ...opts, maxPauseMs: 60_000 })).toBe(
      10_286,
    );
    expect(rateLimitPauseMs({ limit: 3500, remaining: 0 }, opts)).toBe(10_000);
    expect(rateLimitPauseMs(null, opts)).toBe(0);
  });
});
