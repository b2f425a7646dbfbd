/**
 * Keyword ranks end to end: the real gateway, the real scraper (keyword rounds and search
 * reads under their limiter) and the replay server answering `/search` from the project's
 * CONSTRUCTED search answers (recorded apps at known positions) beside the real recordings.
 */
import { describe, expect, vi } from 'vitest';
import { pino } from 'pino';
import { openKeywordAlarm } from '@aso/db';
import { createRedis, Producers } from '@aso/queue';
import { it } from '@aso/testkit/vitest';
import { createTestUser, type TTestUser } from '@aso/testkit';
import {
  ZKeywordHistory,
  ZKeywordList,
  ZKeywordRefreshAnswer,
  ZStoreHealth,
  type TKeywordItem,
} from '@aso/contracts';
import { startReplayServer, type TReplayServer } from '@aso/appstore/node';
import { parseWorkerEnv as parseScraperEnv, startScraper } from '@aso/scraper';
import { CONSTRUCTED_RECORDINGS_DIR } from '@aso/appstore/recordings';
import { appstoreFixturesDir, startApi, workerEnv, type TTestApi } from './audit.helpers';

const WAIT = { timeout: 30_000, interval: 100 };
/** The admin code of the gateways that read the store health (constructed for these tests). */
const ADMIN_ACCESS_CODE = 'Test-Admin-Code-7Q4X';
const INSTAGRAM = 'https://apps.apple.com/us/app/instagram/id389801252';
const TIKTOK = 'https://apps.apple.com/us/app/tiktok/id835599320';
const SPOTIFY = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';

let users = 0;
const newUser = (db: Parameters<typeof createTestUser>[0]) =>
  createTestUser(db, `ranker-${++users}@example.com`);

/** The search requests the replay server answered, in order. */
const searches = (replay: TReplayServer) => replay.requests.filter((r) => r.path === '/search');

async function startSystem(
  database: { url: string },
  redis: { url: string; prefix: string },
  opts: {
    scrapers?: number;
    apiEnv?: Record<string, string>;
    scraperEnv?: Record<string, string>;
  } = {},
) {
  const replay = await startReplayServer({
    port: 0,
    fixturesDir: [appstoreFixturesDir(), CONSTRUCTED_RECORDINGS_DIR],
  });
  const api = await startApi(database, redis, opts.apiEnv);
  const scrapers = await Promise.all(
    Array.from({ length: opts.scrapers ?? 1 }, () =>
      startScraper(
        parseScraperEnv({
          ...workerEnv(database, redis, replay.url),
          // Rounds are started by the tests; 20 reads per 2 s keeps the reads quick.
          KEYWORD_ROUND_EVERY_MS: '3600000',
          WATCH_ROUND_EVERY_MS: '3600000',
          ITUNES_SEARCH_WINDOW_MS: '2000',
          ...opts.scraperEnv,
        }),
        { handleSignals: false, log: pino({ level: 'silent' }) },
      ),
    ),
  );
  return {
    replay,
    api,
    close: async () => {
      await Promise.all(scrapers.map((s) => s.close()));
      await api.close();
      await replay.close();
    },
  };
}

