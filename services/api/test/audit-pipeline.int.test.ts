import { RULES_VERSION } from '@aso/aso-rules';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { pino } from 'pino';
import { createTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { primaryScreenshotUrls, startReplayServer } from '@aso/appstore/node';
import { STEP_IDS, ZAppListing, ZAudit, ZRecommendation, type TAppListing } from '@aso/contracts';
import type { TDb } from '@aso/db';
import { createRedis, ProgressBus, Producers } from '@aso/queue';
import { parseWorkerEnv as parseScraperEnv, startScraper } from '@aso/scraper';
import { parseCliEnv, runCli } from '@aso/cli';
import { canonicalAccessCode } from '../src/services/credentials.service';
import {
  analyze,
  appstoreFixturesDir,
  INSTAGRAM_URL,
  readProgress,
  RIVIAN_URL,
  SPOTIFY_URL,
  startApi,
  startWorkers,
  TIKTOK_URL,
  workerEnv,
  type TEvent,
} from './audit.helpers';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A recorded file's JSON (lookup and RSS files start with blank lines; media-api is double-encoded). */
function recorded(file: string): unknown {
  return JSON.parse(readFileSync(path.join(appstoreFixturesDir(), file), 'utf8'));
}
/** The Media API attributes the test compares with (fixtures/LAYOUTS.md). */
interface TRecordedPage {
  name: string;
  userRating: { value: number; ratingCount: number };
  chartPositions: { appStore: { position: number; genreName: string } };
  platformAttributes: { ios: { subtitle: string; description: { standard: string } } };
}
/** The lookup fields the test compares with. */
interface TRecordedLookup {
  trackName: string;
  primaryGenreName: string;
  averageUserRating: number;
  userRatingCount: number;
  description: string;
  screenshotUrls: string[];
}
function recordedMediaApi(file: string): TRecordedPage {
  const outer = recorded(file) as Record<string, string>;
  const inner = JSON.parse(Object.values(outer)[0]!) as { d: Array<{ attributes: TRecordedPage }> };
  return inner.d[0]!.attributes;
}
function recordedLookup(file: string): TRecordedLookup {
  return (recorded(file) as { results: TRecordedLookup[] }).results[0]!;
}

async function snapshotOf(db: TDb, appId: string): Promise<TAppListing> {
  const row = await db
    .selectFrom('app_snapshots')
    .select('listing')
    .where('app_id', '=', appId)
    .orderBy('fetched_at', 'desc')
    .executeTakeFirstOrThrow();
  return ZAppListing.parse(row.listing);
}

const stepEvents = (events: TEvent[]) => events.filter((e) => e.event === 'step');

/**
 * Checks the client's step sequence: every step id, first seen in the documented order, done once
 * each in order.
 */
function expectStepsInOrder(events: TEvent[]) {
  const steps = stepEvents(events).map((e) => e.json as { step_id: string; status: string });
  const firstSeen = [...new Set(steps.map((s) => s.step_id))];
  expect(firstSeen).toEqual([...STEP_IDS]);
  expect(steps.filter((s) => s.status === 'done').map((s) => s.step_id)).toEqual([...STEP_IDS]);
  expect(steps.some((s) => s.status === 'error')).toBe(false);
  expect(events.at(-1)?.event).toBe('complete');
  expect(events.filter((e) => e.event === 'complete')).toHaveLength(1);
}

describe('the audit pipeline end to end (gateway, real scraper and analyzer, replay server)', () => {
  it('Spotify + 2 recorded competitors: steps in order, the audit equals the recorded data, then a cache hit', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    const workers = await startWorkers(database, redis);
    try {
      const a = await createTestUser(database.db, 'spotify@example.com');
      const id = await analyze(api, a, {
        appStoreUrl: SPOTIFY_URL,
        keywords: 'music,podcast,radio',
        competitorUrl1: INSTAGRAM_URL,
        competitorUrl2: TIKTOK_URL,
      });
      const { events } = await readProgress(api, a, id);
      expectStepsInOrder(events);
      const scrapeDone = stepEvents(events).find(
        (e) => e.json.step_id === 'scrape' && e.json.status === 'done',
      )!;
      expect(scrapeDone.json).toMatchObject({ message: 'Scraped 3 of 3 apps', progress_pct: 100 });
      expect(Date.parse(String(scrapeDone.json.ended_at))).toBeGreaterThanOrEqual(
        Date.parse(String(scrapeDone.json.started_at)),
      );
      expect(events.at(-1)!.json).toEqual({ auditId: id });

      const res = await api.app.inject({
        method: 'GET',
        url: `/api/audit/${id}`,
        headers: a.headers,
      });
      expect(res.statusCode).toBe(200);
      const audit = ZAudit.parse(res.json());
      const main = await snapshotOf(database.db, '324684580');
      const instagram = await snapshotOf(database.db, '389801252');
      const tiktok = await snapshotOf(database.db, '835599320');

      // Every listing field equals what the scraper read from the recordings...
      expect(audit).toMatchObject({
        id,
        status: 'done',
        error: null,
        appId: '324684580',
        storefront: 'us',
        appName: main.appName,
        subtitle: main.subtitle,
        developer: main.developer,
        category: main.category,
        categoryRank: main.categoryRank,
        rating: main.rating,
        reviewCount: main.reviewCount,
        keywords: 'music,podcast,radio',
        description: main.description,
        iconUrl: main.iconUrl,
        previewVideoUrl: main.previewVideoUrl,
        screenshots: primaryScreenshotUrls(main),
        ageRating: main.ageRating,
        languages: main.languages,
        price: main.price,
        appStoreUrl:
          'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580?platform=iphone',
        inAppEvents: [],
        provider: 'heuristic',
      });
      expect(audit.competitorData).toEqual(
        [instagram, tiktok].map((c, i) => ({
          appId: c.appId,
          appName: c.appName,
          subtitle: c.subtitle,
          iconUrl: c.iconUrl,
          rating: c.rating,
          reviewCount: c.reviewCount,
          appStoreUrl: c.appStoreUrl,
          screenshots: primaryScreenshotUrls(c),
          screenshotAnalysis: audit.competitorData[i]!.screenshotAnalysis,
          storeData: c.storeData ? { ...c.storeData, readAt: c.fetchedAt } : null,
          screenshotAnalysisSource: 'rules',
        })),
      );
      // The store data record of each app travels with the audit.
      expect(audit.storeData).toEqual({ ...main.storeData, readAt: main.fetchedAt });
      expect(audit.storeData?.layout).toBe('ember');
      expect(audit.rulesVersion).toBe(RULES_VERSION);
      expect(audit.tokenUsage).toBeNull();
      // ...and those are the recorded values themselves.
      const spotifyPage = recordedMediaApi('media-api_us_spotify_id324684580_2025-07.json');
      const spotifyLookup = recordedLookup('itunes-lookup_us_spotify_id324684580_2026-06.json');
      expect(audit.appName).toBe(spotifyPage.name);
      expect(audit.appName).toBe(spotifyLookup.trackName);
      expect(audit.subtitle).toBe(spotifyPage.platformAttributes.ios.subtitle);
      expect(audit.subtitle).toBe('Songs, Playlists & Audiobooks');
      expect(audit.categoryRank).toBe(
        `#${spotifyPage.chartPositions.appStore.position} in ${spotifyPage.chartPositions.appStore.genreName}`,
      );
      expect(audit.category).toBe(spotifyLookup.primaryGenreName);
      const ratingSource = main.fieldSources.rating;
      if (ratingSource === 'lookup') {
        expect(Number(audit.rating)).toBeCloseTo(spotifyLookup.averageUserRating, 2);
        expect(audit.reviewCount).toBe(String(spotifyLookup.userRatingCount));
      } else {
        expect(Number(audit.rating)).toBe(spotifyPage.userRating.value);
        expect(audit.reviewCount).toBe(String(spotifyPage.userRating.ratingCount));
      }
      expect(audit.description).toBe(
        main.fieldSources.description === 'lookup'
          ? spotifyLookup.description
          : spotifyPage.platformAttributes.ios.description.standard,
      );
      const instagramPage = recordedMediaApi('media-api_us_instagram_id389801252_2025-07.json');
      expect(audit.competitorData[0]).toMatchObject({
        appName: instagramPage.name,
        subtitle: 'Videos, creators & friends',
      });
      const tiktokLookup = recordedLookup('itunes-lookup_us_tiktok_id835599320_2026-06.json');
      expect(audit.competitorData[1]).toMatchObject({
        appName: tiktokLookup.trackName,
        reviewCount: String(tiktokLookup.userRatingCount),
        screenshots: tiktokLookup.screenshotUrls,
      });
      expect(audit.competitorData.every((c) => c.screenshotAnalysis.startsWith(c.appName))).toBe(
        true,
      );

      // Every section analysed with a score; recommendations are JSON text naming section and effect.
      expect(audit.structuredAnalysis).not.toBeNull();
      for (const s of Object.values(audit.structuredAnalysis!)) {
        expect(s.analysis.length).toBeGreaterThan(0);
        // Scored 0-100, or not judged (the shown icon, whose design is not measured).
        if (s.score !== null) expect(s.score).toBeGreaterThanOrEqual(0);
      }
      expect(audit.structuredAnalysis!.icon.score).toBeNull();
      expect(audit.structuredAnalysis!.title).toMatchObject({ used: 27, limit: 30 });
      const recs = ZRecommendation.array().parse(JSON.parse(audit.recommendations!));
      expect(recs.length).toBeGreaterThan(0);
      expect(audit.overallScore).toBeGreaterThan(0);

      // The saved audit's name is built from the audit: '<app name> <CC> <dd-mm-yyyy>'.
      const saved = await api.app.inject({
        method: 'POST',
        url: '/api/saved-audits',
        headers: a.headers,
        payload: { auditId: id, storefront: 'us' },
      });
      expect(saved.json<{ name: string }>().name).toMatch(
        /^Spotify: Music and Podcasts US \d{2}-\d{2}-\d{4}$/,
      );

      // A second audit of the same app reads the fresh snapshot: the cache step says so.
      const second = await analyze(api, a, { appStoreUrl: SPOTIFY_URL });
      const again = await readProgress(api, a, second);
      expectStepsInOrder(again.events);
      const cache = stepEvents(again.events).find(
        (e) => e.json.step_id === 'cache_check' && e.json.status === 'done',
      );
      expect(cache?.json.message).toBe('Checked the cache for 1 of 1 app: 1 cache hit');
      expect(
        await database.db
          .selectFrom('app_snapshots')
          .where('app_id', '=', '324684580')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirst(),
      ).toEqual({ n: '1' });
    } finally {
      await workers.close();
      await api.close();
    }
  });

  it('an unknown app id ends with an error event, a failed audit and no retries', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    const workers = await startWorkers(database, redis);
    const conn = createRedis(redis.url, { role: 'worker' });
    try {
      const a = await createTestUser(database.db, 'unknown@example.com');
      const id = await analyze(api, a, {
        appStoreUrl: 'https://apps.apple.com/us/app/nothing/id999999999',
        competitorUrl1: INSTAGRAM_URL,
      });
      const { events } = await readProgress(api, a, id);
      expect(events.at(-1)).toMatchObject({
        event: 'error',
        json: { message: 'App not found in the US App Store' },
      });
      expect(events.filter((e) => e.event === 'error' || e.event === 'complete')).toHaveLength(1);
      const res = await api.app.inject({
        method: 'GET',
        url: `/api/audit/${id}`,
        headers: a.headers,
      });
      expect(res.json()).toMatchObject({
        status: 'failed',
        error: 'App not found in the US App Store',
        structuredAnalysis: null,
      });
      const scrape = new Producers(conn, redis.prefix).queue('scrape');
      const job = await scrape.getJob(`${id}:scrape:999999999`);
      expect(await job?.getState()).toBe('failed');
      expect(job?.attemptsMade).toBe(1);
      await scrape.close();
      // A late reader still gets the same ending.
      const late = await readProgress(api, a, id);
      expect(late.events.at(-1)).toMatchObject({
        event: 'error',
        json: { message: 'App not found in the US App Store' },
      });
    } finally {
      conn.disconnect();
      await workers.close();
      await api.close();
    }
  });

  it('a client whose stream drops mid-audit and reconnects with Last-Event-ID gets the rest exactly once', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    // Each store answer takes 300 ms, so the audit is still scraping when the stream drops.
    const workers = await startWorkers(database, redis, { storeDelayMs: 300 });
    try {
      const a = await createTestUser(database.db, 'resume@example.com');
      const id = await analyze(api, a, { appStoreUrl: INSTAGRAM_URL, competitorUrl1: TIKTOK_URL });
      const first = await readProgress(api, a, id, { max: 3 });
      expect(first.events).toHaveLength(3);
      expect(first.events.map((e) => e.event)).not.toContain('complete');
      const atDrop = await api.app.inject({
        method: 'GET',
        url: `/api/audit/${id}`,
        headers: a.headers,
      });
      expect(atDrop.json<{ status: string }>().status).not.toBe('done');
      const rest = await readProgress(api, a, id, { lastEventId: first.events[2]!.id });
      const full = await readProgress(api, a, id);
      const ids = [...first.events, ...rest.events].map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(full.events.map((e) => e.id));
      expect([...first.events, ...rest.events].map((e) => e.data)).toEqual(
        full.events.map((e) => e.data),
      );
      expectStepsInOrder(full.events);
    } finally {
      await workers.close();
      await api.close();
    }
  });

  it('a lookup-only recorded app (To Do List Widget) audits the same way, unreadable fields judged with low confidence', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    const workers = await startWorkers(database, redis);
    try {
      const a = await createTestUser(database.db, 'todo@example.com');
      const id = await analyze(api, a, {
        appStoreUrl: 'https://apps.apple.com/us/app/to-do-list-widget/id1585508533',
        competitorUrl1: TIKTOK_URL,
      });
      const { events } = await readProgress(api, a, id);
      expectStepsInOrder(events);
      const audit = ZAudit.parse(
        (
          await api.app.inject({ method: 'GET', url: `/api/audit/${id}`, headers: a.headers })
        ).json(),
      );
      const lookup = recordedLookup('itunes-lookup_us_todo-list-widget_id1585508533_2026-06.json');
      expect(audit).toMatchObject({
        status: 'done',
        appName: lookup.trackName,
        category: lookup.primaryGenreName,
        reviewCount: String(lookup.userRatingCount),
        screenshots: lookup.screenshotUrls,
      });
      expect(audit.screenshots).toHaveLength(10);
      expect(audit.structuredAnalysis!.screenshots.score).toBe(100);
      // What no source could read is not judged: no score, left out of the overall score.
      expect(audit.structuredAnalysis!.subtitle).toMatchObject({ confidence: 'low', score: null });
      expect(audit.structuredAnalysis!.video).toMatchObject({ confidence: 'low', score: null });
      // The lookup gives the release date, size and devices of the new sections.
      expect(audit.structuredAnalysis!.appSize.score).toBe(100);
      expect(audit.structuredAnalysis!.compatibility.analysis).toContain(
        'The store lists the app for iPhone, iPad and Apple Watch.',
      );
    } finally {
      await workers.close();
      await api.close();
    }
  });

  it('an app recorded only as a 2025 page of the KR storefront audits: storefront texts as shown, unread fields null and named', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    const workers = await startWorkers(database, redis);
    try {
      const a = await createTestUser(database.db, 'kr@example.com');
      const id = await analyze(api, a, {
        appStoreUrl: 'https://apps.apple.com/kr/app/floating-clock/id1546947240',
      });
      const { events } = await readProgress(api, a, id);
      expectStepsInOrder(events);
      const audit = ZAudit.parse(
        (
          await api.app.inject({ method: 'GET', url: `/api/audit/${id}`, headers: a.headers })
        ).json(),
      );
      // The values the recorded kr page shows (fixtures LAYOUTS.md).
      expect(audit).toMatchObject({
        status: 'done',
        storefront: 'kr',
        appName: '플로팅 시계-특가 도우미',
        subtitle: '밀리초·실시간 속도·알림',
        developer: 'Hangzhou OrangeJuice Technology Co., Ltd.',
        category: '생산성',
        ageRating: '전체',
        price: { amount: 0, currency: 'KRW', formatted: null },
        // The trimmed page has no ratings, description or screenshots, and no lookup record.
        rating: null,
        reviewCount: null,
        description: null,
        screenshots: [],
      });
      expect(audit.languages).toHaveLength(11);
      expect(audit.languages![0]).toBe('한국어');
      expect(audit.storeData).toMatchObject({
        layout: '2025',
        pageLanguage: 'ko',
        sources: { lookup: { status: 'not_found' }, page: { status: 'ok' } },
      });
      expect(audit.storeData!.fields.rating).toEqual({
        state: 'unreadable',
        source: null,
        reason: 'not found on the 2025 page; lookup: app not listed',
      });
      // The title is judged in characters as the storefront shows them.
      expect(audit.structuredAnalysis!.title.analysis).toContain('13 of 30 characters');
      // Size and compatibility come from the page's Information rows (크기 142.3 MB, 호환성).
      expect(audit.structuredAnalysis!.appSize.score).toBe(100);
      expect(audit.structuredAnalysis!.appSize.analysis).toContain('142.3 MB');
      expect(audit.structuredAnalysis!.compatibility.score).not.toBeNull();
      expect(audit.structuredAnalysis!.compatibility.analysis).toContain('iOS 15.4 or later');
      // Screenshots, rating and reviews were not read: no score and no advice built on them.
      for (const key of ['screenshots', 'rating', 'reviews'] as const)
        expect(audit.structuredAnalysis![key]).toMatchObject({ score: null, improvements: [] });
      expect(audit.recommendations).not.toContain('Upload iPhone screenshots');
      expect(
        (JSON.parse(audit.recommendations!) as Array<{ section: string }>).map((r) => r.section),
      ).not.toContain('screenshots');
    } finally {
      await workers.close();
      await api.close();
    }
  });

  it('the same analyze request sent twice concurrently gives two audits, each finalised once', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    const workers = await startWorkers(database, redis);
    const conn = createRedis(redis.url, { role: 'producer' });
    try {
      const a = await createTestUser(database.db, 'twice@example.com');
      const body = { appStoreUrl: TIKTOK_URL, competitorUrl1: SPOTIFY_URL };
      const [x, y] = await Promise.all([analyze(api, a, body), analyze(api, a, body)]);
      expect(x).not.toBe(y);
      const [ex, ey] = await Promise.all([readProgress(api, a, x), readProgress(api, a, y)]);
      expectStepsInOrder(ex.events);
      expectStepsInOrder(ey.events);
      const bus = new ProgressBus(conn, { prefix: redis.prefix });
      for (const id of [x, y]) {
        const entries = await bus.read(id);
        expect(entries.filter((e) => e.event.type === 'complete')).toHaveLength(1);
        expect(
          entries.filter(
            (e) =>
              e.event.type === 'step' &&
              e.event.step.step_id === 'finalize' &&
              e.event.step.status === 'done',
          ),
        ).toHaveLength(1);
      }
      const rows = await database.db
        .selectFrom('audits')
        .select(['id', 'status'])
        .where('id', 'in', [x, y])
        .execute();
      expect(rows.map((r) => r.status)).toEqual(['done', 'done']);
    } finally {
      conn.disconnect();
      await workers.close();
      await api.close();
    }
  });

  it('a scraper process killed mid-job (SIGKILL) leaves an audit that completes once after the stall interval', async ({
    database,
    redis,
  }) => {
    // Each store answer takes 0.8 s, so the killed process is surely inside the job.
    const replay = await startReplayServer({
      port: 0,
      fixturesDir: appstoreFixturesDir(),
      defaultDelayMs: 800,
    });
    const stall = { LOCK_DURATION_MS: '1500', STALLED_INTERVAL_MS: '1000' };
    const api = await startApi(database, redis);
    const workers = await startWorkers(database, redis, { scraper: false, env: stall });
    const env = {
      ...process.env,
      ...workerEnv(database, redis, replay.url),
      ...stall,
      CONCURRENCY: '1',
    };
    // `node --import tsx` runs the worker in this one process (the tsx CLI would start a child
    // process that a SIGKILL of the CLI leaves running).
    const child = spawn(
      process.execPath,
      ['--conditions=@aso/source', '--import', 'tsx', 'services/scraper/src/main.ts'],
      {
        cwd: REPO_ROOT,
        env,
        stdio: 'ignore',
      },
    );
    const conn = createRedis(redis.url, { role: 'worker' });
    let rescuer: Awaited<ReturnType<typeof startScraper>> | null = null;
    try {
      const a = await createTestUser(database.db, 'killed@example.com');
      const id = await analyze(api, a, { appStoreUrl: RIVIAN_URL });
      const bus = new ProgressBus(conn, { prefix: redis.prefix });
      // Wait until the child process is reading the store for this app.
      await expect
        .poll(
          async () =>
            (await bus.read(id)).some(
              (e) =>
                e.event.type === 'app_step' &&
                e.event.step_id === 'scrape' &&
                e.event.status === 'in_progress',
            ),
          { timeout: 30_000, interval: 100 },
        )
        .toBe(true);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));

      rescuer = await startScraper(
        parseScraperEnv({ ...workerEnv(database, redis, replay.url), ...stall }),
        { handleSignals: false, log: pino({ level: 'silent' }) },
      );
      const { events } = await readProgress(api, a, id, { timeoutMs: 50_000 });
      expectStepsInOrder(events);
      const entries = await bus.read(id);
      // The job ran twice (the killed run and the rescue), the audit finished once.
      expect(
        entries.filter(
          (e) =>
            e.event.type === 'app_step' &&
            e.event.step_id === 'url_validation' &&
            e.event.status === 'in_progress',
        ),
      ).toHaveLength(2);
      expect(entries.filter((e) => e.event.type === 'complete')).toHaveLength(1);
      const row = await database.db
        .selectFrom('audits')
        .select(['status'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('done');
      const job = await new Producers(conn, redis.prefix)
        .queue('scrape')
        .getJob(`${id}:scrape:1570215232`);
      expect(await job?.getState()).toBe('completed');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await rescuer?.close();
      conn.disconnect();
      await workers.close();
      await api.close();
      await replay.close();
    }
  }, 90_000);

  it('the CLI signs in, shows every step and prints the audit; an unknown app exits 1 with the message', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    const workers = await startWorkers(database, redis);
    try {
      await database.db
        .insertInto('access_codes')
        .values({ code: canonicalAccessCode('CLI1-TEST-CODE-0001'), max_uses: 5 })
        .execute();
      const env = parseCliEnv({
        ASO_API_URL: api.url,
        ASO_EMAIL: 'cli@example.com',
        ASO_ACCESS_CODE: 'CLI1-TEST-CODE-0001',
      });
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
      const code = await runCli(
        ['audit', SPOTIFY_URL, '--competitor', INSTAGRAM_URL, '--competitor', TIKTOK_URL, '--json'],
        env,
        io,
      );
      expect([code, err.filter((l) => l.startsWith('Analysis failed'))]).toEqual([0, []]);
      for (const id of STEP_IDS) expect(err.some((l) => l.includes(`✓ ${id}`))).toBe(true);
      const audit = ZAudit.parse(JSON.parse(out.join('\n')));
      expect(audit).toMatchObject({ status: 'done', appName: 'Spotify: Music and Podcasts' });
      expect(audit.competitorData.map((c) => c.appId)).toEqual(['389801252', '835599320']);

      // The first run registered with the access code and told the personal sign-in code.
      const told = err
        .map((l) => /personal sign-in code is ([0-9A-Z-]+)/.exec(l)?.[1])
        .find(Boolean);
      expect(told).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
      const signedUp = { ...env, ASO_ACCESS_CODE: told! };
      // Readable text, second run (logs in again as the same user, with that code).
      const text: string[] = [];
      expect(
        await runCli(['audit', SPOTIFY_URL], signedUp, {
          out: (t) => text.push(t),
          err: () => undefined,
        }),
      ).toBe(0);
      const printed = text.join('\n');
      expect(printed).toContain('Spotify: Music and Podcasts - Songs, Playlists & Audiobooks');
      expect(printed).toMatch(
        new RegExp(
          `Overall score: \\d+/100 from \\d+ of 15 sections \\(heuristic analysis, rules ${RULES_VERSION.replace(/\./g, '\\.')}\\)`,
        ),
      );
      expect(printed).toContain('Recommendations');
      // Every section, the new ones after the first nine, each scored or "not judged".
      for (const label of [
        'Title',
        'IAE',
        'Description',
        'Updates',
        'Localization',
        'Reviews',
        'App Size',
        'Compatibility',
      ])
        expect(printed).toMatch(new RegExp(`^  ${label} +(\\d+/100|not judged)  \\(`, 'm'));
      expect(printed).toMatch(/rules failed: [a-zA-Z]+\.[a-z-]+ \(-\d+\)/);

      const failed: string[] = [];
      const bad = await runCli(['audit', 'https://apps.apple.com/us/app/x/id999999999'], signedUp, {
        out: () => undefined,
        err: (t) => failed.push(t),
      });
      expect(bad).toBe(1);
      expect(failed.at(-1)).toBe('Analysis failed: App not found in the US App Store');
      const invalid: string[] = [];
      expect(
        await runCli(['audit', 'https://example.com/app'], signedUp, {
          out: () => undefined,
          err: (t) => invalid.push(t),
        }),
      ).toBe(1);
      expect(invalid.at(-1)).toBe(
        'Analysis failed: 400: App Store link: Please enter a valid App Store URL (apps.apple.com)',
      );
      expect(await runCli(['bogus'], env, io)).toBe(2);
    } finally {
      await workers.close();
      await api.close();
    }
  });
});
