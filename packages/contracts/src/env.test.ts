import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasHashTag, parseEnv, redisEnvFields, withClusterKeyPrefix } from './env';

const ZEnv = z.object(redisEnvFields);

describe('the Redis fields of an environment', () => {
  it('keeps one Redis and its prefix as they are when no cluster is named', () => {
    expect(parseEnv(ZEnv, {})).toEqual({
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_CLUSTER_NODES: undefined,
      QUEUE_PREFIX: 'aso',
    });
    expect(parseEnv(ZEnv, { REDIS_CLUSTER_NODES: '' }).QUEUE_PREFIX).toBe('aso');
  });

  it('reads the seed nodes of a cluster and hash-tags the prefix', () => {
    const env = parseEnv(ZEnv, {
      REDIS_CLUSTER_NODES: 'redis-0.redis:6379, 10.0.0.7:7001,[::1]:7002',
    });
    expect(env.REDIS_CLUSTER_NODES).toEqual([
      { host: 'redis-0.redis', port: 6379 },
      { host: '10.0.0.7', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(env.QUEUE_PREFIX).toBe('{aso}');
  });

  it('leaves a prefix that already carries a hash tag alone', () => {
    const env = parseEnv(ZEnv, { REDIS_CLUSTER_NODES: 'h:1', QUEUE_PREFIX: 'prod:{aso}' });
    expect(env.QUEUE_PREFIX).toBe('prod:{aso}');
    // An empty tag hashes the whole key: it is wrapped like any other prefix.
    expect(withClusterKeyPrefix({ REDIS_CLUSTER_NODES: [{}], QUEUE_PREFIX: 'a{}' })).toEqual({
      REDIS_CLUSTER_NODES: [{}],
      QUEUE_PREFIX: '{a{}}',
    });
  });

  it('names a bad node list', () => {
    expect(() => parseEnv(ZEnv, { REDIS_CLUSTER_NODES: 'h:1,nohost' })).toThrow(
      /REDIS_CLUSTER_NODES: "nohost" is not host:port/,
    );
    expect(() => parseEnv(ZEnv, { REDIS_CLUSTER_NODES: 'h:70000' })).toThrow(
      /"h:70000" is not host:port/,
    );
  });

  it('finds hash tags as Redis Cluster does', () => {
    expect(hasHashTag('{aso}:scrape:wait')).toBe(true);
    expect(hasHashTag('aso:scrape')).toBe(false);
    expect(hasHashTag('a{}b')).toBe(false);
    expect(hasHashTag('a}{b}')).toBe(true);
  });
});