function call(
  api: TTestApi,
  user: TTestUser,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return api.app.inject({
    method,
    url,
    headers: user.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function list(api: TTestApi, user: TTestUser, appId: string): Promise<TKeywordItem[]> {
  const res = await call(api, user, 'GET', `/api/keywords?appId=${appId}&storefront=us`);
  expect(res.statusCode, res.body).toBe(200);
  return ZKeywordList.parse(res.json()).items;
}

const byTerm = (items: TKeywordItem[], term: string) => {
  const item = items.find((i) => i.term === term);
  if (!item) throw new Error(`no item for ${term}`);
  return item;
};

describe('tracked keywords', () => {
  it('tracks terms, reads each (term, storefront) once for every user, ranks apps and competitors from that read, keeps history; refuses other users and bad terms', async ({
    database,
    redis,
  }) => {
    const sys = await startSystem(database, redis, { apiEnv: { KEYWORDS_MAX_PER_APP: '5' } });
    try {
      const { api, replay } = sys;
      const a = await newUser(database.db);
      const b = await newUser(database.db);

      // Bad input: a clear 400 naming the term; nothing stored.
      const long = 'x'.repeat(101);
      const bad = await call(api, a, 'POST', '/api/keywords', {
        appStoreUrl: INSTAGRAM,
        terms: ['ok', long],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ message: string }>().message).toMatch(
        /^Keywords: "x{40}…" is longer than 100 characters/,
      );
      expect(await list(api, a, '389801252')).toEqual([]);
      expect(
        (await call(api, a, 'POST', '/api/keywords', { appStoreUrl: 'nope', terms: ['a'] })).json(),
      ).toMatchObject({ code: 'BAD_REQUEST' });

      // TikTok is a watched competitor of user a.
      expect(
        (await call(api, a, 'POST', '/api/watchlist', { appStoreUrl: TIKTOK, role: 'competitor' }))
          .statusCode,
      ).toBe(201);

      const created = await call(api, a, 'POST', '/api/keywords', {
        appStoreUrl: INSTAGRAM,
        terms: ['  Photo   SHARING ', 'photo sharing', 'ev charging', 'no such term zz'],
      });
      expect(created.statusCode, created.body).toBe(201);
      // Added together: listed alphabetically.
      expect(ZKeywordList.parse(created.json()).items.map((i) => i.term)).toEqual([
        'ev charging',
        'no such term zz',
        'photo sharing',
      ]);

      await vi.waitFor(async () => {
        const items = await list(api, a, '389801252');
        expect(items.every((i) => i.checkedAt !== null)).toBe(true);
      }, WAIT);
      const items = await list(api, a, '389801252');
      const photo = byTerm(items, 'photo sharing');
      expect(photo).toMatchObject({
        rank: 3,
        bestRank: 3,
        previousRank: null,
        source: 'itunes-search',
        lastError: null,
        resultCount: 60,
      });
      expect(photo.competitors.map((c) => [c.appId, c.rank])).toEqual([['835599320', 7]]);
      expect(photo.popularity?.label).toBe('estimate');
      expect(photo.difficulty?.signals.length).toBeGreaterThan(0);
      expect(byTerm(items, 'ev charging')).toMatchObject({ rank: null, resultCount: 30 });
      expect(byTerm(items, 'no such term zz')).toMatchObject({ rank: null, resultCount: 0 });

      // User b tracks the same term for TikTok: no second read, the rank comes from a's read.
      const before = searches(replay).length;
      const bItems = ZKeywordList.parse(
        (
          await call(api, b, 'POST', '/api/keywords', {
            appStoreUrl: TIKTOK,
            terms: ['Photo Sharing'],
          })
        ).json(),
      ).items;
      expect(bItems).toMatchObject([{ term: 'photo sharing', rank: 7, competitors: [] }]);
      expect(searches(replay).filter((r) => r.query.term === 'photo sharing')).toHaveLength(1);
      expect(searches(replay).length).toBe(before);
      expect(searches(replay)[0]!.query).toMatchObject({
        country: 'us',
        entity: 'software',
        limit: '200',
      });

      // History; other users get 404 for a's items.
      const hist = await call(api, a, 'GET', `/api/keywords/${photo.id}/history`);
      expect(ZKeywordHistory.parse(hist.json()).points).toEqual([
        { checkedAt: photo.checkedAt, rank: 3, source: 'itunes-search' },
      ]);
      expect((await call(api, b, 'GET', `/api/keywords/${photo.id}/history`)).statusCode).toBe(404);
      expect((await call(api, b, 'DELETE', `/api/keywords/${photo.id}`)).statusCode).toBe(404);
      expect(await list(api, b, '389801252')).toEqual([]);

      // Refresh: 202, one more read of each term; the history grows.
      const refreshed = await call(api, a, 'POST', '/api/keywords/refresh', {
        appId: '389801252',
        storefront: 'us',
      });
      expect(refreshed.statusCode, refreshed.body).toBe(202);
      expect(ZKeywordRefreshAnswer.parse(refreshed.json()).queued).toBe(3);
      await vi.waitFor(async () => {
        const points = ZKeywordHistory.parse(
          (await call(api, a, 'GET', `/api/keywords/${photo.id}/history`)).json(),
        ).points;
        expect(points.map((p) => p.rank)).toEqual([3, 3]);
      }, WAIT);
      expect(byTerm(await list(api, a, '389801252'), 'photo sharing')).toMatchObject({
        rank: 3,
        previousRank: 3,
      });

      // The cap: 3 tracked + 3 new > 5.
      const full = await call(api, a, 'POST', '/api/keywords', {
        appStoreUrl: INSTAGRAM,
        terms: ['a1', 'a2', 'a3'],
      });
      expect(full.statusCode).toBe(409);
      expect(await list(api, a, '389801252')).toHaveLength(3);

      expect((await call(api, a, 'DELETE', `/api/keywords/${photo.id}`)).statusCode).toBe(204);
      expect((await list(api, a, '389801252')).map((i) => i.term)).toEqual([
        'ev charging',
        'no such term zz',
      ]);
      // b still tracks the term: its reads stay.
      expect((await list(api, b, '835599320'))[0]).toMatchObject({ rank: 7 });
    } finally {
      await sys.close();
    }
  });

  it('keeps search requests under one limit shared by two scraper replicas', async ({
    database,
    redis,
  }) => {
    // 5 reads per second across both replicas.
    const sys = await startSystem(database, redis, {
      scrapers: 2,
      scraperEnv: { ITUNES_SEARCH_RATE_PER_MIN: '5', ITUNES_SEARCH_WINDOW_MS: '1000' },
    });
    try {
      const { api, replay } = sys;
      const a = await newUser(database.db);
      const terms = Array.from({ length: 14 }, (_, i) => `limit term ${i}`);
      expect(
        (await call(api, a, 'POST', '/api/keywords', { appStoreUrl: SPOTIFY, terms })).statusCode,
      ).toBe(201);
      const ours = () => searches(replay).filter((r) => terms.includes(r.query.term ?? ''));
      await vi.waitFor(() => expect(ours()).toHaveLength(14), WAIT);
      const times = searches(replay).map((r) => r.at);
      for (const t of times) {
        expect(times.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(5);
      }
    } finally {
      await sys.close();
    }
  });

  it('backs off on 429 with Retry-After and on 403 without, showing the term as rate-limited', async ({
    database,
    redis,
  }) => {
    const sys = await startSystem(database, redis, {
      scraperEnv: { KEYWORD_THROTTLE_BACKOFF_MS: '400' },
    });
    try {
      const { api, replay } = sys;
      const a = await newUser(database.db);
      replay.setFaults([{ pathIncludes: 'term=music', status: 429, retryAfter: 2, failTimes: 1 }]);
      expect(
        (await call(api, a, 'POST', '/api/keywords', { appStoreUrl: SPOTIFY, terms: ['music'] }))
          .statusCode,
      ).toBe(201);
      await vi.waitFor(async () => {
        const [item] = await list(api, a, '324684580');
        expect(item?.throttledUntil).not.toBeNull();
        expect(item?.lastError).toMatch(/throttling search reads \(HTTP 429\)/);
      }, WAIT);
      await vi.waitFor(
        async () =>
          expect((await list(api, a, '324684580'))[0]).toMatchObject({
            rank: 2,
            lastError: null,
            throttledUntil: null,
          }),
        WAIT,
      );
      // Only this term's reads: a read the previous case left running may still finish here.
      const music = searches(replay)
        .filter((r) => r.query.term === 'music')
        .map((r) => r.at);
      expect(music).toHaveLength(2);
      expect(music[1]! - music[0]!).toBeGreaterThanOrEqual(2000);

      // 403 twice without Retry-After: pauses of 200-400 ms, then 400-800 ms.
      replay.setFaults([{ pathIncludes: 'term=podcasts', status: 403, failTimes: 2 }]);
      expect(
        (await call(api, a, 'POST', '/api/keywords', { appStoreUrl: SPOTIFY, terms: ['podcasts'] }))
          .statusCode,
      ).toBe(201);
      await vi.waitFor(
        async () =>
          expect(byTerm(await list(api, a, '324684580'), 'podcasts')).toMatchObject({ rank: 12 }),
        WAIT,
      );
      const pods = searches(replay)
        .filter((r) => r.query.term === 'podcasts')
        .map((r) => r.at);
      expect(pods).toHaveLength(3);
      expect(pods[1]! - pods[0]!).toBeGreaterThanOrEqual(200);
      expect(pods[2]! - pods[1]!).toBeGreaterThanOrEqual(400);
    } finally {
      await sys.close();
    }
  });

  it('does not record apps as unranked when answers that had results go empty: raises the alarm, pauses the round, clears on a probe with results', async ({
    database,
    redis,
  }) => {
    const sys = await startSystem(database, redis, {
      apiEnv: { ADMIN_ACCESS_CODE },
      scraperEnv: { KEYWORD_EMPTY_ALARM_AFTER: '2' },
    });
    const storeHealth = async () => {
      const res = await sys.api.app.inject({
        method: 'GET',
        url: '/api/admin/store-health',
        headers: { 'x-access-code': ADMIN_ACCESS_CODE },
      });
      expect(res.statusCode, res.body).toBe(200);
      return ZStoreHealth.parse(res.json()).keywordSearch;
    };
    const conn = createRedis(redis.url, { role: 'producer', name: 'test:keywords' });
    const producers = new Producers(conn, redis.prefix);
    try {
      const { api, replay } = sys;
      const a = await newUser(database.db);
      expect(
        (
          await call(api, a, 'POST', '/api/keywords', {
            appStoreUrl: SPOTIFY,
            terms: ['music', 'podcasts'],
          })
        ).statusCode,
      ).toBe(201);
      await vi.waitFor(
        async () => expect((await list(api, a, '324684580')).map((i) => i.rank)).toEqual([2, 12]),
        WAIT,
      );
      expect(await storeHealth()).toEqual({ alarm: null, lastClearedAt: null });

      // Before the constructed answers' day: the store answers nothing for both terms.
      replay.setAsOf('2026-05-01');
      expect(
        (
          await call(api, a, 'POST', '/api/keywords/refresh', {
            appId: '324684580',
            storefront: 'us',
          })
        ).statusCode,
      ).toBe(202);
      await vi.waitFor(
        async () => expect(await openKeywordAlarm(database.db)).not.toBeNull(),
        WAIT,
      );
      const items = await list(api, a, '324684580');
      expect(items.map((i) => i.rank)).toEqual([2, 12]);
      expect(items[0]!.lastError).toMatch(/no results for a term that had results/);
      const hist = ZKeywordHistory.parse(
        (await call(api, a, 'GET', `/api/keywords/${items[0]!.id}/history`)).json(),
      );
      expect(hist.points.map((p) => p.rank)).toEqual([2]);
      // The admin's store health card shows the alarm: when, why and what it paused.
      const raised = await storeHealth();
      const open = await openKeywordAlarm(database.db);
      expect(raised).toEqual({
        alarm: {
          raisedAt: open!.raisedAt.toISOString(),
          detail:
            '2 search terms that had results answered none within 60 min: keyword rounds paused',
          paused: 'keyword-rounds',
          pausedTerms: 0,
          suspectTerms: 2,
        },
        lastClearedAt: null,
      });

      // A round while the alarm is open probes one suspect term; answers are back: cleared.
      replay.setAsOf(null);
      const before = searches(replay).length;
      await producers.add('keyword-round', {}, { jobId: 'test-round-1' });
      await vi.waitFor(async () => expect(await openKeywordAlarm(database.db)).toBeNull(), WAIT);
      expect(searches(replay).length).toBe(before + 1);
      const cleared = await storeHealth();
      expect(cleared.alarm).toBeNull();
      expect(Date.parse(cleared.lastClearedAt!)).toBeGreaterThan(
        Date.parse(raised.alarm!.raisedAt),
      );
    } finally {
      await producers.close();
      conn.disconnect();
      await sys.close();
    }
  });
});
