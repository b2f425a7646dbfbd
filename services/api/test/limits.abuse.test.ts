/**
 * What one ordinary account can throw at the gateway, in process (Fastify `inject` against the
 * real PostgreSQL and Redis): collections bounded in count and size, lists paginated, write
 * rates limited, and secret checks counted before they are compared.
 */
import { describe, expect, vi } from 'vitest';
import {
  ZAdminUser,
  ZErrorBody,
  ZRegisterAnswer,
  fieldLabel,
  type TErrorBody,
} from '@aso/contracts';
import { finalizeAudit, insertAudit, storeDataset, type TDb } from '@aso/db';
import { createTestUser, type TTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ADMIN_CODE, admin, credentials, generateCode, startApi } from './access.fixtures';
import { buildLoggedApi, capturedLogger } from './ops-logs.helpers';

/** The error body of `res`, after asserting its status. */
function errorOf(res: LightMyRequestResponse, status: number): TErrorBody {
  expect(res.statusCode, res.body).toBe(status);
  return ZErrorBody.parse(res.json());
}

/** A live dataset of `user` (no rows: dashboards only need it to exist). */
async function dataset(db: TDb, user: TTestUser): Promise<string> {
  const stored = await storeDataset(db, {
    userId: user.userId,
    appName: 'Calm Notes',
    territory: 'United States',
    headers: ['Date', 'Impressions'],
    chunks: [],
    dateSpan: null,
    ttlDays: 1,
    uploadIds: [],
  });
  return stored.id;
}

const dashboardBody = (downloadId: string, extra: Record<string, unknown> = {}) => ({
  appName: 'Calm Notes',
  territory: 'United States',
  configJson: {
    downloadId,
    headers: ['Date', 'Impressions'],
    totalRows: 0,
    createdFrom: 'csv_upload',
  },
  ...extra,
});

/** `n` finished audits of `user` (stored results, as the analyzer writes them). */
async function doneAudits(db: TDb, user: TTestUser, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const row = await insertAudit(db, {
      userId: user.userId,
      accessCodeId: user.accessCodeId,
      appId: `40000000${i}`,
      storefront: 'us',
      appStoreUrl: `https://apps.apple.com/us/app/id40000000${i}`,
      inputs: {},
    });
    expect(
      await finalizeAudit(db, row.id, { result: {}, appName: `App ${i}`, provider: 'heuristic' }),
    ).toBe(true);
    ids.push(row.id);
  }
  return ids;
}

