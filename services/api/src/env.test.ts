import { describe, expect, it } from 'vitest';
import { parseApiEnv } from './env';

describe('api environment', () => {
  it('uses the one-machine defaults', () => {
    const env = parseApiEnv({});
    expect(env.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/aso');
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(env.PORT).toBe(3000);
    expect(env.SESSION_TTL_DAYS).toBe(30);
    expect(env.TRUST_PROXY).toBe(false);
  });

  it('coerces numbers and booleans', () => {
    const env = parseApiEnv({ PORT: '8080', TRUST_PROXY: 'true', DATASET_TTL_DAYS: '0.5' });
    expect(env.PORT).toBe(8080);
    expect(env.TRUST_PROXY).toBe(true);
    expect(env.DATASET_TTL_DAYS).toBe(0.5);
  });

  it('takes TRUST_PROXY as a flag or a list of proxy addresses, not a hop count', () => {
    expect(parseApiEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseApiEnv({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(() => parseApiEnv({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY.*hop count/);
    expect(parseApiEnv({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).TRUST_PROXY).toBe(
      '10.0.0.0/8,127.0.0.1,::1,loopback',
    );
    expect(() => parseApiEnv({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(
      /TRUST_PROXY.*not an address: 10\.0\.0\.0\/33/,
    );
    expect(() => parseApiEnv({ TRUST_PROXY: 'proxy.internal' })).toThrow(/proxy\.internal/);
  });

  it('fails naming every bad variable', () => {
    let message = '';
    try {
      parseApiEnv({ PORT: 'eighty', REDIS_URL: 'not a url', LOG_LEVEL: 'loud' });
    } catch (err) {
      message = (err as Error).message;
    }
    const lines = message.split('\n').map((l) => l.trim());
    expect(lines[0]).toBe('invalid environment:');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(':')[0])
        .sort(),
    ).toEqual(['LOG_LEVEL', 'PORT', 'REDIS_URL']);
  });

  it('bounds the dataset cache at 128 MiB unless told otherwise; 0 disables it', () => {
    expect(parseApiEnv({}).DATASET_CACHE_MB).toBe(128);
    expect(parseApiEnv({ DATASET_CACHE_MB: '0' }).DATASET_CACHE_MB).toBe(0);
    expect(parseApiEnv({ DATASET_CACHE_MB: '512' }).DATASET_CACHE_MB).toBe(512);
    expect(() => parseApiEnv({ DATASET_CACHE_MB: '-1' })).toThrow(/DATASET_CACHE_MB/);
  });

  it('refuses a short admin code', () => {
    expect(() => parseApiEnv({ ADMIN_ACCESS_CODE: 'abc' })).toThrow(/ADMIN_ACCESS_CODE/);
  });
});
