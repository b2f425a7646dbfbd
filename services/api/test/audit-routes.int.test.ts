import { describe, expect, vi } from 'vitest';
import { createTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { ANALYZE_URL_ERROR, ZAudit, type TBusEvent } from '@aso/contracts';
import { createRedis, ProgressBus, Producers } from '@aso/queue';
import { readSse, type TSseMessage } from '@aso/api-client';
import { appStep, at, step } from './bus-event.builders';
import {
  analyze,
  INSTAGRAM_URL,
  readProgress,
  SPOTIFY_URL,
  startApi,
  TIKTOK_URL,
  type TEvent,
} from './audit.helpers';

const ADMIN_CODE = 'ADMN-TEST-CODE-0001';

describe('POST /api/analyze', () => {
  it('validates, stores the audit and adds one flow without waiting; rate-limited per user', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, { ANALYZE_RATE_LIMIT_PER_MIN: '3' });
    const queueConn = createRedis(redis.url, { role: 'worker' });
    try {
      const a = await createTestUser(database.db, 'a@example.com');
      const post = (
        payload: Record<string, unknown>,
        headers: Record<string, string> = a.headers,
      ) => api.app.inject({ method: 'POST', url: '/api/analyze', headers, payload });

      expect((await post({ appStoreUrl: SPOTIFY_URL }, {})).statusCode).toBe(401);

      const bad = await post({ appStoreUrl: 'https://example.com/app/id1' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({
        message: `App Store link: ${ANALYZE_URL_ERROR}`,
        code: 'BAD_REQUEST',
        field: 'appStoreUrl',
      });
      expect((await post({ appStoreUrl: '' })).json<{ message: string }>().message).toBe(
        `App Store link: ${ANALYZE_URL_ERROR}`,
      );
      expect(
        (await post({ appStoreUrl: 'https://apps.apple.com/us/app/spotify' })).json<{
          message: string;
        }>().message,
      ).toBe(`App Store link: ${ANALYZE_URL_ERROR}`);
      const badStorefront = await post({ appStoreUrl: 'https://apps.apple.com/uk/app/x/id1' });
      expect(badStorefront.statusCode).toBe(400);
      expect(badStorefront.json<{ message: string }>().message).toBe(
        'App Store link: "uk" is not an App Store storefront (use a two-letter country code of the App Store, such as us, gb or jp)',
      );
      expect(
        (
          await post({
            appStoreUrl: SPOTIFY_URL,
            competitorUrl1: 'https://apps.apple.com/xx/app/id2',
          })
        ).json<{ message: string }>().message,
      ).toMatch(/^Competitor 1 link: "xx" is not an App Store storefront/);
      const badCompetitor = await post({ appStoreUrl: SPOTIFY_URL, competitorUrl2: 'not a url' });
      expect(badCompetitor.json<{ message: string }>().message).toBe(
        `Competitor 2 link: ${ANALYZE_URL_ERROR}`,
      );
      const longKeywords = await post({ appStoreUrl: SPOTIFY_URL, keywords: 'k'.repeat(101) });
      expect(longKeywords.statusCode).toBe(400);
      expect(longKeywords.json<{ message: string }>().message).toMatch(
        /^Keywords must be at most 100 characters/,
      );
      // Validation failures happen before the per-user limit counts. A link without its
      // scheme, as people paste it, is accepted and normalised.
      const ok = await post({
        appStoreUrl: SPOTIFY_URL.replace(/^https:\/\//, ''),
        keywords: 'k'.repeat(100),
        competitorUrl1: INSTAGRAM_URL,
        competitorUrl2: 'https://apps.apple.com/gb/app/x/ID389801252',
        competitorUrl3: TIKTOK_URL,
      });
      expect(ok.statusCode).toBe(200);
      const { id } = ok.json<{ id: string }>();

      const row = await database.db
        .selectFrom('audits')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        status: 'queued',
        user_id: a.userId,
        access_code_id: a.accessCodeId,
        app_id: '324684580',
        storefront: 'us',
        app_store_url:
          'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580?platform=iphone',
      });
      expect(row.inputs).toEqual({
        main: {
          appId: '324684580',
          storefront: 'us',
          appStoreUrl:
            'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580?platform=iphone',
        },
        competitors: [
          {
            appId: '389801252',
            storefront: 'us',
            appStoreUrl: 'https://apps.apple.com/us/app/instagram/id389801252?platform=iphone',
          },
          {
            appId: '835599320',
            storefront: 'us',
            appStoreUrl: 'https://apps.apple.com/us/app/tiktok/id835599320?platform=iphone',
          },
        ],
        keywords: 'k'.repeat(100),
      });

      // One flow: the analysis parent waits for one scrape child per app (no worker runs here).
      const producers = new Producers(queueConn, redis.prefix);
      const analysis = producers.queue('analysis');
      const scrape = producers.queue('scrape');
      const parent = await analysis.getJob(`${id}:analysis:all`);
      expect(parent?.data).toEqual({ auditId: id });
      expect(await parent?.getState()).toBe('waiting-children');
      const deps = await parent!.getDependencies();
      expect(
        Object.keys(deps.unprocessed ?? {}).length + (deps.unprocessed?.length ?? 0),
      ).toBeGreaterThan(0);
      const children = await Promise.all(
        ['324684580', '389801252', '835599320'].map((app) => scrape.getJob(`${id}:scrape:${app}`)),
      );
      expect(children.map((c) => (c?.data as { role?: string } | undefined)?.role)).toEqual([
        'main',
        'competitor',
        'competitor',
      ]);
      expect(children.map((c) => c?.opts.failParentOnFailure)).toEqual([true, true, true]);
      expect(children[1]?.data).toEqual({
        auditId: id,
        appId: '389801252',
        storefront: 'us',
        role: 'competitor',
        appStoreUrl: 'https://apps.apple.com/us/app/instagram/id389801252?platform=iphone',
      });
      expect(await scrape.count()).toBe(3);
      await analysis.close();
      await scrape.close();

      expect((await post({ appStoreUrl: SPOTIFY_URL })).statusCode).toBe(200);
      expect((await post({ appStoreUrl: SPOTIFY_URL })).statusCode).toBe(200);
      const limited = await post({ appStoreUrl: SPOTIFY_URL });
      expect(limited.statusCode).toBe(429);
      expect(limited.json<{ code: string; retryAfter: number }>()).toMatchObject({
        code: 'RATE_LIMITED',
      });
      // The limit is per user: someone else may still start audits.
      const b = await createTestUser(database.db, 'b@example.com');
      expect((await post({ appStoreUrl: SPOTIFY_URL }, b.headers)).statusCode).toBe(200);
    } finally {
      queueConn.disconnect();
      await api.close();
    }
  });
});

