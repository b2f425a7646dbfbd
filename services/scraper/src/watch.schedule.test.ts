import { describe, expect, it } from 'vitest';
import { nextCheckAt } from './watch.handler';

describe('nextCheckAt', () => {
  const env = { WATCH_INTERVAL: 86_400, WATCH_JITTER: 0.1 };
  const now = Date.UTC(2026, 0, 1);
  const hours = (d: Date) => (d.getTime() - now) / 3_600_000;

  it('spreads the next read over the jitter around the interval', () => {
    expect(hours(nextCheckAt(env, now, 0))).toBeCloseTo(22.8, 6);
    expect(hours(nextCheckAt(env, now, 0.5))).toBeCloseTo(24, 6);
    expect(hours(nextCheckAt(env, now, 1))).toBeCloseTo(25.2, 6);
    expect(hours(nextCheckAt({ ...env, WATCH_JITTER: 0 }, now, 0.9))).toBe(24);
  });
});
