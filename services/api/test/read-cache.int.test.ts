import { describe, expect, vi } from 'vitest';
import { failAudit, hashSessionToken, insertAudit, revokeSession } from '@aso/db';
import { CACHE_SCOPES, createRedis, publishInvalidation } from '@aso/queue';
import { ZAudit, ZCheckUserAnswer, ZSavedAudit } from '@aso/contracts';
import { createTestUser, type TTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { ADMIN_CODE } from './access.fixtures';
import { DELIVERY_MS, twoReplicas, type TReplica } from './replicas.helpers';

// Two api replicas (real Fastify apps listening on their own ports) over one database and one
// Redis prefix, as `docker compose --scale api=2` runs them. Each keeps sessions, finished
// audits and the page-load lists in memory; a write through either must be seen by the other
// at once, whatever the cache's lifetime (an hour here, so only the invalidation can explain
// a changed answer).

const get = (api: TReplica, path: string, headers: Record<string, string>) =>
  fetch(`${api.url}${path}`, { headers, signal: AbortSignal.timeout(10_000) });

/** Status of `GET /api/me` on `api` with the user's token. */
const me = async (api: TReplica, user: TTestUser) =>
  (await get(api, '/api/me', user.headers)).status;

describe('read caches shared by api replicas', () => {
  it('forgets a session on every replica at logout and at code deactivation', async ({
    database,
    redis,
  }) => {
    const [a, b] = await twoReplicas(database, redis);
    try {
      const user = await createTestUser(database.db, 'replica-logout@example.com');
      expect(await me(a, user)).toBe(200);
      expect(await me(b, user)).toBe(200);
      // B answers from its cache: a revocation written behind the api's back is not seen...
      await database.db
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('token_hash', '=', hashSessionToken(user.token))
        .execute();
      expect(await me(b, user)).toBe(200);

      // ...but a logout through A is, on B too, without waiting for the entry's lifetime.
      const out = await fetch(`${a.url}/api/logout`, {
        method: 'POST',
        headers: user.headers,
        signal: AbortSignal.timeout(10_000),
      });
      expect(out.status).toBe(200);
      expect(await me(a, user)).toBe(401);
      await vi.waitUntil(async () => (await me(b, user)) === 401, { timeout: DELIVERY_MS });
      const access = ZCheckUserAnswer.parse(
        await (await get(b, '/api/check-access', user.headers)).json(),
      );
      expect(access).toEqual({ isUser: false, user: null });

      // A deactivated access code locks its users out of both replicas.
      const other = await createTestUser(database.db, 'replica-deactivated@example.com');
      expect(await me(a, other)).toBe(200);
      expect(await me(b, other)).toBe(200);
      const off = await fetch(`${a.url}/api/admin/codes/${other.accessCodeId}`, {
        method: 'DELETE',
        headers: { 'x-access-code': ADMIN_CODE },
        signal: AbortSignal.timeout(10_000),
      });
      expect(off.status, await off.text()).toBe(200);
      expect(await me(a, other)).toBe(401);
      await vi.waitUntil(async () => (await me(b, other)) === 401, { timeout: DELIVERY_MS });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('forgets a session another process revoked once that process says so (the render worker)', async ({
    database,
    redis,
  }) => {
    const [a, b] = await twoReplicas(database, redis);
    const worker = createRedis(redis.url, { role: 'producer', name: 'test:render-commands' });
    try {
      const user = await createTestUser(database.db, 'replica-render@example.com');
      expect(await me(a, user)).toBe(200);
      expect(await me(b, user)).toBe(200);
      const tokenHash = hashSessionToken(user.token);
      await revokeSession(database.db, tokenHash, new Date());
      expect(await me(b, user)).toBe(200);
      await publishInvalidation(worker, redis.prefix, CACHE_SCOPES.session, tokenHash);
      await vi.waitUntil(async () => (await me(a, user)) === 401, { timeout: DELIVERY_MS });
      await vi.waitUntil(async () => (await me(b, user)) === 401, { timeout: DELIVERY_MS });
    } finally {
      worker.disconnect();
      await a.close();
      await b.close();
    }
  });

  it('shows a save through one replica in the other one’s list, and an admin deletion', async ({
    database,
    redis,
  }) => {
    const [a, b] = await twoReplicas(database, redis);
    try {
      const user = await createTestUser(database.db, 'replica-lists@example.com');
      const row = await insertAudit(database.db, {
        userId: user.userId,
        accessCodeId: user.accessCodeId,
        appId: '324684580',
        storefront: 'us',
        appStoreUrl: 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580',
        inputs: {},
      });
      expect(await failAudit(database.db, row.id, 'The App Store did not answer')).toBe(true);

      const list = async (api: TReplica) =>
        ZSavedAudit.array().parse(await (await get(api, '/api/saved-audits', user.headers)).json());
      expect(await list(b)).toEqual([]);
      const saved = await fetch(`${a.url}/api/saved-audits`, {
        method: 'POST',
        headers: { ...user.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ auditId: row.id, storefront: 'us' }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(saved.status, await saved.text()).toBe(200);
      await vi.waitUntil(async () => (await list(b)).length === 1, { timeout: DELIVERY_MS });

      // The finished audit is kept by B, compressed once, for its owner only.
      const audit = await get(b, `/api/audit/${row.id}`, user.headers);
      const plain = ZAudit.parse(await audit.json());
      expect(plain).toMatchObject({ id: row.id, status: 'failed' });
      expect(b.app.readCaches.audits.size).toBe(1);
      const packed = await get(b, `/api/audit/${row.id}`, {
        ...user.headers,
        'accept-encoding': 'gzip, deflate, br',
      });
      expect(packed.headers.get('content-encoding')).toBe('br');
      expect(packed.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(await packed.json()).toEqual(plain);
      const stranger = await createTestUser(database.db, 'replica-stranger@example.com');
      expect((await get(b, `/api/audit/${row.id}`, stranger.headers)).status).toBe(404);

      // An admin deletes it through A: gone from B's reads and from the list.
      const del = await fetch(`${a.url}/api/admin/audits/${row.id}`, {
        method: 'DELETE',
        headers: { 'x-access-code': ADMIN_CODE },
        signal: AbortSignal.timeout(10_000),
      });
      expect(del.status, await del.text()).toBe(200);
      await vi.waitUntil(
        async () => (await get(b, `/api/audit/${row.id}`, user.headers)).status === 404,
        { timeout: DELIVERY_MS },
      );
      expect(await list(b)).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps nothing while invalidations cannot arrive', async ({ database, redis }) => {
    const [a, b] = await twoReplicas(database, redis);
    try {
      const user = await createTestUser(database.db, 'replica-down@example.com');
      // A never read it: only B's state matters here.
      b.app.cacheBus.close();
      expect(b.app.cacheBus.live).toBe(false);
      expect(await me(b, user)).toBe(200);
      expect(b.app.readCaches.sessions.size).toBe(0);
      // Every read goes to the database: a revocation is seen at once.
      await database.db
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('token_hash', '=', hashSessionToken(user.token))
        .execute();
      expect(await me(b, user)).toBe(401);
      expect(await me(a, user)).toBe(401);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
