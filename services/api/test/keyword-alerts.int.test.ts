/**
 * Keyword ranks joined with the rest, end to end: rank alerts (notifications and signed
 * `keyword.rank_changed` webhooks, once per user and read, a retried read job included), the
 * rank history for the timeline and the ranks of an audit's keywords. The real gateway, the
 * real scraper and the replay server answering `/search` as of a day from the project's
 * CONSTRUCTED search answers (Spotify at known positions on 2026-06-01 and 2026-07-01).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, vi } from 'vitest';
import { pino } from 'pino';
import { insertAudit } from '@aso/db';
import { createRedis, Producers } from '@aso/queue';
import { it } from '@aso/testkit/vitest';
import { createTestUser, type TTestUser } from '@aso/testkit';
import {
  ZAuditKeywordRanks,
  ZKeywordList,
  ZKeywordRanks,
  ZNotificationList,
  ZWebhook,
  ZWebhookEvent,
  type TKeywordItem,
} from '@aso/contracts';
import { startReplayServer, type TReplayServer } from '@aso/appstore/node';
import { verifyWebhookSignature } from '@aso/webhook';
import { parseWorkerEnv as parseScraperEnv, startScraper } from '@aso/scraper';
import { CONSTRUCTED_RECORDINGS_DIR } from '@aso/appstore/recordings';
import { ADMIN_CODE } from './access.fixtures';
import { appstoreFixturesDir, startApi, workerEnv, type TTestApi } from './audit.helpers';

const WAIT = { timeout: 30_000, interval: 100 };
const SPOTIFY = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';
const SPOTIFY_ID = '324684580';
const TIKTOK_ID = '835599320';
/** The constructed terms whose answers differ between the two capture days. */
const TERMS = ['music player', 'podcast app', 'playlist maker', 'music streaming'];

let users = 0;
const newUser = (db: Parameters<typeof createTestUser>[0]) =>
  createTestUser(db, `alerted-${++users}@example.com`);

const searchesFor = (replay: TReplayServer, term: string) =>
  replay.requests.filter((r) => r.path === '/search' && r.query.term === term);

