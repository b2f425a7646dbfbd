import { describe, expect } from 'vitest';
import { it } from '@aso/testkit/vitest';
import { parseApiEnv } from '../src/env';
import { buildServer } from '../src/server';

const envFor = (databaseUrl: string, redisUrl: string, prefix: string) =>
  parseApiEnv({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'silent',
  });

describe('health and readiness', () => {
  it('answers /healthz and /readyz 200 when PostgreSQL and Redis answer', async ({
    database,
    redis,
  }) => {
    const app = await buildServer(envFor(database.url, redis.url, redis.prefix));
    try {
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
    } finally {
      await app.close();
    }
  });

  it('answers /readyz 503 naming Redis when Redis does not answer', async ({ database, redis }) => {
    // Port 1 on loopback: nothing listens there, so every connection is refused.
    const app = await buildServer(envFor(database.url, 'redis://127.0.0.1:1', redis.prefix));
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      const body = ready.json<{ message: string; code: string; checks: Record<string, string> }>();
      expect(body.message).toBe('Redis is not answering');
      expect(body.code).toBe('SERVICE_UNAVAILABLE');
      expect(body.checks.postgres).toBe('ok');
      expect(body.checks.redis).toMatch(/^down: /);
      // The process itself stays up.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers /readyz 503 naming PostgreSQL when the database does not answer', async ({
    redis,
  }) => {
    const app = await buildServer(
      envFor('postgres://postgres@127.0.0.1:1/none', redis.url, redis.prefix),
    );
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json<{ message: string }>().message).toBe('PostgreSQL is not answering');
    } finally {
      await app.close();
    }
  });

  it('answers unknown routes and errors as { message, code }', async ({ database, redis }) => {
    const app = await buildServer(envFor(database.url, redis.url, redis.prefix));
    try {
      const res = await app.inject({ method: 'GET', url: '/api/nope' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Route GET /api/nope not found', code: 'NOT_FOUND' });
    } finally {
      await app.close();
    }
  });
});
