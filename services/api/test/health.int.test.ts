import { createServer, type Socket } from 'node:net';
import { describe, expect } from 'vitest';
import pg from 'pg';
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

  it('answers 503 { message, code } within 2 s while PostgreSQL refuses or never answers', async ({
    redis,
  }) => {
    // A listener that accepts connections and never says a word: the connect waits, as it
    // would for a server behind a dropped network link.
    const silent = new Set<Socket>();
    const server = createServer((socket) => void silent.add(socket));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      for (const url of [
        'postgres://postgres@127.0.0.1:1/none',
        `postgres://postgres@127.0.0.1:${port}/none`,
      ]) {
        const app = await buildServer(envFor(url, redis.url, redis.prefix));
        try {
          const started = Date.now();
          const res = await app.inject({
            method: 'POST',
            url: '/api/login',
            payload: { email: 'someone@example.com', accessCode: 'ANYCODE1' },
          });
          expect(Date.now() - started).toBeLessThan(2_000);
          expect(res.statusCode).toBe(503);
          expect(res.json()).toEqual({
            message: 'The database is unavailable right now. Please try again in a few seconds.',
            code: 'SERVICE_UNAVAILABLE',
          });
        } finally {
          await app.close();
        }
      }
    } finally {
      for (const s of silent) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('keeps serving after PostgreSQL ended all of its connections', async ({ database, redis }) => {
    const app = await buildServer(envFor(database.url, redis.url, redis.prefix));
    try {
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      try {
        const ended = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [database.name],
        );
        expect(ended.rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      // The broken idle connections are dropped; the next requests get fresh ones.
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      const login = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'someone@example.com', accessCode: 'NOSUCHCODE' },
      });
      expect(login.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('sends nosniff and no-store with JSON answers, errors included', async ({
    database,
    redis,
  }) => {
    const app = await buildServer(envFor(database.url, redis.url, redis.prefix));
    try {
      for (const [url, status] of [
        ['/api/check-access', 200],
        ['/api/me', 401],
        ['/api/nope', 404],
        ['/readyz', 200],
      ] as const) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(status);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers['cache-control'], url).toBe('no-store');
      }
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
