/**
 * Every list of the gateway is paged with `?limit=&cursor=` and names its next page in a
 * `Link` header (docs/product.md#lists-and-pages): walked page by page (pages of 2, at most 3),
 * each list answers every item once, in its order, whatever ties its rows have.
 */
import { describe, expect } from 'vitest';
import { sql } from 'kysely';
import { nextPageFromLink, ZErrorBody } from '@aso/contracts';
import { finalizeAudit, insertAscConnection, insertAudit, insertNotifications } from '@aso/db';
import { createTestUser, type TTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import type { FastifyInstance } from 'fastify';
import { admin, startApi } from './access.fixtures';

const PAGES = { LIST_PAGE_DEFAULT: '2', LIST_PAGE_MAX: '3', WRITE_RATE_LIMIT_PER_MIN: '1000' };

/** An item of a list answer: its id, or what names it in lists without one. */
type TItem = Record<string, unknown>;

/**
 * Follows `Link: <...>; rel="next"` from `url` and returns each page's items (the answer, or
 * its `items`), asserting every page is 200 and holds at most `max` items.
 */
async function walk(
  api: FastifyInstance,
  url: string,
  headers: Record<string, string>,
  max = 2,
): Promise<TItem[][]> {
  const pages: TItem[][] = [];
  let next: string | null = url;
  while (next) {
    const res = await api.inject({ method: 'GET', url: next, headers });
    expect(res.statusCode, `${next}: ${res.body}`).toBe(200);
    const body = res.json<TItem[] | { items: TItem[] }>();
    const items = Array.isArray(body) ? body : body.items;
    expect(items.length).toBeLessThanOrEqual(max);
    pages.push(items);
    const link = res.headers.link;
    next = nextPageFromLink(typeof link === 'string' ? link : null);
    if (next) expect(items).toHaveLength(max);
    expect(pages.length, `${url} never ends`).toBeLessThan(100);
  }
  return pages;
}

/** The ids of every page's items, in order. */
const idsOf = (pages: TItem[][], key = 'id') => pages.flat().map((i) => String(i[key]));

/** A finished audit of `user` created at `at` (a stored result, as the analyzer writes it). */
async function doneAudit(db: Parameters<typeof insertAudit>[0], user: TTestUser): Promise<string> {
  const row = await insertAudit(db, {
    userId: user.userId,
    accessCodeId: user.accessCodeId,
    appId: '324684580',
    storefront: 'us',
    appStoreUrl: 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580',
    inputs: {},
  });
  expect(
    await finalizeAudit(db, row.id, { result: {}, appName: 'Spotify', provider: 'heuristic' }),
  ).toBe(true);
  return row.id;
}

describe('every list is paged', () => {
  it("pages a user's watchlist, keywords, share links, notifications and connections", async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, { ...PAGES, WATCHLIST_MAX_PER_USER: '10' });
    try {
      const user = await createTestUser(database.db);
      const other = await createTestUser(database.db);
      const post = (url: string, payload: object) =>
        api.inject({ method: 'POST', url, headers: user.headers, payload });

      // Watchlist: five listings, newest first.
      const watched: string[] = [];
      for (let i = 1; i <= 5; i++) {
        const res = await post('/api/watchlist', {
          appStoreUrl: `https://apps.apple.com/us/app/id10000000${i}`,
          role: i === 1 ? 'mine' : 'competitor',
        });
        expect(res.statusCode, res.body).toBe(201);
        watched.push(res.json<{ id: string }>().id);
      }
      const watchPages = await walk(api, '/api/watchlist', user.headers);
      expect(watchPages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(idsOf(watchPages)).toEqual([...watched].reverse());
      expect(await walk(api, '/api/watchlist?limit=3', user.headers, 3)).toHaveLength(2);
      expect(await walk(api, '/api/watchlist', other.headers)).toEqual([[]]);

      // Keywords: terms added together share their time and come in term order; the next
      // page keeps the list's own query (app and storefront).
      const app = 'https://apps.apple.com/us/app/id100000001';
      expect(
        (await post('/api/keywords', { appStoreUrl: app, terms: ['zeta', 'alpha', 'mu'] }))
          .statusCode,
      ).toBe(201);
      expect(
        (await post('/api/keywords', { appStoreUrl: app, terms: ['beta', 'omega'] })).statusCode,
      ).toBe(201);
      const termPages = await walk(
        api,
        '/api/keywords?appId=100000001&storefront=us',
        user.headers,
      );
      expect(idsOf(termPages, 'term')).toEqual(['alpha', 'mu', 'zeta', 'beta', 'omega']);
      const termFirst = await api.inject({
        method: 'GET',
        url: '/api/keywords?appId=100000001&storefront=us',
        headers: user.headers,
      });
      expect(nextPageFromLink(String(termFirst.headers.link))).toMatch(
        /^\/api\/keywords\?appId=100000001&storefront=us&limit=2&cursor=/,
      );

      // Share links: the body keeps its total and limit on every page.
      const auditId = await doneAudit(database.db, user);
      const links: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await post(`/api/audit/${auditId}/shares`, {});
        expect(res.statusCode, res.body).toBe(201);
        links.push(res.json<{ link: { id: string } }>().link.id);
      }
      const sharePages = await walk(api, '/api/shares', user.headers);
      expect(idsOf(sharePages)).toEqual([...links].reverse());
      const shareBody = await api.inject({
        method: 'GET',
        url: '/api/shares',
        headers: user.headers,
      });
      expect(shareBody.json()).toMatchObject({ total: 5, max: 50 });
      // One audit's links alone (the total stays the user's).
      const otherAudit = await doneAudit(database.db, user);
      const theOther = await post(`/api/audit/${otherAudit}/shares`, {});
      const ofOther = await walk(api, `/api/shares?auditId=${otherAudit}`, user.headers);
      expect(idsOf(ofOther)).toEqual([theOther.json<{ link: { id: string } }>().link.id]);
      expect(idsOf(await walk(api, `/api/shares?auditId=${auditId}`, user.headers))).toEqual(
        [...links].reverse(),
      );
      const filtered = await api.inject({
        method: 'GET',
        url: `/api/shares?auditId=${otherAudit}`,
        headers: user.headers,
      });
      expect(filtered.json()).toMatchObject({ total: 6 });
      const notAnId = await api.inject({
        method: 'GET',
        url: '/api/shares?auditId=nope',
        headers: user.headers,
      });
      expect(notAnId.statusCode).toBe(400);

      // Whether an audit is saved, however long the saved list.
      const save = await post('/api/saved-audits', { auditId, storefront: 'us' });
      expect(save.statusCode, save.body).toBe(200);
      const savedOf = (id: string, who = user) =>
        api.inject({ method: 'GET', url: `/api/saved-audits?auditId=${id}`, headers: who.headers });
      expect((await savedOf(auditId)).json()).toEqual([save.json()]);
      expect((await savedOf(otherAudit)).json()).toEqual([]);
      expect((await savedOf(auditId, other)).json()).toEqual([]);
      expect((await savedOf('not-an-id')).statusCode).toBe(400);

      // Notifications: five, one per snapshot, all stored in one statement (one time: the
      // id breaks the tie); the unread count is of all of them.
      const snapshots = await database.db
        .insertInto('app_snapshots')
        .values(
          [1, 2, 3, 4, 5].map((i) => ({
            app_id: '100000001',
            storefront: 'us',
            app_name: `Listing ${i}`,
            fetched_at: new Date(),
            source_layout: 'constructed',
            listing: JSON.stringify({}),
          })),
        )
        .returning('id')
        .execute();
      await insertNotifications(
        database.db,
        snapshots.map((s) => ({
          userId: user.userId,
          watchItemId: watched[0]!,
          snapshotId: String(s.id),
          appId: '100000001',
          storefront: 'us',
          appName: 'Listing',
          role: 'mine' as const,
          fields: ['title'],
          detectedAt: new Date(),
        })),
      );
      const notePages = await walk(api, '/api/notifications', user.headers);
      const expected = await database.db
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', user.userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      expect(idsOf(notePages)).toEqual(expected.map((n) => n.id));
      const notes = await api.inject({
        method: 'GET',
        url: '/api/notifications',
        headers: user.headers,
      });
      expect(notes.json<{ unread: number }>().unread).toBe(5);

      // App Store Connect connections.
      const connections: string[] = [];
      for (let i = 0; i < 4; i++) {
        const row = await insertAscConnection(database.db, {
          id: crypto.randomUUID(),
          userId: user.userId,
          name: `Key ${i}`,
          issuerId: '57246542-96fe-1a63-e053-0824d011072a',
          keyId: `KEY${i}ABCDEF`,
          privateKeySealed: 'constructed-not-a-seal',
          apps: [],
        });
        connections.push(row.id);
      }
      const connectionPages = await walk(api, '/api/asc/connections', user.headers);
      expect(new Set(idsOf(connectionPages))).toEqual(new Set(connections));
      expect(idsOf(connectionPages)).toHaveLength(4);

      // Strict page parameters on each list.
      for (const list of [
        '/api/watchlist',
        '/api/shares',
        '/api/notifications',
        '/api/asc/connections',
      ]) {
        const over = await api.inject({
          method: 'GET',
          url: `${list}?limit=4`,
          headers: user.headers,
        });
        expect(over.statusCode).toBe(400);
        expect(ZErrorBody.parse(over.json()).message).toBe(
          'limit: limit must be at most 3 (LIST_PAGE_MAX)',
        );
        const forged = await api.inject({
          method: 'GET',
          url: `${list}?cursor=${Buffer.from('yesterday|1').toString('base64url')}`,
          headers: user.headers,
        });
        expect(forged.statusCode).toBe(400);
      }
    } finally {
      await api.close();
    }
  });

  it('pages the admin lists: codes, users, cache, feedback and audit history', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, PAGES);
    try {
      const users: TTestUser[] = [];
      for (let i = 0; i < 5; i++) users.push(await createTestUser(database.db));
      // Audits and feedback stored in one statement each: equal times, ordered by id.
      const audits = await database.db
        .insertInto('audits')
        .values(
          users.map((u, i) => ({
            user_id: u.userId,
            app_id: `20000000${i}`,
            storefront: 'us',
            app_store_url: `https://apps.apple.com/us/app/id20000000${i}`,
            inputs: JSON.stringify({}),
          })),
        )
        .returning('id')
        .execute();
      await database.db
        .insertInto('feedback')
        .values(
          audits.map((a, i) => ({
            audit_id: a.id,
            user_id: users[i]!.userId,
            feedback: `Note ${i}`,
          })),
        )
        .execute();
      // Cached apps: two storefronts of one app read at the same moment, and other apps.
      const at = '2025-08-01T10:00:00Z';
      await database.db
        .insertInto('app_snapshots')
        .values(
          [
            ['300000001', 'us', at],
            ['300000001', 'gb', at],
            ['300000002', 'us', '2025-08-02T10:00:00Z'],
            ['300000003', 'de', '2025-07-30T10:00:00Z'],
            ['300000003', 'de', '2025-07-31T10:00:00Z'],
          ].map(([appId, storefront, fetchedAt]) => ({
            app_id: appId!,
            storefront: storefront!,
            app_name: 'Cached',
            fetched_at: fetchedAt!,
            source_layout: 'constructed',
            listing: JSON.stringify({}),
          })),
        )
        .execute();

      const byNewest = async (
        table: 'access_codes' | 'users' | 'feedback' | 'audits',
        where = sql`true`,
      ) =>
        (
          await sql<{ id: string }>`select id from ${sql.table(table)} where ${where}
            order by created_at desc, id desc`.execute(database.db)
        ).rows.map((r) => r.id);

      expect(idsOf(await walk(api, '/api/admin/codes', admin()))).toEqual(
        await byNewest('access_codes', sql`active`),
      );
      const userPages = await walk(api, '/api/admin/users', admin());
      expect(idsOf(userPages)).toEqual(await byNewest('users'));
      expect(userPages.flat()[0]).toMatchObject({
        storageBytes: 0,
        lockouts: 0,
        lastLockoutAt: null,
      });
      expect(idsOf(await walk(api, '/api/admin/feedbacks', admin()))).toEqual(
        await byNewest('feedback'),
      );
      expect(idsOf(await walk(api, '/api/admin/audit-history', admin()))).toEqual(
        await byNewest('audits'),
      );
      // (The file's other test cached a listing too.)
      const cache = (await walk(api, '/api/admin/cache', admin()))
        .flat()
        .filter((c) => String(c.appId).startsWith('3'));
      expect(cache.map((c) => `${String(c.appId)}:${String(c.storefront)}`)).toEqual([
        '300000002:us',
        '300000001:us',
        '300000001:gb',
        '300000003:de',
      ]);
      expect(cache[3]).toMatchObject({ snapshots: 2, lastFetchedAt: '2025-07-31T10:00:00.000Z' });

      const forged = await api.inject({
        method: 'GET',
        url: `/api/admin/cache?cursor=${Buffer.from('2025-08-01 10:00:00+00|not-a-key').toString('base64url')}`,
        headers: admin(),
      });
      expect(forged.statusCode).toBe(400);
      expect(ZErrorBody.parse(forged.json()).message).toBe('cursor is not one this server gave');
    } finally {
      await api.close();
    }
  });
  it("works on a user's list reads a few at a time, refusing a flood, while others are read", async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, { LIST_READS_PER_USER: '1' });
    try {
      const user = await createTestUser(database.db);
      const other = await createTestUser(database.db);
      const read = (who: TTestUser) =>
        api.inject({ method: 'GET', url: '/api/watchlist?limit=1', headers: who.headers });
      const flood = Promise.all(Array.from({ length: 150 }, () => read(user)));
      const theirs = await read(other);
      expect(theirs.statusCode).toBe(200);
      const answers = await flood;
      const refused = answers.filter((a) => a.statusCode === 429);
      // One at work, 50 waiting: the rest are refused at once, with a retry in a second.
      expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThanOrEqual(51);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.length + answers.filter((a) => a.statusCode === 200).length).toBe(150);
      expect(refused[0]!.headers['retry-after']).toBe('1');
      expect(ZErrorBody.parse(refused[0]!.json()).message).toBe(
        'Too many list reads at once. Please try again in 1 second.',
      );
      // Every slot was given back.
      expect((await read(user)).statusCode).toBe(200);
    } finally {
      await api.close();
    }
  });
});