describe('audits, saved audits and feedback belong to their owner', () => {
  it('answers 404 to another user for the audit, its progress, saved audit and feedback', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, { ADMIN_ACCESS_CODE: ADMIN_CODE });
    try {
      const a = await createTestUser(database.db, 'owner@example.com');
      const b = await createTestUser(database.db, 'other@example.com');
      const inject = (
        method: 'GET' | 'POST' | 'DELETE',
        url: string,
        user: { headers: Record<string, string> },
        payload?: unknown,
      ) =>
        api.app.inject({
          method,
          url,
          headers: user.headers,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
      const { id } = (
        await inject('POST', '/api/analyze', a, {
          appStoreUrl: SPOTIFY_URL,
          keywords: 'music,radio',
        })
      ).json<{ id: string }>();

      // The owner reads the queued audit in the documented shape.
      const own = await inject('GET', `/api/audit/${id}`, a);
      expect(own.statusCode).toBe(200);
      const audit = ZAudit.parse(own.json());
      expect(audit).toMatchObject({
        id,
        status: 'queued',
        appName: null,
        keywords: 'music,radio',
        structuredAnalysis: null,
        screenshots: [],
      });

      for (const [method, url, payload] of [
        ['GET', `/api/audit/${id}`],
        ['GET', `/api/progress?auditId=${id}`],
        ['POST', '/api/saved-audits', { auditId: id, name: 'x', storefront: 'us' }],
        ['POST', '/api/feedback', { auditId: id, feedback: 'nice' }],
        ['GET', `/api/feedback/${id}`],
      ] as const) {
        const res = await inject(method, url, b, payload);
        expect([method, url, res.statusCode]).toEqual([method, url, 404]);
      }
      expect((await inject('GET', '/api/audit/not-a-uuid', a)).statusCode).toBe(404);
      expect(
        (await inject('GET', '/api/audit/00000000-0000-4000-8000-000000000000', a)).statusCode,
      ).toBe(404);
      expect((await api.app.inject({ method: 'GET', url: `/api/audit/${id}` })).statusCode).toBe(
        401,
      );
      // An admin code reads any audit (history); a wrong one is refused.
      const admin = await api.app.inject({
        method: 'GET',
        url: `/api/audit/${id}`,
        headers: { 'x-access-code': ADMIN_CODE },
      });
      expect(admin.statusCode).toBe(200);
      expect(admin.json<{ id: string }>().id).toBe(id);
      expect(
        (
          await api.app.inject({
            method: 'GET',
            url: `/api/audit/${id}`,
            headers: { 'x-access-code': 'WRNG-CODE-0000-0000' },
          })
        ).statusCode,
      ).toBe(403);

      // Saved audits: saved once per audit (saving again answers the saved one), a blank name
      // is built, someone else's is 404.
      const s1 = await inject('POST', '/api/saved-audits', a, {
        auditId: id,
        name: '  My audit  ',
        storefront: 'US',
      });
      expect(s1.statusCode).toBe(200);
      expect(s1.json()).toMatchObject({ auditId: id, name: 'My audit', storefront: 'us' });
      const again = await inject('POST', '/api/saved-audits', a, {
        auditId: id,
        name: '',
        storefront: 'gb',
      });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(s1.json());
      expect((await inject('GET', '/api/saved-audits', a)).json<unknown[]>()).toHaveLength(1);
      expect(
        (
          await inject('POST', '/api/saved-audits', a, {
            auditId: id,
            name: 'x',
            storefront: 'usa',
          })
        ).statusCode,
      ).toBe(400);
      expect((await inject('GET', '/api/saved-audits', b)).json()).toEqual([]);
      const s1Id = s1.json<{ id: string }>().id;
      expect((await inject('DELETE', `/api/saved-audits/${s1Id}`, b)).statusCode).toBe(404);
      expect((await inject('DELETE', `/api/saved-audits/${s1Id}`, a)).statusCode).toBe(204);
      expect((await inject('DELETE', `/api/saved-audits/${s1Id}`, a)).statusCode).toBe(404);
      const s2 = await inject('POST', '/api/saved-audits', a, {
        auditId: id,
        name: '',
        storefront: 'gb',
      });
      const now = new Date();
      const dd = String(now.getDate()).padStart(2, '0');
      const mm = String(now.getMonth() + 1).padStart(2, '0');
      expect(s2.json<{ name: string }>().name).toBe(
        `App 324684580 GB ${dd}-${mm}-${now.getFullYear()}`,
      );
      expect(
        (await inject('GET', '/api/saved-audits', a))
          .json<Array<{ id: string }>>()
          .map((x) => x.id),
      ).toEqual([s2.json<{ id: string }>().id]);

      // Feedback: trimmed, non-empty, at most 5000 characters, owner only.
      const fb = await inject('POST', '/api/feedback', a, {
        auditId: id,
        feedback: '  Very useful  ',
      });
      expect(fb.statusCode).toBe(200);
      expect(fb.json()).toMatchObject({ auditId: id, feedback: 'Very useful' });
      const empty = await inject('POST', '/api/feedback', a, { auditId: id, feedback: '   ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json<{ message: string }>().message).toBe(
        'Feedback: Please enter your feedback before submitting.',
      );
      // Past FEEDBACK_MAX_CHARS (default 5,000): 413 naming the setting.
      const long = await inject('POST', '/api/feedback', a, {
        auditId: id,
        feedback: 'x'.repeat(5001),
      });
      expect(long.statusCode).toBe(413);
      expect(long.json<{ message: string }>().message).toBe(
        'Feedback is 5001 characters; the limit is 5000 (FEEDBACK_MAX_CHARS)',
      );
      expect(
        (await inject('POST', '/api/feedback', a, { auditId: id, feedback: 'x'.repeat(5000) }))
          .statusCode,
      ).toBe(200);
      const feedback = (await inject('GET', `/api/feedback/${id}`, a)).json<
        Array<{ feedback: string }>
      >();
      expect(feedback.map((f) => f.feedback)).toEqual(['Very useful', 'x'.repeat(5000)]);

      expect(
        (await inject('POST', '/api/progress/complete', a, { sessionId: 'session-123' }))
          .statusCode,
      ).toBe(204);
      expect((await inject('POST', '/api/progress/complete', a, {})).statusCode).toBe(400);
    } finally {
      await api.close();
    }
  });
});

describe('GET /api/progress (SSE relay of recorded events)', () => {
  it('aggregates app steps, resumes with Last-Event-ID exactly once, heartbeats and closes after complete', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    const conn = createRedis(redis.url, { role: 'producer' });
    const bus = new ProgressBus(conn, { prefix: redis.prefix });
    try {
      const a = await createTestUser(database.db, 'sse@example.com');
      const id = await analyze(api, a, { appStoreUrl: SPOTIFY_URL, competitorUrl1: INSTAGRAM_URL });
      const S = '324684580';
      const I = '389801252';
      const events: TBusEvent[] = [
        appStep(S, 'url_validation', 'in_progress', 0),
        appStep(I, 'url_validation', 'in_progress', 0),
        appStep(S, 'url_validation', 'done', 1),
        appStep(I, 'url_validation', 'done', 2),
        appStep(S, 'cache_check', 'done', 3, { cacheHit: true }),
        appStep(I, 'cache_check', 'done', 3, { cacheHit: false }),
        appStep(S, 'scrape', 'in_progress', 4),
        appStep(S, 'scrape', 'done', 5),
        // A retried job reports a finished step again: nothing new for the client.
        appStep(S, 'scrape', 'in_progress', 6),
        appStep(I, 'scrape', 'done', 7),
        // Instagram skipped the remaining scrape steps: the analysis closes them.
        step('ai_screenshot_analysis', 'in_progress', 8),
        step('ai_screenshot_analysis', 'done', 9),
      ];
      for (const e of events) await bus.append(id, e);

      // Live: the first reader sees the replay, then stays open (heartbeats) until complete.
      let heartbeat!: () => void;
      const heartbeatSeen = new Promise<void>((r) => (heartbeat = r));
      const first = readProgress(api, a, id, {
        timeoutMs: 20_000,
        onComment: (c) => c.includes('heartbeat') && heartbeat(),
      });
      // The stream stays open between events: the client gets a heartbeat before the rest.
      await heartbeatSeen;
      await bus.append(id, step('finalize', 'done', 10));
      await bus.append(id, { type: 'complete', auditId: id, emittedAt: 2 });
      await bus.append(id, step('done', 'done', 11)); // after complete: never sent
      const all = await first;
      expect(all.comments.filter((c) => c.includes('heartbeat')).length).toBeGreaterThanOrEqual(1);
      const summary = (e: TEvent) =>
        e.event === 'step'
          ? `${String(e.json.step_id)}:${String(e.json.status)}:${String(e.json.message)}`
          : e.event;
      expect(all.events.map(summary)).toEqual([
        'url_validation:in_progress:Validated 0 of 2 apps',
        'url_validation:in_progress:Validated 1 of 2 apps',
        'url_validation:done:Validated 2 of 2 apps',
        'cache_check:in_progress:Checked the cache for 1 of 2 apps: 1 cache hit',
        'cache_check:done:Checked the cache for 2 of 2 apps: 1 cache hit',
        'scrape:in_progress:Scraped 0 of 2 apps',
        'scrape:in_progress:Scraped 1 of 2 apps',
        'scrape:done:Scraped 2 of 2 apps',
        'metadata_extraction:done:Extracted metadata of 2 of 2 apps',
        'screenshot_analysis:done:Processed screenshots of 2 of 2 apps',
        'preview_video_detection:done:Checked preview videos of 2 of 2 apps',
        'in_app_events:done:Found in-app events of 2 of 2 apps',
        'ai_screenshot_analysis:in_progress:ai_screenshot_analysis in_progress',
        'ai_screenshot_analysis:done:ai_screenshot_analysis done',
        'finalize:done:finalize done',
        'complete',
      ]);
      const doneUrl = all.events[2]!.json;
      expect(doneUrl).toMatchObject({ progress_pct: 100, started_at: at(0), ended_at: at(2) });
      expect(all.events[1]!.json.progress_pct).toBe(50);
      // Every message has an id; ids are unique and increasing.
      const ids = all.events.map((e) => e.id!);
      expect(ids.every(Boolean)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      expect(all.events.at(-1)!.json).toEqual({ auditId: id });

      // Resume after each position (including inside an entry that produced several messages).
      for (const k of [2, 8, 10]) {
        const rest = await readProgress(api, a, id, { lastEventId: ids[k - 1] });
        expect(rest.events.map((e) => e.id)).toEqual(ids.slice(k));
        expect(rest.events.map(summary)).toEqual(all.events.slice(k).map(summary));
      }
      // The query fallback works the same.
      const viaQuery = await readProgress(api, a, id, {
        query: `&lastEventId=${encodeURIComponent(ids[12]!)}`,
      });
      expect(viaQuery.events.map((e) => e.id)).toEqual(ids.slice(13));
    } finally {
      conn.disconnect();
      await api.close();
    }
  });

  it('two clients of one audit at once, one resuming with Last-Event-ID, each get their messages once', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    const conn = createRedis(redis.url, { role: 'producer' });
    const bus = new ProgressBus(conn, { prefix: redis.prefix });
    try {
      const a = await createTestUser(database.db, 'sse-shared@example.com');
      const id = await analyze(api, a, { appStoreUrl: SPOTIFY_URL, competitorUrl1: INSTAGRAM_URL });
      const S = '324684580';
      const I = '389801252';
      const first = await bus.append(id, appStep(S, 'url_validation', 'done', 1));
      await bus.append(id, appStep(I, 'url_validation', 'done', 2));

      const read = (lastEventId: string | null, into: TSseMessage[]) =>
        (async () => {
          const url = `${api.url}/api/progress?auditId=${encodeURIComponent(id)}`;
          const headers = {
            ...a.headers,
            ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
          };
          for await (const m of readSse(url, { headers, signal: AbortSignal.timeout(20_000) }))
            into.push(m);
        })();
      const fresh: TSseMessage[] = [];
      const resumed: TSseMessage[] = [];
      const done = Promise.all([read(null, fresh), read(first, resumed)]);
      // Both replays arrived: both clients are live (on one shared feed, see progress.feed).
      await vi.waitUntil(() => fresh.length === 2 && resumed.length === 1, {
        timeout: 5_000,
        interval: 10,
      });

      await bus.append(id, appStep(S, 'cache_check', 'done', 3));
      await bus.append(id, { type: 'complete', auditId: id, emittedAt: 2 });
      await done;
      const summary = (m: TSseMessage) => {
        const data = JSON.parse(m.data) as { step_id?: string; message?: string };
        return m.event === 'step'
          ? `${m.id} ${data.step_id}: ${data.message}`
          : `${m.id} ${m.event}`;
      };
      expect(fresh.map(summary).map((s) => s.replace(/^\S+ /, ''))).toEqual([
        'url_validation: Validated 1 of 2 apps',
        'url_validation: Validated 2 of 2 apps',
        'cache_check: Checked the cache for 1 of 2 apps',
        'complete',
      ]);
      expect(fresh[0]!.id).toBe(first);
      expect(resumed.map(summary)).toEqual(fresh.slice(1).map(summary));
    } finally {
      conn.disconnect();
      await api.close();
    }
  });

  it('a finished audit whose events expired still ends with its terminal event', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    try {
      const a = await createTestUser(database.db, 'old@example.com');
      const id = await analyze(api, a, { appStoreUrl: SPOTIFY_URL });
      await database.db
        .updateTable('audits')
        .set({ status: 'failed', error: 'App not found in the US App Store' })
        .where('id', '=', id)
        .execute();
      const res = await readProgress(api, a, id, { timeoutMs: 10_000 });
      expect(res.events.map((e) => [e.event, e.json])).toEqual([
        ['error', { message: 'App not found in the US App Store' }],
      ]);
    } finally {
      await api.close();
    }
  });
});