/** How many rows of `table` belong to `user`. */
async function owned(
  db: TDb,
  table: 'saved_audits' | 'feedback' | 'keyword_tracks' | 'watch_items',
  user: TTestUser,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', user.userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The statuses of `answers`, sorted. */
const statuses = (answers: LightMyRequestResponse[]) => answers.map((a) => a.statusCode).sort();

/** Follows `Link: <...>; rel="next"` from `url` and returns every page's ids. */
async function walk(api: FastifyInstance, url: string, user: TTestUser): Promise<string[][]> {
  const pages: string[][] = [];
  let next: string | null = url;
  while (next) {
    const res: LightMyRequestResponse = await api.inject({
      method: 'GET',
      url: next,
      headers: user.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    pages.push(res.json<{ id: string }[]>().map((d) => d.id));
    const link: unknown = res.headers.link;
    next = typeof link === 'string' ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
  }
  return pages;
}

describe('collections and lists are bounded', () => {
  it('caps dashboards in count (also under parallel creates) and size, and pages the list', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, {
      DASHBOARDS_MAX_PER_USER: '5',
      DASHBOARD_CONFIG_MAX_BYTES: '2048',
      TEXT_FIELD_MAX_CHARS: '100',
      LIST_PAGE_DEFAULT: '3',
      LIST_PAGE_MAX: '4',
    });
    try {
      const user = await createTestUser(database.db);
      const other = await createTestUser(database.db);
      const downloadId = await dataset(database.db, user);
      const post = (body: object, who = user) =>
        api.inject({ method: 'POST', url: '/api/dashboards', headers: who.headers, payload: body });

      // Over-long fields and an oversized config: 413 naming the field and the setting.
      const longName = errorOf(
        await post(dashboardBody(downloadId, { appName: 'A'.repeat(101) })),
        413,
      );
      expect(longName.message).toBe(
        'App name is 101 characters; the limit is 100 (TEXT_FIELD_MAX_CHARS)',
      );
      const big = dashboardBody(downloadId);
      big.configJson.headers = Array.from({ length: 300 }, (_, i) => `Column ${i}`);
      expect(errorOf(await post(big), 413).message).toMatch(
        /^Config json is \d+ bytes; the limit is 2048 bytes \(DASHBOARD_CONFIG_MAX_BYTES\)$/,
      );

      // Twelve parallel creates: exactly the limit are stored, the rest 409 naming it.
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => post(dashboardBody(downloadId))),
      );
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([...Array<number>(5).fill(200), ...Array<number>(7).fill(409)]);
      expect(ZErrorBody.parse(answers.find((a) => a.statusCode === 409)!.json()).message).toBe(
        'You have reached the limit of 5 saved dashboards (DASHBOARDS_MAX_PER_USER). Delete some to add more.',
      );
      const stored = await database.db
        .selectFrom('dashboards')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', user.userId)
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(5);

      // Pages of the default size (3) then the rest, newest first, each id once.
      const pages = await walk(api, '/api/dashboards', user);
      expect(pages.map((p) => p.length)).toEqual([3, 2]);
      expect(new Set(pages.flat()).size).toBe(5);
      const byTwo = await walk(api, '/api/dashboards?limit=2', user);
      expect(byTwo.flat()).toEqual(pages.flat());
      // The cached first page is dropped by a delete like the whole list was.
      const del = await api.inject({
        method: 'DELETE',
        url: `/api/dashboards/${pages[0]![0]}`,
        headers: user.headers,
      });
      expect(del.statusCode).toBe(204);
      expect((await walk(api, '/api/dashboards', user)).flat()).toEqual(pages.flat().slice(1));
      // Someone else's list is their own.
      expect(await walk(api, '/api/dashboards', other)).toEqual([[]]);

      // Strict page parameters.
      const get = (q: string) =>
        api.inject({ method: 'GET', url: `/api/dashboards?${q}`, headers: user.headers });
      expect(errorOf(await get('limit=0x41'), 400).message).toMatch(/limit must be a whole number/);
      expect(errorOf(await get('limit=5'), 400).message).toMatch(/at most 4 \(LIST_PAGE_MAX\)/);
      expect(errorOf(await get('limit=0'), 400).message).toMatch(/limit must be a whole number/);
      expect(errorOf(await get('cursor=bm90LWEtY3Vyc29y'), 400).message).toBe(
        'cursor is not one this server gave',
      );
    } finally {
      await api.close();
    }
  });

  it('caps saved audits and feedback per user, also under parallel writes, naming the setting', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, {
      SAVED_AUDITS_MAX_PER_USER: '3',
      FEEDBACK_MAX_PER_USER: '4',
      FEEDBACK_MAX_CHARS: '200',
      WRITE_RATE_LIMIT_PER_MIN: '1000',
    });
    try {
      const user = await createTestUser(database.db);
      const other = await createTestUser(database.db);
      const audits = await doneAudits(database.db, user, 5);
      const post = (url: string, payload: object, who = user) =>
        api.inject({ method: 'POST', url, headers: who.headers, payload });

      const saves = await Promise.all(
        audits.map((auditId) => post('/api/saved-audits', { auditId, storefront: 'us' })),
      );
      expect(statuses(saves)).toEqual([200, 200, 200, 409, 409]);
      expect(
        errorOf(
          saves.find((a) => a.statusCode === 409)!,
          409,
        ).message,
      ).toBe(
        'You have reached the limit of 3 saved audits (SAVED_AUDITS_MAX_PER_USER). Delete some to add more.',
      );
      expect(await owned(database.db, 'saved_audits', user)).toBe(3);
      // Saving a saved audit again answers the first save, even at the limit.
      const savedOne = saves
        .find((a) => a.statusCode === 200)!
        .json<{ id: string; auditId: string }>();
      const again = await post('/api/saved-audits', {
        auditId: savedOne.auditId,
        storefront: 'us',
      });
      expect(again.statusCode).toBe(200);
      expect(again.json<{ id: string }>().id).toBe(savedOne.id);
      // A delete makes room for one more.
      const del = await api.inject({
        method: 'DELETE',
        url: `/api/saved-audits/${savedOne.id}`,
        headers: user.headers,
      });
      expect(del.statusCode).toBe(204);
      const refused = saves.findIndex((a) => a.statusCode === 409);
      expect(
        (await post('/api/saved-audits', { auditId: audits[refused], storefront: 'us' }))
          .statusCode,
      ).toBe(200);

      // Feedback: over-long text is refused before anything is stored, then the count.
      const long = await post('/api/feedback', { auditId: audits[0], feedback: 'x'.repeat(201) });
      expect(errorOf(long, 413).message).toBe(
        'Feedback is 201 characters; the limit is 200 (FEEDBACK_MAX_CHARS)',
      );
      const notes = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          post('/api/feedback', { auditId: audits[i % 5], feedback: `Note ${i} `.repeat(20) }),
        ),
      );
      expect(statuses(notes)).toEqual([200, 200, 200, 200, 409, 409]);
      expect(
        errorOf(
          notes.find((a) => a.statusCode === 409)!,
          409,
        ).message,
      ).toBe(
        'You have reached the limit of 4 feedback entries (FEEDBACK_MAX_PER_USER). Delete some to add more.',
      );
      expect(await owned(database.db, 'feedback', user)).toBe(4);
      // Another user's own limit is untouched.
      const [theirs] = await doneAudits(database.db, other, 1);
      expect(
        (await post('/api/feedback', { auditId: theirs, feedback: 'Fine' }, other)).statusCode,
      ).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('caps tracked keywords per app and per user, and stored addresses, naming the settings', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, {
      KEYWORDS_MAX_PER_APP: '3',
      KEYWORDS_MAX_PER_USER: '5',
      URL_MAX_CHARS: '120',
      SHARE_LINKS_MAX_PER_USER: '1',
      WATCHLIST_MAX_PER_USER: '1',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WRITE_RATE_LIMIT_PER_MIN: '1000',
    });
    try {
      const user = await createTestUser(database.db);
      const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
        api.inject({ method, url, headers: user.headers, payload });
      const app = (n: number) => `https://apps.apple.com/us/app/id50000000${n}`;
      const track = (n: number, terms: string[]) =>
        call('POST', '/api/keywords', { appStoreUrl: app(n), terms });

      expect((await track(1, ['one', 'two', 'three'])).statusCode).toBe(201);
      expect(errorOf(await track(1, ['four']), 409).message).toBe(
        'You can track at most 3 terms for an app in a storefront (KEYWORDS_MAX_PER_APP; 3 tracked); remove some to add others',
      );
      expect(errorOf(await track(2, ['a', 'b', 'c']), 409).message).toBe(
        'You can track at most 5 terms in all (KEYWORDS_MAX_PER_USER; 3 tracked); remove some to add others',
      );
      expect(await owned(database.db, 'keyword_tracks', user)).toBe(3);
      // Parallel adds for other apps cannot pass the total together.
      const parallel = await Promise.all([2, 3, 4, 5].map((n) => track(n, ['x', 'y'])));
      expect(statuses(parallel)).toEqual([201, 409, 409, 409]);
      expect(await owned(database.db, 'keyword_tracks', user)).toBe(5);

      // Addresses past URL_MAX_CHARS: 413 naming the field, nothing stored.
      const longUrl = `${app(6)}?${'p=1&'.repeat(20)}`;
      expect(longUrl.length).toBeGreaterThan(120);
      const tooLong = (res: LightMyRequestResponse, field: string) =>
        expect(errorOf(res, 413)).toMatchObject({
          message: `${fieldLabel(field)} is ${longUrl.length} characters; the limit is 120 (URL_MAX_CHARS)`,
          field,
        });
      tooLong(
        await call('POST', '/api/watchlist', { appStoreUrl: longUrl, role: 'mine' }),
        'appStoreUrl',
      );
      tooLong(
        await call('POST', '/api/keywords', { appStoreUrl: longUrl, terms: ['z'] }),
        'appStoreUrl',
      );
      tooLong(await call('PUT', '/api/webhook', { url: longUrl }), 'url');
      expect(await owned(database.db, 'watch_items', user)).toBe(0);

      // The watchlist and share link limits name their setting.
      expect(
        (await call('POST', '/api/watchlist', { appStoreUrl: app(1), role: 'mine' })).statusCode,
      ).toBe(201);
      expect(
        errorOf(
          await call('POST', '/api/watchlist', { appStoreUrl: app(2), role: 'competitor' }),
          409,
        ).message,
      ).toBe(
        'You can watch at most 1 listings (WATCHLIST_MAX_PER_USER); remove one to watch another',
      );
      const [auditId] = await doneAudits(database.db, user, 1);
      expect((await call('POST', `/api/audit/${auditId}/shares`, {})).statusCode).toBe(201);
      expect(errorOf(await call('POST', `/api/audit/${auditId}/shares`, {}), 409).message).toBe(
        'You have reached the limit of 1 share links (SHARE_LINKS_MAX_PER_USER): revoke one to share again',
      );
    } finally {
      await api.close();
    }
  });

  it('limits per-user write rates with Retry-After, shared through Redis', async ({
    database,
    redis,
  }) => {
    const apis = [
      await startApi(database, redis, {
        WRITE_RATE_LIMIT_PER_MIN: '4',
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      }),
      await startApi(database, redis, {
        WRITE_RATE_LIMIT_PER_MIN: '4',
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      }),
    ];
    try {
      const user = await createTestUser(database.db);
      const downloadId = await dataset(database.db, user);
      // Two replicas, one budget: the fifth write of the minute is refused wherever it lands.
      const answers = [];
      for (let i = 0; i < 6; i++) {
        answers.push(
          await apis[i % 2]!.inject({
            method: 'POST',
            url: '/api/dashboards',
            headers: user.headers,
            payload: dashboardBody(downloadId),
          }),
        );
      }
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 429, 429]);
      const retry = Number(answers[4]!.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);

      // Share links, keyword and watchlist adds and webhook changes draw on the same budget.
      const writer = await createTestUser(database.db);
      const [auditId] = await doneAudits(database.db, writer, 1);
      const write = (i: number, method: 'POST' | 'PUT', url: string, payload: object) =>
        apis[i % 2]!.inject({ method, url, headers: writer.headers, payload });
      const app = 'https://apps.apple.com/us/app/id600000001';
      const writes = [
        await write(0, 'POST', `/api/audit/${auditId}/shares`, {}),
        await write(1, 'POST', '/api/keywords', { appStoreUrl: app, terms: ['focus'] }),
        await write(0, 'POST', '/api/watchlist', { appStoreUrl: app, role: 'mine' }),
        await write(1, 'PUT', '/api/webhook', { url: 'http://127.0.0.1:9/hook' }),
        await write(0, 'POST', '/api/keywords', { appStoreUrl: app, terms: ['timer'] }),
        await write(1, 'PUT', '/api/webhook', { url: 'http://127.0.0.1:9/other' }),
      ];
      expect(writes.map((a) => a.statusCode)).toEqual([201, 201, 201, 200, 429, 429]);
      expect(Number(writes[5]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(await owned(database.db, 'keyword_tracks', writer)).toBe(1);
    } finally {
      await Promise.all(apis.map((a) => a.close()));
    }
  });
});

