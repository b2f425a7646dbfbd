/**
 * Keyword research and the keyword gap end to end: the real gateway and scraper, the replay
 * server answering `/search` and the store's search hints from the project's CONSTRUCTED
 * answers (recorded apps at known positions; hints for "music" and "podcasts" only) beside the
 * real recordings.
 */
import { describe, expect, vi } from 'vitest';
import { pino } from 'pino';
import { insertAudit } from '@aso/db';
import { it } from '@aso/testkit/vitest';
import { createTestUser, type TTestUser } from '@aso/testkit';
import { ZKeywordGap, ZKeywordResearch, ZKeywordResearchQueued } from '@aso/contracts';
import { startReplayServer } from '@aso/appstore/node';
import { parseWorkerEnv as parseScraperEnv, startScraper } from '@aso/scraper';
import { CONSTRUCTED_RECORDINGS_DIR } from '@aso/appstore/recordings';
import { parseCliEnv, runCli, type TKeywordsReport } from '@aso/cli';
import { canonicalAccessCode } from '../src/services/credentials.service';
import { appstoreFixturesDir, startApi, workerEnv, type TTestApi } from './audit.helpers';

const WAIT = { timeout: 30_000, interval: 100 };
const SPOTIFY = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';
const TIKTOK = 'https://apps.apple.com/us/app/tiktok/id835599320';
const INSTAGRAM = 'https://apps.apple.com/us/app/instagram/id389801252';

let users = 0;
const newUser = (db: Parameters<typeof createTestUser>[0]) =>
  createTestUser(db, `researcher-${++users}@example.com`);

