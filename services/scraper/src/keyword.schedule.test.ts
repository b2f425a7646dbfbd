import { describe, expect, it } from 'vitest';
import { nextKeywordCheckAt, searchLimiter, throttleBackoffMs } from './keyword.handler';

describe('keyword read schedule and limits', () => {
  it('spaces search reads so no window holds more than the rate', () => {
    expect(
      searchLimiter({ ITUNES_SEARCH_RATE_PER_MIN: 20, ITUNES_SEARCH_WINDOW_MS: 60_000 }),
    ).toEqual({
      max: 1,
      duration: 3150,
    });
    const { duration } = searchLimiter({
      ITUNES_SEARCH_RATE_PER_MIN: 7,
      ITUNES_SEARCH_WINDOW_MS: 60_000,
    });
    // 8 reads spaced by `duration` span more than a minute: at most 7 in any minute.
    expect(duration * 7).toBeGreaterThan(60_000);
  });

  it('backs off exponentially with jitter, capped at 15 minutes', () => {
    expect(throttleBackoffMs(30_000, 0, 0)).toBe(15_000);
    expect(throttleBackoffMs(30_000, 0, 1)).toBe(30_000);
    expect(throttleBackoffMs(30_000, 2, 1)).toBe(120_000);
    expect(throttleBackoffMs(30_000, 20, 1)).toBe(900_000);
  });

  it('spreads the next read over the jitter', () => {
    const env = { KEYWORD_INTERVAL: 86_400, KEYWORD_JITTER: 0.1 };
    expect(nextKeywordCheckAt(env, 0, 0).getTime()).toBe(86_400_000 * 0.95);
    expect(nextKeywordCheckAt(env, 0, 1).getTime()).toBe(86_400_000 * 1.05);
  });
});