describe('secret checks count before they compare', () => {
  it('compares at most the limit of 50 parallel admin guesses, and refuses the right code after them', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, { AUTH_RATE_LIMIT_PER_MIN: '10' });
    try {
      const from = { remoteAddress: '198.51.100.60' };
      const guesses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          api.inject({
            method: 'GET',
            url: '/api/admin/codes',
            headers: admin(`wrong-guess-${i}`),
            ...from,
          }),
        ),
      );
      const compared = guesses.filter((g) => g.statusCode === 403).length;
      expect(compared).toBe(10);
      expect(guesses.filter((g) => g.statusCode === 429).length).toBe(40);
      const right = await api.inject({
        method: 'GET',
        url: '/api/admin/codes',
        headers: admin(ADMIN_CODE),
        ...from,
      });
      expect(right.statusCode).toBe(429);
      // Another address is not affected.
      const elsewhere = await api.inject({
        method: 'GET',
        url: '/api/admin/codes',
        headers: admin(ADMIN_CODE),
        remoteAddress: '198.51.100.61',
      });
      expect(elsewhere.statusCode).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('lets an attack from many addresses delay, never lock out, the user, and logs the lock-outs', async ({
    database,
    redis,
  }) => {
    const logged = capturedLogger('warn');
    const api = await buildLoggedApi(database, redis, logged.log, {
      ADMIN_ACCESS_CODE: ADMIN_CODE,
      AUTH_RATE_LIMIT_PER_MIN: '10',
      SIGNIN_ADDRESS_FAILURES_PER_MIN: '30',
      SIGNIN_EMAIL_FAILURES_PER_HOUR: '20',
      SIGNIN_EMAIL_BACKOFF_S: '2',
    });
    let attacking = true;
    try {
      const code = await generateCode(api, { maxUses: 2 });
      const email = 'victim@example.com';
      const { signInCode } = ZRegisterAnswer.parse(
        (
          await credentials(api, 'register', email, code.code, { remoteAddress: '192.0.2.1' })
        ).json(),
      );
      const wrong = (address: string) =>
        credentials(api, 'login', email, 'ZZZZ-ZZZZ-ZZZZ', { remoteAddress: address });
      // Six addresses, 15 wrong codes each, all at once: per (email, address) at most 10 are
      // compared, for the email 20, then one per backoff and address.
      const burst = await Promise.all(
        Array.from({ length: 90 }, (_, i) => wrong(`203.0.113.${1 + (i % 6)}`)),
      );
      const compared = burst.filter((a) => a.statusCode === 401).length;
      expect(compared).toBeGreaterThanOrEqual(20);
      expect(compared).toBeLessThanOrEqual(20 + 6);
      expect(burst.filter((a) => a.statusCode === 429).length).toBe(90 - compared);
      // Some 60 refusals, logged once per counter window or backoff slot (per address: its
      // pair's window, its backoff slot), plus the backoff's start: not once per request.
      const burstLines = logged.lines.filter((l) => l.event === 'lockout').length;
      expect(burstLines).toBeGreaterThanOrEqual(2);
      expect(burstLines).toBeLessThanOrEqual(6 * 2 + 1);

      // The attack goes on, from ever new addresses, while the user signs in.
      let next = 0;
      let comparedSince = 0;
      const attack = (async () => {
        while (attacking) {
          const round = await Promise.all(
            Array.from({ length: 6 }, () => wrong(`198.51.100.${1 + (next++ % 250)}`)),
          );
          comparedSince += round.filter((a) => a.statusCode === 401).length;
        }
      })();
      // From a new address the right code gets through at once: its backoff slot is its own.
      const fresh = await credentials(api, 'login', email, signInCode, {
        remoteAddress: '192.0.2.99',
      });
      expect(fresh.statusCode, fresh.body).toBe(200);
      // The right code emptied the email's count; the attack takes it past the limit again.
      comparedSince = 0;
      await vi.waitUntil(() => comparedSince > 20, { timeout: 20_000, interval: 20 });
      // A typo from the user's own address takes that address's slot; the right code then
      // waits at most one backoff, though the attack goes on.
      expect((await wrong('192.0.2.98')).statusCode).toBe(401);
      const started = Date.now();
      let res = await credentials(api, 'login', email, signInCode, { remoteAddress: '192.0.2.98' });
      let waits = 0;
      while (res.statusCode === 429) {
        const wait = Number(res.headers['retry-after']);
        expect(wait).toBeLessThanOrEqual(2);
        waits++;
        await new Promise((r) => setTimeout(r, wait * 1000));
        res = await credentials(api, 'login', email, signInCode, { remoteAddress: '192.0.2.98' });
      }
      expect(res.statusCode, res.body).toBe(200);
      expect(waits).toBe(1);
      expect(Date.now() - started).toBeLessThan(2_000 + 1_500);
      attacking = false;
      await attack;

      // The lock-outs are logged, without the email, and counted for the admin.
      const lockouts = logged.lines.filter((l) => l.event === 'lockout');
      // The email's backoff began, and refusals by the backoff slots were logged.
      const byEmail = lockouts.filter((l) => l.limit === 'sign-in:email').map((l) => l.msg);
      expect(byEmail).toContain('sign-in attempts slowed to one per backoff');
      expect(byEmail).toContain('sign-in attempts locked out');
      expect(lockouts.every((l) => typeof l.emailKey === 'string')).toBe(true);
      expect(logged.text()).not.toContain('victim');
      const users = await api.inject({ method: 'GET', url: '/api/admin/users', headers: admin() });
      const victim = ZAdminUser.array()
        .parse(users.json())
        .find((u) => u.email === email);
      expect(victim?.lockouts).toBeGreaterThanOrEqual(1);
      expect(victim?.lastLockoutAt).not.toBeNull();
    } finally {
      attacking = false;
      await api.close();
    }
  });
});
