import { createHash } from 'node:crypto';
import { afterAll, describe, expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createRedis, Producers } from '@aso/queue';
import { it } from '@aso/testkit/vitest';
import { QUEUE_BOARD_COOKIE, QUEUE_BOARD_TOKEN_TTL_MS } from '../src/plugins/queue-board.plugin';
import { canonicalAccessCode } from '../src/services/credentials.service';
import { ADMIN_CODE } from './access.fixtures';
import { buildLoggedApi, capturedLogger } from './ops-logs.helpers';

// bull-board at /admin/queues, refused without the admin code, showing every
// queue with it; the browser sign-in (`?code=` or the form) leaves an HttpOnly, SameSite=Strict
// cookie scoped to the monitor, which dies with its admin code; the code never reaches a log.

const logs = capturedLogger();
let app: FastifyInstance | undefined;
afterAll(async () => app?.close());

const SECOND_ADMIN = 'Second-Admin-Code-9K2P';

async function api(
  database: Parameters<typeof buildLoggedApi>[0],
  redis: Parameters<typeof buildLoggedApi>[1],
) {
  app ??= await buildLoggedApi(database, redis, logs.log, { ADMIN_ACCESS_CODE: ADMIN_CODE });
  return app;
}

/** The `name=value` part of the monitor cookie an answer sets. */
function boardCookie(res: LightMyRequestResponse): string {
  const set = [res.headers['set-cookie'] ?? []]
    .flat()
    .find((c) => c.startsWith(`${QUEUE_BOARD_COOKIE}=`));
  if (!set) throw new Error(`no ${QUEUE_BOARD_COOKIE} cookie in ${JSON.stringify(res.headers)}`);
  return set;
}

