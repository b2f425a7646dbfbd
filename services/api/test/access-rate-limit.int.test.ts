import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { createRedis } from '@aso/queue';
import type { LightMyRequestResponse } from 'fastify';
import {
  ZCheckAdminAnswer,
  ZErrorBody,
  ZRegisterAnswer,
  ZSessionAnswer,
  type TErrorBody,
} from '@aso/contracts';
import { it } from '@aso/testkit/vitest';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { parseApiEnv } from '../src/env';
import { authPlugin } from '../src/plugins/auth.plugin';
import { errorHandlerPlugin } from '../src/plugins/error-handler.plugin';
import { infraPlugin } from '../src/plugins/infra.plugin';
import { clientIp, rateLimitPlugin } from '../src/plugins/rate-limit.plugin';
import { adminRoutes } from '../src/routes/admin.routes';
import { authRoutes } from '../src/routes/auth.routes';
import {
  ADMIN_CODE,
  admin,
  bearer,
  clearRateLimits,
  credentials,
  expectError,
  generateCode,
  startApi,
} from './access.fixtures';

const LIMIT = '3';

/** Asserts a 429 in the contract's shape with a usable retry delay (1-60 s). */
function expectRateLimited(res: LightMyRequestResponse): TErrorBody {
  expect(res.statusCode, res.body).toBe(429);
  const body = ZErrorBody.parse(res.json());
  expect(body.code).toBe('RATE_LIMITED');
  expect(body.retryAfter).toBeGreaterThanOrEqual(1);
  expect(body.retryAfter).toBeLessThanOrEqual(60);
  expect(body.message).toBe(
    `Too many attempts. Please try again in ${body.retryAfter} second${body.retryAfter === 1 ? '' : 's'}.`,
  );
  expect(res.headers['retry-after']).toBe(String(body.retryAfter));
  return body;
}

