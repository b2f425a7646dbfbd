import { describe, expect, it } from 'vitest';
import { parseWorkerEnv } from './env';

describe('scraper environment', () => {
  it('defaults to the real App Store origins and a 24 h cache', () => {
    const env = parseWorkerEnv({});
    expect(env.ITUNES_ORIGIN).toBe('https://itunes.apple.com');
    expect(env.APP_STORE_ORIGIN).toBe('https://apps.apple.com');
    expect(env.APP_CACHE_TTL).toBe(86_400);
    expect(env.CONCURRENCY).toBe(8);
  });

  it('fails naming the bad variable', () => {
    expect(() => parseWorkerEnv({ CONCURRENCY: '0' })).toThrow(/CONCURRENCY/);
    expect(() => parseWorkerEnv({ APP_STORE_ORIGIN: 'apps' })).toThrow(/APP_STORE_ORIGIN/);
  });
});
