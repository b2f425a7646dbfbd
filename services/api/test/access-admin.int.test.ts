import { createHash } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import {
  ZAccessCode,
  ZAdminAuditsSummary,
  ZAdminFeedback,
  ZAuditHistoryItem,
  ZCachedApp,
  ZClearCacheAnswer,
  ZDeactivateCodeAnswer,
  ZDeleteAuditAnswer,
  ZGenerateCodeAnswer,
  ZSessionAnswer,
  ZStoreHealth,
} from '@aso/contracts';
import { insertStoreRead, type TDb } from '@aso/db';
import { it } from '@aso/testkit/vitest';
import { admin, bearer, credentials, expectError, generateCode, startApi } from './access.fixtures';

/** Every admin route, with a valid request for it (ids are well-formed but unknown). */
const ADMIN_ROUTES = [
  { method: 'GET', url: '/api/admin/codes' },
  { method: 'GET', url: '/api/admin/feedbacks' },
  { method: 'GET', url: '/api/admin/audit-history' },
  { method: 'GET', url: '/api/admin/audits' },
  { method: 'GET', url: '/api/admin/cache' },
  { method: 'GET', url: '/api/admin/store-health' },
  { method: 'POST', url: '/api/admin/generate-code', payload: { maxUses: 2 } },
  { method: 'DELETE', url: '/api/admin/codes/ZZZZ-ZZZZ-ZZZZ-ZZZZ' },
  { method: 'DELETE', url: '/api/admin/cache/app/123456789' },
  { method: 'DELETE', url: `/api/admin/audits/${randomUUID()}` },
] as const;