async function startSystem(database: { url: string }, redis: { url: string; prefix: string }) {
  const replay = await startReplayServer({
    port: 0,
    fixturesDir: [appstoreFixturesDir(), CONSTRUCTED_RECORDINGS_DIR],
  });
  const api = await startApi(database, redis, {
    SEARCH_HINTS_ORIGIN: replay.url,
    SEARCH_HINTS_TIMEOUT_MS: '500',
  });
  const scraper = await startScraper(
    parseScraperEnv({
      ...workerEnv(database, redis, replay.url),
      KEYWORD_ROUND_EVERY_MS: '3600000',
      WATCH_ROUND_EVERY_MS: '3600000',
      ITUNES_SEARCH_WINDOW_MS: '1000',
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

const get = (api: TTestApi, user: TTestUser, url: string) =>
  api.app.inject({ method: 'GET', url, headers: user.headers });
const post = (api: TTestApi, user: TTestUser, url: string, payload: Record<string, unknown>) =>
  api.app.inject({ method: 'POST', url, headers: user.headers, payload });

/** Research of `term`, once its first read is done (202 until then). */
async function researched(api: TTestApi, user: TTestUser, query: string) {
  let answer: ReturnType<typeof ZKeywordResearch.parse> | null = null;
  await vi.waitUntil(async () => {
    const res = await get(api, user, `/api/keywords/research?${query}`);
    if (res.statusCode === 202) return false;
    expect(res.statusCode, res.body).toBe(200);
    answer = ZKeywordResearch.parse(res.json());
    return true;
  }, WAIT);
  return answer!;
}

describe('keyword research and gap', () => {
  it('queues a never-read term (202), then researches it with estimates, signals and suggestions from hints, the keyword field and competitors', async ({
    database,
    redis,
  }) => {
    const sys = await startSystem(database, redis);
    try {
      const { api, replay } = sys;
      const a = await newUser(database.db);

      // TikTok is a watched competitor: its title feeds the suggestions once read.
      expect(
        (await post(api, a, '/api/watchlist', { appStoreUrl: TIKTOK, role: 'competitor' }))
          .statusCode,
      ).toBe(201);
      // The user's latest audit of Spotify carries a keyword field.
      await insertAudit(database.db, {
        userId: a.userId,
        accessCodeId: null,
        appId: '324684580',
        storefront: 'us',
        appStoreUrl: SPOTIFY,
        inputs: {
          main: { appId: '324684580', storefront: 'us', appStoreUrl: SPOTIFY },
          competitors: [],
          keywords: 'songs,radio,Music',
        },
      });

      const first = await get(api, a, '/api/keywords/research?term=%20Music%20&storefront=us');
      expect(first.statusCode, first.body).toBe(202);
      const queued = ZKeywordResearchQueued.parse(first.json());
      expect(Date.parse(queued.expectedBy)).toBeGreaterThan(Date.now() - 1000);

      await vi.waitFor(
        async () =>
          expect(
            (await get(api, a, '/api/watchlist')).json<Array<{ appName: string | null }>>()[0]
              ?.appName,
          ).toBeTruthy(),
        WAIT,
      );
      const music = await researched(api, a, 'term=music&storefront=us&appId=324684580');
      expect(music).toMatchObject({ term: 'music', storefront: 'us', hintsEmpty: false });
      // The Mac app listed first takes no place; Spotify is second.
      expect(music.topApps).toHaveLength(10);
      expect(music.topApps[1]).toMatchObject({
        appId: '324684580',
        appName: 'Spotify: Music and Podcasts',
        developer: 'Spotify',
        titleMatch: 'exact',
      });
      expect(music.topApps[0]!.titleMatch).toBe('exact');
      expect(music.popularity.label).toBe('estimate');
      expect(music.popularity.value).toBeGreaterThanOrEqual(1);
      expect(music.popularity.signals.map((s) => s.name)).toEqual([
        'resultCount',
        'leaderRatings',
        'titleMatches',
        'termLength',
      ]);
      expect(music.popularity.signals.reduce((sum, s) => sum + s.weight, 0)).toBeCloseTo(1);
      expect(music.difficulty.signals.reduce((sum, s) => sum + s.weight, 0)).toBeCloseTo(1);
      const by = (source: string) =>
        music.suggestions.filter((s) => s.source === source).map((s) => s.term);
      expect(by('search-hints')).toEqual(['music player', 'music streaming', 'music offline']);
      expect(by('keyword-field')).toEqual(['songs', 'radio']);
      expect(by('competitor-title')).toContain('tiktok');
      // The hints were asked with the storefront's id, as the store needs.
      const hintRequests = replay.requests.filter((r) => r.path.includes('MZSearchHints'));
      expect(hintRequests.map((r) => r.query)).toEqual([
        { clientApplication: 'Software', term: 'music' },
      ]);

      // A term the hints know nothing of: marked empty, other suggestions still given.
      expect(
        (await get(api, a, '/api/keywords/research?term=photo%20sharing&storefront=us')).statusCode,
      ).toBe(202);
      const photo = await researched(api, a, 'term=photo%20sharing&storefront=us');
      expect(photo.hintsEmpty).toBe(true);
      expect(photo.suggestions.some((s) => s.source === 'search-hints')).toBe(false);
      expect(photo.resultCount).toBe(60);
      expect(photo.topApps[2]).toMatchObject({ appId: '389801252', titleMatch: 'none' });

      // Hints that do not answer within SEARCH_HINTS_TIMEOUT_MS: research answers without them.
      replay.setFaults([{ pathIncludes: 'MZSearchHints', delayMs: 3_000 }]);
      expect(
        (await get(api, a, '/api/keywords/research?term=podcasts&storefront=us')).statusCode,
      ).toBe(202);
      const started = Date.now();
      const podcasts = await researched(api, a, 'term=podcasts&storefront=us');
      expect(podcasts.hintsEmpty).toBe(true);
      expect(podcasts.resultCount).toBe(200);
      expect(Date.now() - started).toBeLessThan(30_000);
      replay.setFaults([]);

      // Bad input names the field.
      const bad = await get(api, a, '/api/keywords/research?term=%20&storefront=us');
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ message: string }>().message).toBe('term: " " is empty');
      expect((await get(api, a, '/api/keywords/research?term=x&storefront=usa')).statusCode).toBe(
        400,
      );
    } finally {
      await sys.close();
    }
  });

  it('gives the gap matrix: tracked terms x the app and its watched competitors, flags, untracked competitor terms; nothing of other users', async ({
    database,
    redis,
  }) => {
    const sys = await startSystem(database, redis);
    try {
      const { api } = sys;
      const a = await newUser(database.db);
      const b = await newUser(database.db);
      for (const url of [TIKTOK, INSTAGRAM]) {
        expect(
          (await post(api, a, '/api/watchlist', { appStoreUrl: url, role: 'competitor' }))
            .statusCode,
        ).toBe(201);
      }
      expect(
        (
          await post(api, a, '/api/keywords', {
            appStoreUrl: SPOTIFY,
            terms: ['short videos', 'music', 'photo sharing'],
          })
        ).statusCode,
      ).toBe(201);
      let gap: ReturnType<typeof ZKeywordGap.parse> | null = null;
      await vi.waitUntil(async () => {
        const res = await get(api, a, '/api/keywords/gap?appId=324684580&storefront=us');
        expect(res.statusCode, res.body).toBe(200);
        gap = ZKeywordGap.parse(res.json());
        const tracked = gap.rows.filter((r) => r.tracked);
        const watched = (await get(api, a, '/api/watchlist')).json<
          Array<{ lastCheckedAt: string | null }>
        >();
        return (
          tracked.every((r) => r.ranks.some((x) => x !== null)) &&
          watched.every((w) => w.lastCheckedAt !== null) &&
          gap.rows.some((r) => !r.tracked)
        );
      }, WAIT);
      const matrix = gap!;
      // The app, then its watched competitors as the watchlist lists them (newest first).
      expect(matrix.apps.map((x) => [x.appId, x.mine])).toEqual([
        ['324684580', true],
        ['389801252', false],
        ['835599320', false],
      ]);
      const row = (term: string) => matrix.rows.find((r) => r.term === term)!;
      // Added together: listed alphabetically.
      expect(matrix.rows.filter((r) => r.tracked).map((r) => r.term)).toEqual([
        'music',
        'photo sharing',
        'short videos',
      ]);
      expect(row('short videos')).toEqual({
        term: 'short videos',
        tracked: true,
        ranks: [null, 4, 1],
        gap: true,
      });
      expect(row('photo sharing')).toMatchObject({ ranks: [null, 3, 7], gap: true });
      expect(row('music')).toMatchObject({ ranks: [2, null, null], gap: false });
      // Competitors' title terms the user does not track: unread, no flag.
      const untracked = matrix.rows.filter((r) => !r.tracked);
      expect(untracked.map((r) => r.term)).toContain('instagram');
      expect(untracked.every((r) => !r.gap && r.ranks.every((x) => x === null))).toBe(true);

      // Another user sees only their own (nothing here).
      const other = ZKeywordGap.parse(
        (await get(api, b, '/api/keywords/gap?appId=324684580&storefront=us')).json(),
      );
      expect(other.rows).toEqual([]);
      expect(other.apps).toEqual([{ appId: '324684580', appName: null, mine: true }]);
    } finally {
      await sys.close();
    }
  });

  it('pnpm aso keywords tracks the terms, waits for their reads and prints ranks and estimates', async ({
    database,
    redis,
  }) => {
    const sys = await startSystem(database, redis);
    try {
      await database.db
        .insertInto('access_codes')
        .values({ code: canonicalAccessCode('KWD1-TEST-CODE-0001'), max_uses: 5 })
        .execute();
      const env = parseCliEnv({
        ASO_API_URL: sys.api.url,
        ASO_EMAIL: 'keywords-cli@example.com',
        ASO_ACCESS_CODE: 'KWD1-TEST-CODE-0001',
      });
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
      const code = await runCli(
        ['keywords', SPOTIFY, '--term', 'Music', '--term', 'ev charging', '--json'],
        env,
        io,
      );
      expect([code, err.filter((l) => l.startsWith('Keywords failed'))]).toEqual([0, []]);
      const report = JSON.parse(out.join('\n')) as TKeywordsReport;
      expect(report).toMatchObject({
        appId: '324684580',
        storefront: 'us',
        depth: 200,
        unread: [],
      });
      expect(report.items.map((i) => [i.term, i.rank, i.source])).toEqual([
        ['ev charging', null, 'itunes-search'],
        ['music', 2, 'itunes-search'],
      ]);
      expect(report.items[1]!.popularity?.label).toBe('estimate');

      // Readable text, signed in again with the personal code the first run told.
      const told = err
        .map((l) => /personal sign-in code is ([0-9A-Z-]+)/.exec(l)?.[1])
        .find(Boolean);
      const text: string[] = [];
      expect(
        await runCli(
          ['keywords', SPOTIFY, '--term', 'music'],
          { ...env, ASO_ACCESS_CODE: told! },
          {
            out: (t) => text.push(t),
            err: () => undefined,
          },
        ),
      ).toBe(0);
      const printed = text.join('\n');
      expect(printed).toContain('ranks in the iTunes Search API order');
      expect(printed).toMatch(/^music\s+#2\s/m);
      expect(printed).toContain('are estimates');

      // A bad URL: the server's message, exit 1.
      const bad: string[] = [];
      expect(
        await runCli(
          ['keywords', 'https://example.com/x', '--term', 'a'],
          { ...env, ASO_ACCESS_CODE: told! },
          {
            out: () => undefined,
            err: (t) => bad.push(t),
          },
        ),
      ).toBe(1);
      expect(bad.at(-1)).toMatch(/^Keywords failed: 400: App Store link: /);
    } finally {
      await sys.close();
    }
  });
});