describe('rate limits', () => {
  it('limits register per IP and failed sign-ins per address, and recovers in a new window', async ({
    database,
    redis,
  }) => {
    const app = await startApi(database, redis, {
      AUTH_RATE_LIMIT_PER_MIN: LIMIT,
      SIGNIN_ADDRESS_FAILURES_PER_MIN: LIMIT,
    });
    try {
      const code = await generateCode(app, { maxUses: 10 });
      const from = { remoteAddress: '198.51.100.7' };
      const { signInCode } = ZRegisterAnswer.parse(
        (await credentials(app, 'register', 'ip2@example.com', code.code, from)).json(),
      );
      // A right code is given back: signing in does not use up the address's attempts.
      for (let i = 0; i < 4; i++) {
        expect(
          (await credentials(app, 'login', 'ip2@example.com', signInCode, from)).statusCode,
        ).toBe(200);
      }
      // Three failures from one address, each with another email.
      for (const email of ['ip1@example.com', 'ip3@example.com', 'ip5@example.com']) {
        expectError(
          await credentials(app, 'login', email, 'ZZZZ-ZZZZ', from),
          401,
          'Invalid email or access code',
        );
      }
      // The fourth is refused before anything is checked, even with good credentials.
      expectRateLimited(await credentials(app, 'login', 'ip2@example.com', signInCode, from));
      // Register has its own limit per IP: two more, then refused.
      for (const email of ['ip6@example.com', 'ip7@example.com']) {
        expect((await credentials(app, 'register', email, code.code, from)).statusCode).toBe(200);
      }
      expectRateLimited(await credentials(app, 'register', 'ip4@example.com', code.code, from));
      // Invalid bodies are counted too (the register IP limit runs before the body is read).
      expectRateLimited(
        await app.inject({ method: 'POST', url: '/api/register', payload: {}, ...from }),
      );
      // Other IPs are not affected.
      ZSessionAnswer.parse(
        (
          await credentials(app, 'login', 'ip2@example.com', signInCode, {
            remoteAddress: '198.51.100.8',
          })
        ).json(),
      );

      // A new window (the counters' keys gone) admits the caller again.
      expect(await clearRateLimits(redis.url, redis.prefix)).toBeGreaterThan(0);
      const again = await credentials(app, 'login', 'ip2@example.com', signInCode, from);
      expect(again.statusCode, again.body).toBe(200);
      ZSessionAnswer.parse(again.json());
    } finally {
      await app.close();
    }
  });

  it('limits per email across IPs, taking the IP from X-Forwarded-For only with TRUST_PROXY', async ({
    database,
    redis,
  }) => {
    await clearRateLimits(redis.url, redis.prefix);
    const trusting = await startApi(database, redis, {
      AUTH_RATE_LIMIT_PER_MIN: LIMIT,
      SIGNIN_ADDRESS_FAILURES_PER_MIN: LIMIT,
      SIGNIN_EMAIL_FAILURES_PER_HOUR: LIMIT,
      SIGNIN_EMAIL_BACKOFF_S: '20',
      TRUST_PROXY: 'true',
    });
    try {
      const via = (ip: string) => ({
        headers: { 'x-forwarded-for': ip },
        remoteAddress: '10.0.0.1',
      });
      for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
        expectError(
          await credentials(trusting, 'login', 'Victim@example.com', 'ZZZZ-ZZZZ', via(ip)),
          401,
          /Invalid/,
        );
      }
      // Past the per-email limit, one attempt per backoff from each address (the first is
      // compared), and the next from that address waits at most the backoff; another
      // address has a slot of its own.
      expectError(
        await credentials(trusting, 'login', 'victim@EXAMPLE.com', 'ZZZZ-ZZZZ', via('203.0.113.4')),
        401,
        /Invalid/,
      );
      const gated = expectRateLimited(
        await credentials(trusting, 'login', 'victim@example.com', 'ZZZZ-ZZZZ', via('203.0.113.4')),
      );
      expect(gated.retryAfter).toBeLessThanOrEqual(20);
      expectError(
        await credentials(trusting, 'login', 'victim@example.com', 'ZZZZ-ZZZZ', via('203.0.113.6')),
        401,
        /Invalid/,
      );
      // Another email from a fresh forwarded IP is fine: the proxy's own address was not counted as one client.
      expectError(
        await credentials(trusting, 'login', 'other@example.com', 'ZZZZ-ZZZZ', via('203.0.113.5')),
        401,
        /Invalid/,
      );
      // The email is not written to Redis in clear.
      const r = createRedis(redis.url, { role: 'producer' });
      try {
        const keys = await r.keys(`${redis.prefix}:ratelimit:*`);
        expect(keys.some((k) => k.includes('signin:email:'))).toBe(true);
        expect(keys.some((k) => k.toLowerCase().includes('victim'))).toBe(false);
      } finally {
        r.disconnect();
      }
    } finally {
      await trusting.close();
    }

    await clearRateLimits(redis.url, redis.prefix);
    const direct = await startApi(database, redis, {
      AUTH_RATE_LIMIT_PER_MIN: LIMIT,
      SIGNIN_ADDRESS_FAILURES_PER_MIN: LIMIT,
    });
    try {
      // Without TRUST_PROXY a forged X-Forwarded-For changes nothing: one client, one bucket.
      const forged = (i: number) => ({
        headers: { 'x-forwarded-for': `192.0.2.${i}` },
        remoteAddress: '10.0.0.2',
      });
      for (let i = 1; i <= 3; i++) {
        expectError(
          await credentials(direct, 'login', `forged${i}@example.com`, 'ZZZZ-ZZZZ', forged(i)),
          401,
          /Invalid/,
        );
      }
      expectRateLimited(
        await credentials(direct, 'login', 'forged4@example.com', 'ZZZZ-ZZZZ', forged(4)),
      );
    } finally {
      await direct.close();
    }

    await clearRateLimits(redis.url, redis.prefix);
    const oneHop = await startApi(database, redis, {
      AUTH_RATE_LIMIT_PER_MIN: LIMIT,
      SIGNIN_ADDRESS_FAILURES_PER_MIN: LIMIT,
      TRUST_PROXY: '10.0.0.0/24',
    });
    try {
      // Behind a listed proxy that appends the address it saw: what the client writes to the
      // left of it is ignored, so a forged address cannot buy a new bucket.
      const prepended = (i: number) => ({
        headers: { 'x-forwarded-for': `192.0.2.${i}, 203.0.113.9` },
        remoteAddress: '10.0.0.3',
      });
      for (let i = 1; i <= 3; i++) {
        expectError(
          await credentials(oneHop, 'login', `hop${i}@example.com`, 'ZZZZ-ZZZZ', prepended(i)),
          401,
          /Invalid/,
        );
      }
      expectRateLimited(
        await credentials(oneHop, 'login', 'hop4@example.com', 'ZZZZ-ZZZZ', prepended(4)),
      );
      // Another client behind the same proxy has its own bucket.
      expectError(
        await credentials(oneHop, 'login', 'hop5@example.com', 'ZZZZ-ZZZZ', {
          headers: { 'x-forwarded-for': '203.0.113.10' },
          remoteAddress: '10.0.0.3',
        }),
        401,
        /Invalid/,
      );
      // A header from a peer that is not a listed proxy is ignored: that peer is the client.
      const unlisted = (i: number) => ({
        headers: { 'x-forwarded-for': `203.0.113.${20 + i}` },
        remoteAddress: '192.0.2.50',
      });
      for (let i = 1; i <= 3; i++) {
        expectError(
          await credentials(oneHop, 'login', `peer${i}@example.com`, 'ZZZZ-ZZZZ', unlisted(i)),
          401,
          /Invalid/,
        );
      }
      expectRateLimited(
        await credentials(oneHop, 'login', 'peer4@example.com', 'ZZZZ-ZZZZ', unlisted(4)),
      );
    } finally {
      await oneHop.close();
    }
  });

  it('limits the admin check and wrong admin codes per IP', async ({ database, redis }) => {
    await clearRateLimits(redis.url, redis.prefix);
    const app = await startApi(database, redis, { AUTH_RATE_LIMIT_PER_MIN: LIMIT });
    try {
      const from = { remoteAddress: '198.51.100.20' };
      const check = (code: string) =>
        app.inject({ method: 'GET', url: '/api/check-access', headers: admin(code), ...from });
      expect(ZCheckAdminAnswer.parse((await check('guess-0001')).json())).toEqual({
        isAdmin: false,
      });
      expect(ZCheckAdminAnswer.parse((await check('guess-0002')).json())).toEqual({
        isAdmin: false,
      });
      // The right code is given back: only the wrong ones count.
      expect(ZCheckAdminAnswer.parse((await check(ADMIN_CODE)).json())).toEqual({ isAdmin: true });
      expect(ZCheckAdminAnswer.parse((await check('guess-0003')).json())).toEqual({
        isAdmin: false,
      });
      expectRateLimited(await check(ADMIN_CODE));
      // The user check (bearer, no admin header) is not limited.
      for (let i = 0; i < 5; i++) {
        const res = await app.inject({
          method: 'GET',
          url: '/api/check-access',
          headers: bearer('x'),
          ...from,
        });
        expect(res.statusCode).toBe(200);
      }

      // Admin routes: the right code is never counted; wrong codes are, in the same bucket.
      const other = { remoteAddress: '198.51.100.21' };
      const codes = (code: string) =>
        app.inject({ method: 'GET', url: '/api/admin/codes', headers: admin(code), ...other });
      for (let i = 0; i < 6; i++) expect((await codes(ADMIN_CODE)).statusCode).toBe(200);
      for (let i = 0; i < 3; i++)
        expectError(await codes(`wrong-${i}-0000`), 403, 'Invalid admin code');
      expectRateLimited(await codes('wrong-3-0000'));
      // Once limited, even the right code waits for the window (a guesser learns nothing).
      expectRateLimited(await codes(ADMIN_CODE));
      await clearRateLimits(redis.url, redis.prefix);
      expect((await codes(ADMIN_CODE)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('gives other routes a reusable per-user limit and a window that expires', async ({
    database,
    redis,
  }) => {
    await clearRateLimits(redis.url, redis.prefix);
    // The gateway's plugins on a bare instance, plus two probe routes that use the limits
    // the way the analyze and upload routes will.
    const config = parseApiEnv({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: redis.prefix,
      LOG_LEVEL: 'silent',
      ADMIN_ACCESS_CODE: ADMIN_CODE,
    });
    const probe = Fastify({ logger: false });
    probe.setValidatorCompiler(validatorCompiler);
    probe.setSerializerCompiler(serializerCompiler);
    await probe.register(errorHandlerPlugin);
    await probe.register(infraPlugin, { config });
    await probe.register(rateLimitPlugin);
    await probe.register(authPlugin);
    await probe.register(authRoutes, { prefix: '/api' });
    await probe.register(adminRoutes, { prefix: '/api/admin' });
    probe.get(
      '/probe/per-user',
      { preHandler: [probe.requireUser, probe.perUserRateLimit('probe', 2)] },
      async () => ({ ok: true }),
    );
    const shortWindow = probe.createLimiter({
      name: 'probe:short',
      max: 1,
      windowMs: 1_000,
      key: clientIp,
    });
    probe.get('/probe/short', { onRequest: shortWindow.hit }, async () => ({ ok: true }));
    await probe.ready();
    try {
      const code = await generateCode(probe, { maxUses: 2 });
      const u1 = ZSessionAnswer.parse(
        (await credentials(probe, 'register', 'quota1@example.com', code.code)).json(),
      );
      const u2 = ZSessionAnswer.parse(
        (await credentials(probe, 'register', 'quota2@example.com', code.code)).json(),
      );
      const call = (token: string) =>
        probe.inject({ method: 'GET', url: '/probe/per-user', headers: bearer(token) });
      expect((await call(u1.sessionToken)).statusCode).toBe(200);
      expect((await call(u1.sessionToken)).statusCode).toBe(200);
      expectRateLimited(await call(u1.sessionToken));
      // Per user, not per IP: the second user (same IP) still has its quota.
      expect((await call(u2.sessionToken)).statusCode).toBe(200);
      // Without a session the user limit is never reached: 401 first.
      expectError(await probe.inject({ method: 'GET', url: '/probe/per-user' }), 401, /session/);

      expect((await probe.inject({ method: 'GET', url: '/probe/short' })).statusCode).toBe(200);
      const limited = expectRateLimited(await probe.inject({ method: 'GET', url: '/probe/short' }));
      expect(limited.retryAfter).toBe(1);
      // The window is 1 s: wait it out and the route answers again.
      await sleep(1_100);
      expect((await probe.inject({ method: 'GET', url: '/probe/short' })).statusCode).toBe(200);
    } finally {
      await probe.close();
    }
  });

  it('answers 503 instead of going unlimited when Redis is unreachable', async ({
    database,
    redis,
  }) => {
    const app = await startApi(database, { url: 'redis://127.0.0.1:1', prefix: redis.prefix });
    try {
      const res = await credentials(app, 'login', 'down@example.com', 'ZZZZ-ZZZZ');
      expectError(res, 503, 'The service is temporarily unavailable. Please try again shortly.');
      expect(ZErrorBody.parse(res.json()).code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await app.close();
    }
  });
});