/** A local webhook receiver that records each POST. */
async function startReceiver() {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function startSystem(database: { url: string }, redis: { url: string; prefix: string }) {
  const replay = await startReplayServer({
    port: 0,
    fixturesDir: [appstoreFixturesDir(), CONSTRUCTED_RECORDINGS_DIR],
    asOf: '2026-06-01',
  });
  const api = await startApi(database, redis, {
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    ADMIN_ACCESS_CODE: ADMIN_CODE,
  });
  const scraper = await startScraper(
    parseScraperEnv({
      ...workerEnv(database, redis, replay.url),
      KEYWORD_ROUND_EVERY_MS: '3600000',
      WATCH_ROUND_EVERY_MS: '3600000',
      ITUNES_SEARCH_WINDOW_MS: '1000',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    }),
    { handleSignals: false, log: pino({ level: 'silent' }) },
  );
  return {
    replay,
    api,
    close: async () => {
      await scraper.close();
      await api.close();
      await replay.close();
    },
  };
}

function call(
  api: TTestApi,
  user: TTestUser | { headers: Record<string, string> },
  method: 'GET' | 'POST' | 'PUT',
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

async function list(api: TTestApi, user: TTestUser): Promise<TKeywordItem[]> {
  const res = await call(api, user, 'GET', `/api/keywords?appId=${SPOTIFY_ID}&storefront=us`);
  expect(res.statusCode, res.body).toBe(200);
  return ZKeywordList.parse(res.json()).items;
}

const rankOf = (items: TKeywordItem[], term: string) => items.find((i) => i.term === term)?.rank;

describe('rank alerts, rank history and audit keyword ranks', () => {
  it('notifies and signs one webhook per user and move, never twice for a retried read; serves the rank history and an audit’s ranks', async ({
    database,
    redis,
  }) => {
    const sys = await startSystem(database, redis);
    const receiver = await startReceiver();
    const conn = createRedis(redis.url, { role: 'producer', name: 'test:keyword-alerts' });
    const producers = new Producers(conn, redis.prefix);
    try {
      const { api, replay } = sys;
      const a = await newUser(database.db);
      const b = await newUser(database.db);
      const hook = ZWebhook.parse(
        (await call(api, a, 'PUT', '/api/webhook', { url: receiver.url })).json(),
      );
      const secret = hook.secret!;

      // Day one: Spotify at 14, 9, 30 and 150.
      expect(
        (await call(api, a, 'POST', '/api/keywords', { appStoreUrl: SPOTIFY, terms: TERMS }))
          .statusCode,
      ).toBe(201);
      await vi.waitFor(async () => {
        const items = await list(api, a);
        expect(TERMS.map((t) => rankOf(items, t))).toEqual([14, 9, 30, 150]);
      }, WAIT);
      // A term's first read alerts nobody.
      const none = ZNotificationList.parse(
        (await call(api, a, 'GET', '/api/notifications')).json(),
      );
      expect(none.items).toEqual([]);

      // Day two: 8 (up 6), 12 (out of the top 10), 33 (down 3: no alert), absent (down 51).
      replay.setAsOf('2026-07-01');
      const refreshed = await call(api, a, 'POST', '/api/keywords/refresh', {
        appId: SPOTIFY_ID,
        storefront: 'us',
      });
      expect(refreshed.statusCode, refreshed.body).toBe(202);
      await vi.waitFor(async () => {
        const items = await list(api, a);
        expect(TERMS.map((t) => rankOf(items, t))).toEqual([8, 12, 33, null]);
      }, WAIT);
      await vi.waitUntil(async () => {
        const n = ZNotificationList.parse((await call(api, a, 'GET', '/api/notifications')).json());
        return n.items.length === 3;
      }, WAIT);
      const notes = ZNotificationList.parse(
        (await call(api, a, 'GET', '/api/notifications')).json(),
      );
      expect(notes.unread).toBe(3);
      const moves = notes.items
        .map((n) => {
          expect(n).toMatchObject({
            kind: 'keyword',
            appId: SPOTIFY_ID,
            storefront: 'us',
            fields: [],
            role: 'mine',
            watchItemId: null,
          });
          return n.rankMove;
        })
        .sort((x, y) => x!.term.localeCompare(y!.term));
      const items = await list(api, a);
      const trackOf = (term: string) => items.find((i) => i.term === term)!.id;
      expect(moves).toEqual([
        {
          trackId: trackOf('music player'),
          term: 'music player',
          storefront: 'us',
          from: 14,
          to: 8,
          source: 'itunes-search',
        },
        {
          trackId: trackOf('music streaming'),
          term: 'music streaming',
          storefront: 'us',
          from: 150,
          to: null,
          source: 'itunes-search',
        },
        {
          trackId: trackOf('podcast app'),
          term: 'podcast app',
          storefront: 'us',
          from: 9,
          to: 12,
          source: 'itunes-search',
        },
      ]);
      // Each named with the app's name from the read's answer (null once out of the 200).
      const named = new Map(notes.items.map((n) => [n.rankMove!.term, n.appName]));
      expect(named.get('music player')).toBe('Spotify: Music and Podcasts');
      // Nobody else is told.
      expect(
        ZNotificationList.parse((await call(api, b, 'GET', '/api/notifications')).json()).items,
      ).toEqual([]);

      // Three signed keyword.rank_changed events.
      await vi.waitUntil(() => receiver.received.length === 3, WAIT);
      for (const post of receiver.received) {
        expect(post.headers['x-aso-event']).toBe('keyword.rank_changed');
        expect(
          verifyWebhookSignature(secret, String(post.headers['x-aso-signature']), post.body),
        ).toBe(true);
      }
      const events = receiver.received.map((p) => ZWebhookEvent.parse(JSON.parse(p.body)));
      const player = events.find((e) => e.rankMove?.term === 'music player');
      expect(player).toMatchObject({
        type: 'keyword.rank_changed',
        changes: [],
        app: { appId: SPOTIFY_ID, storefront: 'us', role: 'mine' },
        rankMove: { from: 14, to: 8, source: 'itunes-search' },
      });
      expect(player!.app!.appStoreUrl).toBe(
        'https://apps.apple.com/us/app/id324684580?platform=iphone',
      );
      expect(player!.detectedAt).toBe(items.find((i) => i.term === 'music player')!.checkedAt);

      // The read job of "music player" runs again (as a retry would): it finds its read, makes
      // no request, and notifies and sends nothing twice.
      const [stored] = await database.db
        .selectFrom('keyword_reads as r')
        .innerJoin('keyword_terms as t', 't.id', 'r.term_id')
        .select('r.job_key')
        .where('t.term', '=', 'music player')
        .orderBy('r.read_at', 'desc')
        .limit(1)
        .execute();
      const jobId = stored!.job_key!.slice(0, stored!.job_key!.lastIndexOf('@'));
      const job = await producers.queue('keyword-search').getJob(jobId);
      expect(job).toBeDefined();
      const requestsBefore = searchesFor(replay, 'music player').length;
      const finishedBefore = job!.finishedOn ?? 0;
      await job!.retry('completed');
      await vi.waitUntil(async () => {
        const again = await producers.queue('keyword-search').getJob(jobId);
        return (again?.finishedOn ?? 0) > finishedBefore && (await again!.isCompleted());
      }, WAIT);
      const rerun = await producers.queue('keyword-search').getJob(jobId);
      expect(rerun!.returnvalue).toEqual({ results: 60 });
      expect(searchesFor(replay, 'music player')).toHaveLength(requestsBefore);
      expect(
        ZNotificationList.parse((await call(api, a, 'GET', '/api/notifications')).json()).items,
      ).toHaveLength(3);
      const deliveries = await database.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('user_id', '=', a.userId)
        .execute();
      expect(deliveries).toHaveLength(3);
      const reads = await database.db
        .selectFrom('keyword_reads as r')
        .innerJoin('keyword_terms as t', 't.id', 'r.term_id')
        .select('r.id')
        .where('t.term', '=', 'music player')
        .execute();
      expect(reads).toHaveLength(2);

      // The rank history for the timeline: every tracked term, oldest point first.
      const ranks = ZKeywordRanks.parse(
        (await call(api, a, 'GET', `/api/apps/${SPOTIFY_ID}/keyword-ranks?storefront=us`)).json(),
      );
      expect(ranks).toMatchObject({ appId: SPOTIFY_ID, storefront: 'us', depth: 200 });
      expect(ranks.terms.map((t) => [t.term, t.points.map((p) => p.rank), t.truncated])).toEqual([
        ['music player', [14, 8], false],
        ['music streaming', [150, null], false],
        ['playlist maker', [30, 33], false],
        ['podcast app', [9, 12], false],
      ]);
      expect(ranks.terms[0]).toMatchObject({
        trackId: trackOf('music player'),
        bestRank: 8,
      });
      const second = ranks.terms[0]!.points[1]!;
      expect(second).toEqual({
        checkedAt: items.find((i) => i.term === 'music player')!.checkedAt,
        rank: 8,
        source: 'itunes-search',
      });
      // A range that starts after the first read keeps only the second.
      const from = new Date(Date.parse(ranks.terms[0]!.points[0]!.checkedAt) + 1).toISOString();
      const narrowed = ZKeywordRanks.parse(
        (
          await call(
            api,
            a,
            'GET',
            `/api/apps/${SPOTIFY_ID}/keyword-ranks?storefront=us&from=${encodeURIComponent(from)}`,
          )
        ).json(),
      );
      expect(narrowed.terms[0]!.points.map((p) => p.rank)).toEqual([8]);
      expect(narrowed.from).toBe(from);
      const backwards = await call(
        api,
        a,
        'GET',
        `/api/apps/${SPOTIFY_ID}/keyword-ranks?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
      );
      expect(backwards.statusCode).toBe(400);
      expect(backwards.json<{ message: string }>().message).toBe('from: must not be after to');
      const long = await call(
        api,
        a,
        'GET',
        `/api/apps/${SPOTIFY_ID}/keyword-ranks?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
      );
      expect(long.statusCode).toBe(400);
      expect(long.json<{ message: string }>().message).toBe('from: the range is at most 400 days');
      // Another user tracks nothing for the app: an empty history, not someone else's.
      expect(
        ZKeywordRanks.parse(
          (await call(api, b, 'GET', `/api/apps/${SPOTIFY_ID}/keyword-ranks`)).json(),
        ).terms,
      ).toEqual([]);

      // An audit with keywords: the app's and its competitor's ranks from the latest reads.
      const audit = await insertAudit(database.db, {
        userId: a.userId,
        accessCodeId: null,
        appId: SPOTIFY_ID,
        storefront: 'us',
        appStoreUrl: SPOTIFY,
        inputs: {
          main: { appId: SPOTIFY_ID, storefront: 'us', appStoreUrl: SPOTIFY },
          competitors: [
            {
              appId: TIKTOK_ID,
              storefront: 'us',
              appStoreUrl: `https://apps.apple.com/us/app/tiktok/id${TIKTOK_ID}`,
            },
          ],
          keywords: 'Music Player, podcast app,never read term, music player',
        },
      });
      const auditRanks = await call(api, a, 'GET', `/api/audit/${audit.id}/keyword-ranks`);
      expect(auditRanks.statusCode, auditRanks.body).toBe(200);
      const parsed = ZAuditKeywordRanks.parse(auditRanks.json());
      expect(parsed.apps).toEqual([
        { appId: SPOTIFY_ID, appName: null, mine: true },
        { appId: TIKTOK_ID, appName: null, mine: false },
      ]);
      expect(parsed.terms).toEqual([
        {
          term: 'music player',
          trackId: trackOf('music player'),
          checkedAt: items.find((i) => i.term === 'music player')!.checkedAt,
          source: 'itunes-search',
          ranks: [8, null],
        },
        {
          term: 'podcast app',
          trackId: trackOf('podcast app'),
          checkedAt: items.find((i) => i.term === 'podcast app')!.checkedAt,
          source: 'itunes-search',
          ranks: [12, null],
        },
        {
          term: 'never read term',
          trackId: null,
          checkedAt: null,
          source: null,
          ranks: [null, null],
        },
      ]);
      // Someone else's audit answers 404; an admin reads it, without the owner's tracks.
      const other = await call(api, b, 'GET', `/api/audit/${audit.id}/keyword-ranks`);
      expect(other.statusCode).toBe(404);
      const asAdmin = ZAuditKeywordRanks.parse(
        (
          await call(
            api,
            { headers: { 'x-access-code': ADMIN_CODE } },
            'GET',
            `/api/audit/${audit.id}/keyword-ranks`,
          )
        ).json(),
      );
      expect(asAdmin.terms.map((t) => [t.term, t.trackId, t.ranks[0]])).toEqual([
        ['music player', null, 8],
        ['podcast app', null, 12],
        ['never read term', null, null],
      ]);
    } finally {
      await producers.close();
      conn.disconnect();
      await receiver.close();
      await sys.close();
    }
  });
});