describe('queue monitor at /admin/queues', () => {
  it('refuses every request without the admin code: pages, API calls and assets', async ({
    database,
    redis,
  }) => {
    const a = await api(database, redis);
    for (const url of [
      '/admin/queues',
      '/admin/queues/',
      '/admin/queues/api/queues',
      '/admin/queues/queue/scrape',
    ]) {
      const res = await a.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual({ message: 'Admin access code required', code: 'FORBIDDEN' });
    }
    // A browser gets the sign-in form instead of JSON, never the board.
    const page = await a.inject({
      method: 'GET',
      url: '/admin/queues/',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(403);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<form method="post" action="/admin/queues/login">');
    expect(page.body).not.toContain('bull');
    // Wrong codes, in each place a code can be given.
    const wrongHeader = await a.inject({
      method: 'GET',
      url: '/admin/queues/api/queues',
      headers: { 'x-access-code': 'Not-The-Code-123' },
    });
    expect(wrongHeader.statusCode).toBe(403);
    expect(wrongHeader.json()).toEqual({ message: 'Invalid admin code', code: 'FORBIDDEN' });
    const wrongQuery = await a.inject({
      method: 'GET',
      url: '/admin/queues/?code=Not-The-Code-123',
    });
    expect(wrongQuery.statusCode).toBe(403);
    expect(wrongQuery.headers['set-cookie']).toBeUndefined();
    const forged = await a.inject({
      method: 'GET',
      url: '/admin/queues/api/queues',
      headers: {
        cookie: `${QUEUE_BOARD_COOKIE}=v1.00000000-0000-0000-0000-000000000000.9999999999999.${'A'.repeat(43)}`,
      },
    });
    expect(forged.statusCode).toBe(403);
  });

  it('shows every queue with the admin code in x-access-code', async ({ database, redis }) => {
    const a = await api(database, redis);
    const connection = createRedis(redis.url, { role: 'producer' });
    const producers = new Producers(connection, redis.prefix);
    await producers.add('scrape', {
      auditId: 'board-audit',
      appId: '324684580',
      storefront: 'us',
      role: 'main',
      appStoreUrl: 'https://apps.apple.com/us/app/id324684580',
    });
    await producers.close();
    connection.disconnect();
    const res = await a.inject({
      method: 'GET',
      url: '/admin/queues/api/queues',
      headers: { 'x-access-code': ADMIN_CODE },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{
      queues: { name: string; counts: Record<string, number>; readOnlyMode: boolean }[];
    }>();
    expect(body.queues.map((q) => q.name).sort()).toEqual([
      'analysis',
      'asc-import',
      'csv-merge',
      'keyword-search',
      'maintenance',
      'render',
      'scrape',
      'webhook',
    ]);
    expect(body.queues.find((q) => q.name === 'scrape')?.counts.waiting).toBe(1);
    expect(body.queues.every((q) => q.readOnlyMode)).toBe(true);
    const page = await a.inject({
      method: 'GET',
      url: '/admin/queues/',
      headers: { 'x-access-code': ADMIN_CODE },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('"boardTitle":"ASO queues"');
    // Its assets are behind the same check.
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = `/admin/queues/${script}`;
    expect(
      (await a.inject({ method: 'GET', url: asset, headers: { 'x-access-code': ADMIN_CODE } }))
        .statusCode,
    ).toBe(200);
    expect((await a.inject({ method: 'GET', url: asset })).statusCode).toBe(403);
  });

  it('signs a browser in with ?code= once: cookie HttpOnly, SameSite=Strict, path-scoped, code gone from the URL and the logs', async ({
    database,
    redis,
  }) => {
    const a = await api(database, redis);
    const res = await a.inject({
      method: 'GET',
      url: `/admin/queues/queue/scrape?status=waiting&code=${ADMIN_CODE}`,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/queues/queue/scrape?status=waiting');
    const set = boardCookie(res);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Strict/);
    expect(set).toMatch(/; Path=\/admin\/queues(;|$)/);
    expect(set).toMatch(new RegExp(`; Max-Age=${QUEUE_BOARD_TOKEN_TTL_MS / 1000}(;|$)`));
    const cookie = set.split(';')[0]!;
    expect(cookie).not.toContain(canonicalAccessCode(ADMIN_CODE));

    const queues = await a.inject({
      method: 'GET',
      url: '/admin/queues/api/queues',
      headers: { cookie },
    });
    expect(queues.statusCode, queues.body).toBe(200);
    const page = await a.inject({
      method: 'GET',
      url: '/admin/queues/queue/scrape?status=waiting',
      headers: { cookie },
    });
    expect(page.statusCode).toBe(200);
    // The cookie is worth nothing outside the monitor.
    expect(
      (await a.inject({ method: 'GET', url: '/api/admin/codes', headers: { cookie } })).statusCode,
    ).toBe(403);

    const text = logs.text();
    expect(text).toContain('/admin/queues/queue/scrape');
    expect(text).not.toContain(ADMIN_CODE);
    expect(text).not.toContain(canonicalAccessCode(ADMIN_CODE));
  });

  it('signs in through the form, and the cookie stops working once its admin code is deactivated', async ({
    database,
    redis,
  }) => {
    const a = await api(database, redis);
    await database.db
      .insertInto('access_codes')
      .values({
        code_hash: createHash('sha256').update(canonicalAccessCode(SECOND_ADMIN)).digest('hex'),
        max_uses: 1,
        is_admin: true,
      })
      .execute();
    const wrong = await a.inject({
      method: 'POST',
      url: '/admin/queues/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'code=nope-nope-nope',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).toContain('Invalid admin code');
    const login = await a.inject({
      method: 'POST',
      url: '/admin/queues/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `code=${encodeURIComponent(SECOND_ADMIN)}`,
    });
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe('/admin/queues/');
    const cookie = boardCookie(login).split(';')[0]!;
    expect(
      (await a.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: { cookie } }))
        .statusCode,
    ).toBe(200);
    expect(logs.text()).not.toContain(SECOND_ADMIN);
    expect(logs.text()).not.toContain(canonicalAccessCode(SECOND_ADMIN));

    const off = await a.inject({
      method: 'DELETE',
      url: `/api/admin/codes/${encodeURIComponent(SECOND_ADMIN)}`,
      headers: { 'x-access-code': ADMIN_CODE },
    });
    expect(off.statusCode, off.body).toBe(200);
    // The deactivation names the code in its URL; the request log redacts it.
    expect(logs.text()).toContain('/api/admin/codes/[redacted]');
    expect(logs.text()).not.toContain(SECOND_ADMIN);
    expect(logs.text()).not.toContain(canonicalAccessCode(SECOND_ADMIN));
    const after = await a.inject({
      method: 'GET',
      url: '/admin/queues/api/queues',
      headers: { cookie },
    });
    expect(after.statusCode).toBe(403);
  });
});
