import { describe, expect, it } from 'vitest';
import { parseWorkerEnv } from './env';

describe('scraper environment', () => {
  it('defaults to the real App Store origins and a 24 h cache', () => {
    const env = parseWorkerEnv({});
    expect(env.ITUNES_ORIGIN).toBe('https://itunes.apple.com');
    expect(env.APP_STORE_ORIGIN).toBe('https://apps.apple.com');
    expect(env.APP_CACHE_TTL).toBe(86_400);
    expect(env.CONCURRENCY).toBe(8);
    expect(env.STORE_TIMEOUT_MS).toBe(10_000);
    expect(env.STORE_MAX_BYTES).toBe(8 * 1024 * 1024);
    expect(env.STORE_RETRY_ATTEMPTS).toBe(3);
    expect(env.STORE_MAX_RETRY_AFTER_MS).toBe(30_000);
    expect(env.STORE_RATE_LIMIT_MAX_WAIT_MS).toBe(600_000);
    expect(env.SCRAPE_RATE_LIMIT_MAX).toBe(50);
    expect(env.SCRAPE_RATE_LIMIT_DURATION_MS).toBe(1_000);
    expect(env.LOCK_DURATION_MS).toBe(8_000);
    expect(env.STALLED_INTERVAL_MS).toBe(3_000);
  });

  it('reads the store and queue settings', () => {
    const env = parseWorkerEnv({
      APP_CACHE_TTL: '0',
      STORE_MAX_BYTES: '65536',
      STORE_RETRY_ATTEMPTS: '1',
      SCRAPE_RATE_LIMIT_MAX: '5',
      LOCK_DURATION_MS: '1000',
    });
    expect(env).toMatchObject({
      APP_CACHE_TTL: 0,
      STORE_MAX_BYTES: 65_536,
      STORE_RETRY_ATTEMPTS: 1,
      SCRAPE_RATE_LIMIT_MAX: 5,
      LOCK_DURATION_MS: 1_000,
    });
  });

  it('fails naming the bad variable', () => {
    expect(() => parseWorkerEnv({ CONCURRENCY: '0' })).toThrow(/CONCURRENCY/);
    expect(() => parseWorkerEnv({ APP_STORE_ORIGIN: 'apps' })).toThrow(/APP_STORE_ORIGIN/);
    expect(() => parseWorkerEnv({ STORE_MAX_BYTES: '10' })).toThrow(/STORE_MAX_BYTES/);
    expect(() => parseWorkerEnv({ STORE_RETRY_ATTEMPTS: 'x' })).toThrow(/STORE_RETRY_ATTEMPTS/);
  });
});
