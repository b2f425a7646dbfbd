import { expect } from 'vitest';
import { createRedis } from '@aso/queue';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ZErrorBody, ZGenerateCodeAnswer, type TAccessCode, type TErrorBody } from '@aso/contracts';
import type { TTestDatabase } from '@aso/testkit';
import { parseApiEnv } from '../src/env';
import { buildServer } from '../src/server';

// Shared by the access*.int.test.ts files: a real gateway over the file's own database and
// Redis prefix, driven through inject().

/** The `ADMIN_ACCESS_CODE` the test gateways start with (constructed for these tests). */
export const ADMIN_CODE = 'Test-Admin-Code-7Q4X';

/** Builds and readies the gateway; `env` overrides (e.g. a small AUTH_RATE_LIMIT_PER_MIN). */
export async function startApi(
  database: TTestDatabase,
  redis: { url: string; prefix: string },
  env: Record<string, string> = {},
): Promise<FastifyInstance> {
  const app = await buildServer(
    parseApiEnv({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: redis.prefix,
      LOG_LEVEL: 'silent',
      ADMIN_ACCESS_CODE: ADMIN_CODE,
      // High enough that only the rate-limit tests ever trip it.
      AUTH_RATE_LIMIT_PER_MIN: '10000',
      SIGNIN_ADDRESS_FAILURES_PER_MIN: '10000',
      SIGNIN_EMAIL_FAILURES_PER_HOUR: '10000',
      ...env,
    }),
  );
  await app.ready();
  return app;
}

/** `Authorization: Bearer <token>`. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** `x-access-code: <code>` (the admin header). */
export const admin = (code = ADMIN_CODE) => ({ 'x-access-code': code });

/** Generates an access code as the admin and returns it (asserting the contract). */
export async function generateCode(
  app: FastifyInstance,
  body: Record<string, unknown> = {},
): Promise<TAccessCode & { code: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/generate-code',
    headers: admin(),
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { code } = ZGenerateCodeAnswer.parse(res.json());
  // Generated codes are invite codes: their code is always readable.
  if (code.code === null) throw new Error('a generated code came without its code');
  return { ...code, code: code.code };
}

/** `POST /api/register` or `/api/login` with `{ email, accessCode }`. */
export function credentials(
  app: FastifyInstance,
  call: 'register' | 'login',
  email: string,
  accessCode: string,
  extra: { headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `/api/${call}`,
    payload: { email, accessCode },
    ...extra,
  });
}

/** Asserts an error answer: status, contract `{ message, code }`, and the exact message. */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  message: string | RegExp,
): TErrorBody {
  expect(res.statusCode, res.body).toBe(status);
  const body = ZErrorBody.parse(res.json());
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
  return body;
}

/** Deletes every rate-limit counter under `prefix` (a new window for every key). */
export async function clearRateLimits(redisUrl: string, prefix: string): Promise<number> {
  const r = createRedis(redisUrl, { role: 'producer' });
  try {
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:ratelimit:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) deleted += await r.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    r.disconnect();
  }
}