/** Inserts an audit row as the audit feature will (constructed test data). */
async function insertAudit(
  db: TDb,
  values: {
    appId: string;
    appName: string | null;
    createdAt: string;
    accessCodeId?: string | null;
    status?: 'queued' | 'running' | 'done' | 'failed';
    error?: string | null;
    /** An openai audit's rules version and tokens: [prompt, completion, calls]. */
    model?: { rulesVersion: string; tokens: [number, number, number] };
  },
): Promise<string> {
  const row = await db
    .insertInto('audits')
    .values({
      app_id: values.appId,
      storefront: 'us',
      app_store_url: `https://apps.apple.com/us/app/id${values.appId}`,
      app_name: values.appName,
      inputs: JSON.stringify({ appStoreUrl: `https://apps.apple.com/us/app/id${values.appId}` }),
      status: values.status ?? 'done',
      error: values.error ?? null,
      access_code_id: values.accessCodeId ?? null,
      created_at: values.createdAt,
      ...(values.model
        ? {
            provider: 'openai',
            rules_version: values.model.rulesVersion,
            prompt_tokens: values.model.tokens[0],
            completion_tokens: values.model.tokens[1],
            model_calls: values.model.tokens[2],
          }
        : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Hex SHA-256: how admin codes are stored. */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('admin API', () => {
  it('answers 403 on every admin route without a live admin code', async ({ database, redis }) => {
    const app = await startApi(database, redis);
    try {
      const normal = await generateCode(app);
      const user = ZSessionAnswer.parse(
        (await credentials(app, 'register', 'plain@example.com', normal.code)).json(),
      );
      // A second admin code, then deactivated: dead admin codes are refused too.
      const dead = { code: 'DEAD-ADM1-NC0D-E000' };
      await database.db
        .insertInto('access_codes')
        .values({ code_hash: sha256(dead.code), max_uses: 1, is_admin: true, active: false })
        .execute();
      const expiredAdmin = { code: 'OLD0-ADM1-NC0D-E000' };
      await database.db
        .insertInto('access_codes')
        .values({
          code_hash: sha256(expiredAdmin.code),
          max_uses: 1,
          is_admin: true,
          expires_at: new Date(Date.now() - 1000),
        })
        .execute();

      const callers: [string, Record<string, string>, string][] = [
        ['no credentials', {}, 'Admin access code required'],
        ["a normal user's token", bearer(user.sessionToken), 'Admin access code required'],
        ['a wrong admin code', admin('WRONG-CODE-0000'), 'Invalid admin code'],
        [
          'a normal access code',
          { ...bearer(user.sessionToken), ...admin(normal.code) },
          'Invalid admin code',
        ],
        ['a deactivated admin code', admin(dead.code), 'Invalid admin code'],
        ['an expired admin code', admin(expiredAdmin.code), 'Invalid admin code'],
      ];
      for (const route of ADMIN_ROUTES) {
        for (const [who, headers, message] of callers) {
          const res = await app.inject({ ...route, headers });
          expect(res.statusCode, `${route.method} ${route.url} with ${who}`).toBe(403);
          expect(expectError(res, 403, message).code).toBe('FORBIDDEN');
        }
      }
      // Nothing was changed by the refused calls.
      const codes = await database.db.selectFrom('access_codes').select('id').execute();
      expect(codes).toHaveLength(4);
      // The same bad input from a non-admin is refused before it is validated.
      expectError(
        await app.inject({
          method: 'POST',
          url: '/api/admin/generate-code',
          payload: { maxUses: 0 },
        }),
        403,
        'Admin access code required',
      );
    } finally {
      await app.close();
    }
  });

  it('generates, lists and deactivates access codes', async ({ database, redis }) => {
    const app = await startApi(database, redis);
    try {
      const plain = await generateCode(app);
      expect(plain).toMatchObject({
        max_uses: 3,
        uses: 0,
        is_admin: false,
        active: true,
        expires_at: null,
      });
      expect(plain.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);

      const before = Date.now();
      const weekly = await generateCode(app, { maxUses: '5', expiresIn: 7 });
      expect(weekly.max_uses).toBe(5);
      const expires = Date.parse(weekly.expires_at!);
      expect(expires).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000 + 1000);

      const bad: [unknown, RegExp][] = [
        [{ maxUses: 0 }, /^Max uses must be at least 1/],
        [{ maxUses: 1.5 }, /^Max uses must be a whole number/],
        [{ maxUses: 'many' }, /^Max uses must be a number/],
        [{ maxUses: 2, expiresIn: 0 }, /^Expires in must be at least 1 \(days\)/],
      ];
      for (const [payload, message] of bad) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/admin/generate-code',
          headers: admin(),
          payload: payload as object,
        });
        expectError(res, 400, message);
      }

      const list = await app.inject({ method: 'GET', url: '/api/admin/codes', headers: admin() });
      expect(list.statusCode).toBe(200);
      const codes = z.array(ZAccessCode).parse(list.json());
      // Newest first (earlier tests of this file made older codes); the bootstrap admin code is the oldest.
      expect(codes.slice(0, 2).map((c) => c.id)).toEqual([weekly.id, plain.id]);
      const created = codes.map((c) => Date.parse(c.created_at));
      expect(created).toEqual([...created].sort((x, y) => y - x));
      expect(codes.every((c) => c.active)).toBe(true);
      const bootstrap = codes.at(-1)!;
      // Admin codes are stored only as a hash: listed without their code.
      expect(bootstrap).toMatchObject({
        is_admin: true,
        active: true,
        code: null,
      });

      const del = await app.inject({
        method: 'DELETE',
        url: `/api/admin/codes/${plain.code}`,
        headers: admin(),
      });
      expect(del.statusCode, del.body).toBe(200);
      const deactivated = ZDeactivateCodeAnswer.parse(del.json());
      expect(deactivated).toMatchObject({
        success: true,
        revokedSessions: 0,
        code: { id: plain.id, active: false },
      });
      const after = z
        .array(ZAccessCode)
        .parse(
          (await app.inject({ method: 'GET', url: '/api/admin/codes', headers: admin() })).json(),
        );
      expect(after.map((c) => c.id)).toEqual(
        codes.filter((c) => c.id !== plain.id).map((c) => c.id),
      );

      expectError(
        await app.inject({
          method: 'DELETE',
          url: '/api/admin/codes/NOPE-NOPE-NOPE-NOPE',
          headers: admin(),
        }),
        404,
        'Access code not found',
      );
      // The admin code in use cannot deactivate itself.
      expectError(
        await app.inject({
          method: 'DELETE',
          url: `/api/admin/codes/${bootstrap.id}`,
          headers: admin(),
        }),
        409,
        'You cannot deactivate the admin code you are signed in with',
      );
      const [raw] = await database.db
        .selectFrom('access_codes')
        .select('active')
        .where('id', '=', bootstrap.id)
        .execute();
      expect(raw!.active).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('reads audit history, feedback, the audits summary and the cache from their tables', async ({
    database,
    redis,
  }) => {
    const app = await startApi(database, redis);
    try {
      const get = async (url: string) => {
        const res = await app.inject({ method: 'GET', url, headers: admin() });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<unknown>();
      };
      // Empty tables: empty lists.
      expect(z.array(ZAuditHistoryItem).parse(await get('/api/admin/audit-history'))).toEqual([]);
      expect(z.array(ZAdminFeedback).parse(await get('/api/admin/feedbacks'))).toEqual([]);
      expect(z.array(ZCachedApp).parse(await get('/api/admin/cache'))).toEqual([]);
      // The file's other tests made codes too: count the active ones as the table holds them.
      const activeCodes = async () =>
        Number(
          (
            await database.db
              .selectFrom('access_codes')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('active', '=', true)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(ZAdminAuditsSummary.parse(await get('/api/admin/audits'))).toEqual({
        totalAudits: 0,
        uniqueApps: 0,
        activeCodes: await activeCodes(),
        feedbackEntries: 0,
        apps: [],
      });

      const userCode = await generateCode(app);
      const adminRow = await database.db
        .selectFrom('access_codes')
        .select('id')
        .where('is_admin', '=', true)
        .executeTakeFirstOrThrow();
      const a1 = await insertAudit(database.db, {
        appId: '111',
        appName: null,
        createdAt: '2025-08-01T10:00:00Z',
        accessCodeId: userCode.id,
        status: 'failed',
        error: 'The App Store did not answer',
      });
      const a2 = await insertAudit(database.db, {
        appId: '111',
        appName: 'Alpha',
        createdAt: '2025-08-02T10:00:00Z',
        accessCodeId: adminRow.id,
      });
      const a3 = await insertAudit(database.db, {
        appId: '222',
        appName: 'Beta',
        createdAt: '2025-08-03T10:00:00Z',
        model: { rulesVersion: '2.0.0', tokens: [1200, 300, 4] },
      });

      const history = z.array(ZAuditHistoryItem).parse(await get('/api/admin/audit-history'));
      expect(history).toEqual([
        {
          id: a3,
          appName: 'Beta',
          appStoreUrl: 'https://apps.apple.com/us/app/id222',
          accessCode: null,
          isAdminCode: false,
          status: 'done',
          error: null,
          createdAt: '2025-08-03T10:00:00.000Z',
          provider: 'openai',
          rulesVersion: '2.0.0',
          tokens: { prompt: 1200, completion: 300, calls: 4 },
        },
        {
          id: a2,
          appName: 'Alpha',
          appStoreUrl: 'https://apps.apple.com/us/app/id111',
          accessCode: null, // admin codes are stored only as a hash
          isAdminCode: true,
          status: 'done',
          error: null,
          createdAt: '2025-08-02T10:00:00.000Z',
          provider: null,
          rulesVersion: null,
          tokens: null,
        },
        {
          id: a1,
          appName: null,
          appStoreUrl: 'https://apps.apple.com/us/app/id111',
          accessCode: userCode.code,
          isAdminCode: false,
          status: 'failed',
          error: 'The App Store did not answer',
          createdAt: '2025-08-01T10:00:00.000Z',
          provider: null,
          rulesVersion: null,
          tokens: null,
        },
      ]);

      expect(ZAdminAuditsSummary.parse(await get('/api/admin/audits'))).toEqual({
        totalAudits: 3,
        uniqueApps: 2,
        activeCodes: await activeCodes(),
        feedbackEntries: 0,
        apps: [
          {
            appId: '222',
            appName: 'Beta',
            auditCount: 1,
            audits: [{ id: a3, createdAt: '2025-08-03T10:00:00.000Z' }],
          },
          {
            appId: '111',
            appName: 'Alpha',
            auditCount: 2,
            audits: [
              { id: a2, createdAt: '2025-08-02T10:00:00.000Z' },
              { id: a1, createdAt: '2025-08-01T10:00:00.000Z' },
            ],
          },
        ],
      });

      const f1 = await database.db
        .insertInto('feedback')
        .values({ audit_id: a2, feedback: 'Useful', created_at: '2025-08-04T00:00:00Z' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const f2 = await database.db
        .insertInto('feedback')
        .values({ audit_id: a1, feedback: 'Too slow', created_at: '2025-08-05T00:00:00Z' })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(z.array(ZAdminFeedback).parse(await get('/api/admin/feedbacks'))).toEqual([
        {
          id: f2.id,
          auditId: a1,
          feedback: 'Too slow',
          appName: null,
          createdAt: '2025-08-05T00:00:00.000Z',
        },
        {
          id: f1.id,
          auditId: a2,
          feedback: 'Useful',
          appName: 'Alpha',
          createdAt: '2025-08-04T00:00:00.000Z',
        },
      ]);

      const snap = (appId: string, storefront: string, appName: string | null, fetchedAt: string) =>
        database.db
          .insertInto('app_snapshots')
          .values({
            app_id: appId,
            storefront,
            app_name: appName,
            fetched_at: fetchedAt,
            source_layout: 'constructed',
            listing: JSON.stringify({}),
          })
          .execute();
      await snap('111', 'us', 'Alpha', '2025-08-01T00:00:00Z');
      await snap('111', 'us', null, '2025-08-06T00:00:00Z');
      await snap('111', 'gb', 'Alpha UK', '2025-08-02T00:00:00Z');
      await snap('222', 'us', 'Beta', '2025-08-03T00:00:00Z');
      expect(z.array(ZCachedApp).parse(await get('/api/admin/cache'))).toEqual([
        {
          appId: '111',
          storefront: 'us',
          appName: 'Alpha',
          snapshots: 2,
          lastFetchedAt: '2025-08-06T00:00:00.000Z',
        },
        {
          appId: '222',
          storefront: 'us',
          appName: 'Beta',
          snapshots: 1,
          lastFetchedAt: '2025-08-03T00:00:00.000Z',
        },
        {
          appId: '111',
          storefront: 'gb',
          appName: 'Alpha UK',
          snapshots: 1,
          lastFetchedAt: '2025-08-02T00:00:00.000Z',
        },
      ]);

      const clear = await app.inject({
        method: 'DELETE',
        url: '/api/admin/cache/app/111',
        headers: admin(),
      });
      expect(clear.statusCode).toBe(200);
      expect(ZClearCacheAnswer.parse(clear.json())).toEqual({ appId: '111', cleared: 3 });
      expect(
        z
          .array(ZCachedApp)
          .parse(await get('/api/admin/cache'))
          .map((c) => c.appId),
      ).toEqual(['222']);
      const again = await app.inject({
        method: 'DELETE',
        url: '/api/admin/cache/app/111',
        headers: admin(),
      });
      expect(ZClearCacheAnswer.parse(again.json())).toEqual({ appId: '111', cleared: 0 });
      expectError(
        await app.inject({ method: 'DELETE', url: '/api/admin/cache/app/abc', headers: admin() }),
        400,
        /^App ID: app id must be digits/,
      );

      const del = await app.inject({
        method: 'DELETE',
        url: `/api/admin/audits/${a2}`,
        headers: admin(),
      });
      expect(del.statusCode).toBe(200);
      expect(ZDeleteAuditAnswer.parse(del.json())).toEqual({
        success: true,
        deletedAudit: { id: a2, appName: 'Alpha' },
      });
      expect(
        z
          .array(ZAuditHistoryItem)
          .parse(await get('/api/admin/audit-history'))
          .map((h) => h.id),
      ).toEqual([a3, a1]);
      // Its feedback went with it.
      expect(
        z
          .array(ZAdminFeedback)
          .parse(await get('/api/admin/feedbacks'))
          .map((f) => f.id),
      ).toEqual([f2.id]);
      expectError(
        await app.inject({ method: 'DELETE', url: `/api/admin/audits/${a2}`, headers: admin() }),
        404,
        'Audit not found',
      );
      expectError(
        await app.inject({
          method: 'DELETE',
          url: '/api/admin/audits/not-a-uuid',
          headers: admin(),
        }),
        400,
        /^id: /,
      );
    } finally {
      await app.close();
    }
  });

  it('reads the store data health of the last 24 hours from the store reads', async ({
    database,
    redis,
  }) => {
    const app = await startApi(database, redis);
    try {
      const get = async () => {
        const res = await app.inject({
          method: 'GET',
          url: '/api/admin/store-health',
          headers: admin(),
        });
        expect(res.statusCode, res.body).toBe(200);
        return ZStoreHealth.parse(res.json());
      };
      const empty = await get();
      expect(empty).toMatchObject({ hours: 24, reads: 0, byLayout: [], fields: [], failures: [] });
      // CONSTRUCTED reads, as the scraper records them.
      const base = { storefront: 'kr', appName: 'App', pageStatus: 'ok', error: null };
      await insertStoreRead(database.db, {
        ...base,
        appId: '1',
        layout: '2025',
        foundFields: ['appName', 'category'],
        missingFields: ['rating'],
      });
      await insertStoreRead(database.db, {
        ...base,
        appId: '2',
        layout: '2025',
        foundFields: ['appName', 'category', 'rating'],
        missingFields: [],
      });
      await insertStoreRead(database.db, {
        ...base,
        appId: '3',
        storefront: 'jp',
        appName: null,
        layout: 'unknown',
        pageStatus: 'failed',
        foundFields: [],
        missingFields: ['appName', 'category', 'rating'],
        error: 'product page: Unknown App Store page layout',
      });
      const health = await get();
      expect(health.reads).toBe(3);
      expect(health.byLayout).toEqual([
        { layout: '2025', reads: 2 },
        { layout: 'unknown', reads: 1 },
      ]);
      expect(health.fields).toEqual([
        { field: 'appName', found: 2, expected: 3, share: 0.667 },
        { field: 'category', found: 2, expected: 3, share: 0.667 },
        { field: 'rating', found: 1, expected: 3, share: 0.333 },
      ]);
      expect(health.failures).toEqual([
        expect.objectContaining({
          appId: '3',
          storefront: 'jp',
          layout: 'unknown',
          error: 'product page: Unknown App Store page layout',
          missingFields: ['appName', 'category', 'rating'],
        }),
      ]);
    } finally {
      await app.close();
    }
  });

  it('generate-code accepts an empty body and defaults to 3 uses', async ({ database, redis }) => {
    const app = await startApi(database, redis);
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/generate-code',
        headers: admin(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(ZGenerateCodeAnswer.parse(res.json()).code).toMatchObject({
        max_uses: 3,
        expires_at: null,
      });
    } finally {
      await app.close();
    }
  });
});
