import { describe, expect, vi } from 'vitest';
import { finalizeAudit, insertAudit } from '@aso/db';
import { ZAudit, ZErrorBody, ZShareCreated, ZShareList } from '@aso/contracts';
import { createTestUser, type TTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { DELIVERY_MS, twoReplicas, type TReplica } from './replicas.helpers';
import { SPOTIFY_URL } from './audit.helpers';

// Share links through two api replicas over one database and Redis prefix: a link made on one
// opens on the other without a session, and a revocation through either answers 404 on both
// at once, although each keeps the links it read for an hour.

const call = (api: TReplica, path: string, init: RequestInit & { user?: TTestUser } = {}) =>
  fetch(`${api.url}${path}`, {
    ...init,
    headers: {
      ...(init.user?.headers ?? {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    signal: AbortSignal.timeout(10_000),
  });

/** A finished audit of `user` (a stored result, as the analyzer writes it). */
async function doneAudit(db: Parameters<typeof insertAudit>[0], user: TTestUser): Promise<string> {
  const row = await insertAudit(db, {
    userId: user.userId,
    accessCodeId: user.accessCodeId,
    appId: '324684580',
    storefront: 'us',
    appStoreUrl: SPOTIFY_URL,
    inputs: {},
  });
  expect(
    await finalizeAudit(db, row.id, { result: {}, appName: 'Spotify', provider: 'heuristic' }),
  ).toBe(true);
  return row.id;
}

async function share(api: TReplica, user: TTestUser, auditId: string, body: object = {}) {
  const res = await call(api, `/api/audit/${auditId}/shares`, {
    method: 'POST',
    user,
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ZShareCreated.parse(await res.json());
}

describe('share links across api replicas', () => {
  it('opens a link without a session on every replica and forgets it everywhere once revoked', async ({
    database,
    redis,
  }) => {
    const [a, b] = await twoReplicas(database, redis);
    try {
      const owner = await createTestUser(database.db, 'share-owner@example.com');
      const auditId = await doneAudit(database.db, owner);
      const created = await share(a, owner, auditId);
      // At least 128 random bits, base64url; the address is the shared page's.
      expect(Buffer.from(created.token, 'base64url').length).toBeGreaterThanOrEqual(16);
      expect(created.url).toBe(`${a.url}/s/${created.token}`);
      expect(created.link).toMatchObject({ auditId, appName: 'Spotify', expiresAt: null });
      expect(created.token.startsWith(created.link.prefix)).toBe(true);
      // Only the hash is stored.
      const stored = await database.db.selectFrom('share_links').selectAll().execute();
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(created.token);

      // Without a session, on both replicas: the audit as its owner reads it, marked noindex,
      // no cookie set.
      const own = await (await call(a, `/api/audit/${auditId}`, { user: owner })).json();
      for (const api of [a, b]) {
        const res = await call(api, `/api/shared/${created.token}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
        expect(res.headers.get('set-cookie')).toBeNull();
        expect(ZAudit.parse(await res.json())).toEqual(ZAudit.parse(own));
      }
      expect(b.app.readCaches.shareLinks.size).toBe(1);

      // The owner's list, on the other replica.
      const list = ZShareList.parse(
        await (await call(b, '/api/shares?limit=10', { user: owner })).json(),
      );
      expect(list.total).toBe(1);
      expect(list.items).toEqual([created.link]);

      // Revoked through A: 404 on B at once, its cached entry notwithstanding.
      const del = await call(a, `/api/shares/${created.token}`, { method: 'DELETE', user: owner });
      expect(del.status).toBe(204);
      expect((await call(a, `/api/shared/${created.token}`)).status).toBe(404);
      await vi.waitUntil(
        async () => (await call(b, `/api/shared/${created.token}`)).status === 404,
        {
          timeout: DELIVERY_MS,
        },
      );
      expect((await call(b, `/api/shared/${created.token}/report.pdf`)).status).toBe(404);
      const gone = ZShareList.parse(await (await call(a, '/api/shares', { user: owner })).json());
      expect(gone.total).toBe(0);
      // Revoking again, or by the list's id, finds nothing.
      expect(
        (await call(b, `/api/shares/${created.token}`, { method: 'DELETE', user: owner })).status,
      ).toBe(404);

      // A link revoked by its id works too.
      const second = await share(b, owner, auditId);
      expect((await call(a, `/api/shared/${second.token}`)).status).toBe(200);
      expect(
        (await call(b, `/api/shares/${second.link.id}`, { method: 'DELETE', user: owner })).status,
      ).toBe(204);
      await vi.waitUntil(
        async () => (await call(a, `/api/shared/${second.token}`)).status === 404,
        {
          timeout: DELIVERY_MS,
        },
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps links to their owner, honours expiry and the per-user limit', async ({
    database,
    redis,
  }) => {
    const [a, b] = await twoReplicas(database, redis, { SHARE_LINKS_MAX_PER_USER: '2' });
    try {
      const owner = await createTestUser(database.db, 'share-limit@example.com');
      const colleague = await createTestUser(database.db, 'share-colleague@example.com');
      const auditId = await doneAudit(database.db, owner);

      // A colleague with the private address is told to ask for a share link.
      const foreign = await call(a, `/api/audit/${auditId}`, { user: colleague });
      expect(foreign.status).toBe(404);
      const foreignBody = ZErrorBody.parse(await foreign.json());
      expect(foreignBody.reason).toBe('NOT_YOURS');
      expect(foreignBody.message).toMatch(/share link/);
      const unknown = await call(a, '/api/audit/00000000-0000-4000-8000-000000000000', {
        user: colleague,
      });
      expect(ZErrorBody.parse(await unknown.json()).reason).toBeUndefined();
      // ...and can neither share nor list nor revoke the owner's links.
      expect(
        (
          await call(a, `/api/audit/${auditId}/shares`, {
            method: 'POST',
            user: colleague,
            body: '{}',
          })
        ).status,
      ).toBe(404);

      const expiring = await share(a, owner, auditId, { expiresInDays: 7 });
      const days = (Date.parse(expiring.link.expiresAt!) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.99);
      expect(days).toBeLessThanOrEqual(7);
      expect(
        (await call(a, `/api/shares/${expiring.token}`, { method: 'DELETE', user: colleague }))
          .status,
      ).toBe(404);
      expect(
        ZShareList.parse(await (await call(a, '/api/shares', { user: colleague })).json()).total,
      ).toBe(0);

      // Bad expiry: a clear 400 naming the field.
      for (const expiresInDays of [0, 366, 1.5, 'soon']) {
        const bad = await call(a, `/api/audit/${auditId}/shares`, {
          method: 'POST',
          user: owner,
          body: JSON.stringify({ expiresInDays }),
        });
        expect(bad.status).toBe(400);
        const body = ZErrorBody.parse(await bad.json());
        expect(body.message).toMatch(/^Expires in days\b/);
        expect(body.field).toBe('expiresInDays');
      }

      // The limit: two live links; a third is refused with a 409 saying what to do.
      await share(b, owner, auditId);
      const third = await call(a, `/api/audit/${auditId}/shares`, {
        method: 'POST',
        user: owner,
        body: '{}',
      });
      expect(third.status).toBe(409);
      expect(ZErrorBody.parse(await third.json()).message).toMatch(/revoke one/);

      // An expired link answers 404 on both replicas (B kept it), and stops counting.
      expect((await call(b, `/api/shared/${expiring.token}`)).status).toBe(200);
      await database.db
        .updateTable('share_links')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', expiring.link.id)
        .execute();
      // (Written behind the api's back, so only A, which never read the link, sees it now.)
      expect((await call(a, `/api/shared/${expiring.token}`)).status).toBe(404);
      const alone = await call(a, '/api/shares?limit=1', { user: owner });
      expect(ZShareList.parse(await alone.json())).toMatchObject({ total: 1, max: 2 });
      expect(alone.headers.get('link')).toBeNull();
      const newest = await share(a, owner, auditId);
      // Pages of one, newest first, the next named by the Link header (on either replica).
      const first = await call(a, '/api/shares?limit=1', { user: owner });
      const firstPage = ZShareList.parse(await first.json());
      expect(firstPage).toMatchObject({ total: 2, items: [{ id: newest.link.id }] });
      const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
      expect(next).toMatch(/^\/api\/shares\?limit=1&cursor=/);
      const second = await call(b, next!, { user: owner });
      expect(ZShareList.parse(await second.json()).items.map((l) => l.id)).toHaveLength(1);
      expect(second.headers.get('link')).toBeNull();
      expect((await call(a, '/api/shares?limit=1000', { user: owner })).status).toBe(400);
      expect((await call(a, '/api/shares?cursor=nope', { user: owner })).status).toBe(400);
      expect((await call(a, '/api/shared/not a token')).status).toBe(400);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
