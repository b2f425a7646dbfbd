/**
 * The scraper worker end to end (docs/product.md#how-an-audit-runs): a real BullMQ worker started
 * with `startScraper` in this process, jobs added with a real Queue under this file's Redis prefix,
 * results awaited with QueueEvents, snapshots in this file's PostgreSQL database, and the store
 * played by the replay server over loopback from `<FIXTURES_DIR>/appstore`. Nothing is mocked.
 *
 * The tests run in order and share the snapshots they store (first scrape of every recorded app,
 * then cache hits, bypass, history, deletion, failure paths).
 */
import { randomUUID } from 'node:crypto';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import { it as integrationIt } from '@aso/testkit/vitest';
import {
  buildAppStoreUrl,
  DEFAULT_FIXTURES_DIR,
  detectListingChanges,
  fetchAppListing,
  parseRecordingName,
  startReplayServer,
  type TReplayServer,
} from '@aso/appstore/node';
import { SCRAPE_STEP_IDS, ZAppListing, type TAppListing, type TBusEvent } from '@aso/contracts';
import {
  retireSnapshotsForApp,
  findLatestSnapshotPair,
  listSnapshotHistory,
  type TDb,
} from '@aso/db';
import {
  createRedis,
  JOBS,
  ProgressBus,
  scrapeJobId,
  type Job,
  type Queue,
  type TScrapeJob,
  type TWorkerService,
} from '@aso/queue';
import { openTestQueues } from '@aso/testkit';
import { parseWorkerEnv } from '../src/env';
import { startScraper } from '../src/service';
import { constructLookupUpdate, CONSTRUCTED_UPDATE } from './fixtures/constructed-lookup-update';

/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment,
   @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return,
   @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- raw recordings are untyped JSON */

const APPSTORE_DIR = path.join(
  process.env.FIXTURES_DIR && process.env.FIXTURES_DIR !== ''
    ? process.env.FIXTURES_DIR
    : DEFAULT_FIXTURES_DIR,
  'appstore',
);

interface RecordedApp {
  appId: string;
  storefront: string;
  slug: string;
  lookup?: string;
  media?: string;
  reviews?: string;
}

/** Every app of the recordings folder that the store knows (a lookup or a product page). */
function recordedApps(): RecordedApp[] {
  const apps = new Map<string, RecordedApp>();
  for (const file of readdirSync(APPSTORE_DIR).sort()) {
    const rec = parseRecordingName(file);
    if (!rec) continue;
    const key = `${rec.storefront}:${rec.appId}`;
    const app = apps.get(key) ?? { appId: rec.appId, storefront: rec.storefront, slug: rec.slug };
    // Later capture dates win, as in the replay server.
    if (rec.kind === 'itunes-lookup') app.lookup = file;
    if (rec.kind === 'media-api') app.media = file;
    if (rec.kind === 'reviews-rss') app.reviews = file;
    apps.set(key, app);
  }
  return [...apps.values()].filter((a) => a.lookup || a.media);
}

const readJson = (file: string): any =>
  JSON.parse(readFileSync(path.join(APPSTORE_DIR, file), 'utf8'));
const rawLookup = (file: string): any => readJson(file).results[0];
const rawMedia = (file: string): any =>
  JSON.parse(Object.values(readJson(file) as Record<string, string>)[0]!).d[0];

type AppStep = Extract<TBusEvent, { type: 'app_step' }>;

interface Outcome {
  job: Job;
  auditId: string;
  listing: TAppListing | null;
  failedReason: string | null;
  steps: AppStep[];
}

interface Harness {
  store: TReplayServer;
  queue: Queue;
  db: TDb;
  prefix: string;
  bus: ProgressBus;
  /** Starts one more scraper process-like worker service on the same queue. */
  startAnotherScraper(): Promise<TWorkerService>;
  /** Adds a scrape job with the catalog's options (its id is `<auditId>:scrape:<appId>`). */
  add(data: Partial<TScrapeJob> & { appId: string }): Promise<Job>;
  /** Waits for a job added by `add` to complete or fail, and reads its step events. */
  settle(job: Job): Promise<Outcome>;
  /** `add` then `settle`. */
  run(data: Partial<TScrapeJob> & { appId: string }): Promise<Outcome>;
  /** The scraper's `/metrics` exposition (Prometheus text format). */
  metricsText(): Promise<string>;
  close(): Promise<void>;
}

/** Store settings of this file: one try per request, so each job attempt is one request per source. */
const TEST_ENV = {
  LOG_LEVEL: 'silent',
  HEALTH_PORT: '0',
  CONCURRENCY: '2',
  STORE_TIMEOUT_MS: '5000',
  STORE_RETRY_ATTEMPTS: '1',
  STORE_RETRY_BASE_DELAY_MS: '10',
};

async function startHarness(opts: {
  databaseUrl: string;
  db: TDb;
  redisUrl: string;
  prefix: string;
  fixturesDir: string;
}): Promise<Harness> {
  const store = await startReplayServer({ port: 0, fixturesDir: opts.fixturesDir });
  const env = parseWorkerEnv({
    ...TEST_ENV,
    DATABASE_URL: opts.databaseUrl,
    REDIS_URL: opts.redisUrl,
    QUEUE_PREFIX: opts.prefix,
    ITUNES_ORIGIN: store.url,
    APP_STORE_ORIGIN: store.url,
  });
  const service: TWorkerService = await startScraper(env, { handleSignals: false });
  const queues = openTestQueues({ url: opts.redisUrl, prefix: opts.prefix });
  const queue = queues.producers.queue(JOBS.scrape.queue);
  const events = await queues.events(JOBS.scrape.queue);
  const busConnection = createRedis(opts.redisUrl, { role: 'worker' });
  const bus = new ProgressBus(busConnection, { prefix: opts.prefix });

  const extra: TWorkerService[] = [];
  const harness: Harness = {
    store,
    queue,
    db: opts.db,
    prefix: opts.prefix,
    bus,
    async startAnotherScraper() {
      const another = await startScraper(env, { handleSignals: false });
      extra.push(another);
      return another;
    },
    async add(overrides) {
      const auditId = randomUUID();
      const data: TScrapeJob = {
        auditId,
        storefront: 'us',
        role: 'main',
        appStoreUrl: buildAppStoreUrl(overrides.appId, overrides.storefront ?? 'us'),
        ...overrides,
      };
      return queues.producers.add('scrape', data, { jobId: scrapeJobId(auditId, data.appId) });
    },
    async run(overrides) {
      return harness.settle(await harness.add(overrides));
    },
    async metricsText() {
      const res = await fetch(`http://127.0.0.1:${service.healthPort}/metrics`);
      return res.text();
    },
    async settle(job) {
      const { auditId } = job.data as TScrapeJob;
      let listing: TAppListing | null = null;
      let failedReason: string | null = null;
      try {
        listing = ZAppListing.parse(await job.waitUntilFinished(events, 60_000));
      } catch (error) {
        failedReason = (error as Error).message;
      }
      const final = (await queue.getJob(job.id!))!;
      const steps = (await bus.read(auditId))
        .map((e) => e.event)
        .filter((e): e is AppStep => e.type === 'app_step');
      return { job: final, auditId, listing, failedReason, steps };
    },
    async close() {
      await Promise.all(extra.map((w) => w.close()));
      await service.close();
      await queues.close();
      busConnection.disconnect();
      await store.close();
    },
  };
  return harness;
}

const it = integrationIt.extend<{ $file: { scraper: Harness } }>({
  scraper: [
    async ({ database, redis }, use) => {
      const h = await startHarness({
        databaseUrl: database.url,
        db: database.db,
        redisUrl: redis.url,
        prefix: redis.prefix,
        fixturesDir: APPSTORE_DIR,
      });
      await use(h);
      await h.close();
    },
    { scope: 'file' },
  ],
});

const ALL_STEPS_DONE = SCRAPE_STEP_IDS.flatMap((id) => [`${id}:in_progress`, `${id}:done`]);
const statuses = (steps: AppStep[]) => steps.map((s) => `${s.step_id}:${s.status}`);
const stepDone = (steps: AppStep[], id: string) =>
  steps.find((s) => s.step_id === id && s.status === 'done');
const withoutFetchedAt = (l: TAppListing) => ({ ...l, fetchedAt: '' });

const apps = recordedApps();
const spotify = apps.find((a) => a.media && a.lookup) ?? apps[0]!;
const lookupOnly = apps.find((a) => a.lookup && !a.media) ?? apps[0]!;

describe('the recordings folder', () => {
  it('holds apps to scrape, with and without a product page recording', () => {
    expect(apps.length).toBeGreaterThan(0);
    expect(apps.some((a) => a.media)).toBe(true);
    expect(apps.some((a) => a.lookup && !a.media)).toBe(true);
  });
});

describe.each(apps)('scrape job for recorded app $slug (id$appId, $storefront)', (app) => {
  it('returns the recorded listing, reports the seven steps and stores a snapshot', async ({
    scraper,
  }) => {
    const before = Date.now();
    const out = await scraper.run({
      appId: app.appId,
      storefront: app.storefront,
      appStoreUrl: buildAppStoreUrl(app.appId, app.storefront, app.slug),
    });
    expect(out.failedReason).toBeNull();
    const listing = out.listing!;

    // The same listing the store client builds from the same recordings.
    const direct = await fetchAppListing({
      appId: app.appId,
      storefront: app.storefront,
      itunesOrigin: scraper.store.url,
      appStoreOrigin: scraper.store.url,
    });
    expect(withoutFetchedAt(listing)).toEqual(withoutFetchedAt(direct.listing));

    // And fields read straight from the recordings.
    expect(listing.appId).toBe(app.appId);
    expect(listing.storefront).toBe(app.storefront);
    if (app.media) {
      const a = rawMedia(app.media).attributes;
      expect(listing.sourceLayout).toBe('ember');
      expect(listing.appName).toBe(a.name);
      expect(listing.developer).toBe(a.artistName);
      expect(listing.reviewCount).toBe(String(a.userRating.ratingCount));
      expect(Number(listing.rating).toFixed(2)).toBe(Number(a.userRating.value).toFixed(2));
      expect(listing.subtitle).toBe(a.platformAttributes.ios.subtitle ?? null);
      const events: any[] = rawMedia(app.media).relationships['app-events']?.data ?? [];
      expect(listing.inAppEvents.map((e) => e.eventName)).toEqual(
        events.map((e) => e.attributes.name),
      );
    } else {
      const r = rawLookup(app.lookup!);
      expect(listing.sourceLayout).toBe('none');
      expect(listing.appName).toBe(r.trackName);
      expect(listing.developer).toBe(r.artistName);
      expect(listing.reviewCount).toBe(String(r.userRatingCount));
      expect(Number(listing.rating).toFixed(2)).toBe(Number(r.averageUserRating).toFixed(2));
      expect(listing.screenshots.iphone?.screenshots.map((s) => s.url) ?? []).toEqual(
        r.screenshotUrls ?? [],
      );
      expect(listing.screenshots.ipad?.screenshots.length ?? 0).toBe(
        (r.ipadScreenshotUrls ?? []).length,
      );
    }

    // The seven steps, in order, each in_progress then done, for this app.
    expect(statuses(out.steps)).toEqual(ALL_STEPS_DONE);
    let last = before;
    for (const s of out.steps) {
      expect(s).toMatchObject({ appId: app.appId, role: 'main' });
      expect(new Date(s.at).toISOString()).toBe(s.at);
      expect(s.emittedAt).toBeGreaterThanOrEqual(last);
      expect(s.emittedAt).toBeLessThanOrEqual(Date.now());
      last = s.emittedAt;
    }
    expect(stepDone(out.steps, 'cache_check')).toMatchObject({
      message: 'No fresh snapshot; scraping',
      cacheHit: false,
    });
    expect(stepDone(out.steps, 'scrape')!.message).toMatch(
      /; snapshot stored\. Store data: (Ember page layout \(en-US\)|no product page \(404\)), lookup/,
    );
    const shots = stepDone(out.steps, 'screenshot_analysis')!.message;
    if (listing.screenshots.iphone) {
      const set = listing.screenshots.iphone.screenshots;
      expect(shots).toContain(`iPhone ${set.length} (`);
      if (set[0]!.width > 0) expect(shots).toContain(`${set[0]!.width}x${set[0]!.height}`);
    }
    const previews = stepDone(out.steps, 'preview_video_detection')!.message;
    if (listing.unknownFields.includes('previews')) {
      expect(previews).toBe('Preview videos unknown (no source read lists them)');
    } else if (listing.previews.length === 0) {
      expect(previews).toBe('No preview video');
    } else {
      expect(previews).toMatch(new RegExp(`^${listing.previews.length} preview videos?: `));
    }
    const events = stepDone(out.steps, 'in_app_events')!.message;
    if (listing.unknownFields.includes('inAppEvents')) {
      expect(events).toBe('In-app events unknown (no source read lists them)');
    } else if (listing.inAppEvents.length === 0) {
      expect(events).toBe('No in-app events');
    } else {
      for (const e of listing.inAppEvents)
        expect(events).toContain(`"${e.eventName}" (${e.timeIndicator})`);
    }

    // Stored as the app's first snapshot.
    const history = await listSnapshotHistory(scraper.db, app.appId, app.storefront);
    expect(history).toHaveLength(1);
    expect(history[0]!.listing).toEqual(listing);
    expect(history[0]!.source_layout).toBe(listing.sourceLayout);
    expect(history[0]!.app_name).toBe(listing.appName);
    expect(history[0]!.fetched_at.toISOString()).toBe(listing.fetchedAt);
  });
});

describe('cache and history', () => {
  it('reuses a fresh snapshot on the second run without asking the store', async ({ scraper }) => {
    const [stored] = await listSnapshotHistory(scraper.db, spotify.appId, spotify.storefront);
    const requests = scraper.store.requestCount;
    const out = await scraper.run({ appId: spotify.appId });

    expect(scraper.store.requestCount).toBe(requests);
    expect(out.listing).toEqual(stored!.listing);
    expect(statuses(out.steps)).toEqual(ALL_STEPS_DONE);
    expect(stepDone(out.steps, 'cache_check')).toMatchObject({
      message: `Cache hit: snapshot from ${stored!.fetched_at.toISOString()}`,
      cacheHit: true,
    });
    expect(stepDone(out.steps, 'scrape')!.message).toBe('from cache');
    for (const id of SCRAPE_STEP_IDS.slice(3)) {
      expect(stepDone(out.steps, id)!.message).toMatch(/^from cache: /);
    }
    expect(await listSnapshotHistory(scraper.db, spotify.appId, 'us')).toHaveLength(1);
  });

  it('scrapes again with bypassCache and keeps both snapshots; the latest two diff to nothing', async ({
    scraper,
  }) => {
    const requests = scraper.store.requestCount;
    const out = await scraper.run({ appId: spotify.appId, bypassCache: true });

    // lookup, product page and reviews feed: one request each.
    expect(scraper.store.requestCount).toBe(requests + 3);
    expect(stepDone(out.steps, 'cache_check')).toMatchObject({
      message: 'Cache bypassed on request; scraping',
      cacheHit: false,
    });
    const history = await listSnapshotHistory(scraper.db, spotify.appId, 'us');
    expect(history).toHaveLength(2);
    expect(history[0]!.listing).toEqual(out.listing);

    const pair = await findLatestSnapshotPair(scraper.db, spotify.appId, 'us');
    expect(pair!.latest.id).toBe(history[0]!.id);
    expect(pair!.previous!.id).toBe(history[1]!.id);
    const previous = ZAppListing.parse(pair!.previous!.listing);
    const latest = ZAppListing.parse(pair!.latest.listing);
    expect(latest.fetchedAt > previous.fetchedAt).toBe(true);
    // Same recordings, same listing: only the fetch time differs, which the diff ignores.
    expect(detectListingChanges(previous, latest)).toEqual([]);
  });

  it('retireSnapshotsForApp (the cache clear) makes the next job scrape again and keeps the history', async ({
    scraper,
  }) => {
    const others = await listSnapshotHistory(scraper.db, lookupOnly.appId, lookupOnly.storefront);
    expect(await retireSnapshotsForApp(scraper.db, spotify.appId)).toBe(2);
    expect(await listSnapshotHistory(scraper.db, spotify.appId, 'us')).toHaveLength(2);
    // Other apps keep theirs.
    expect(await listSnapshotHistory(scraper.db, lookupOnly.appId, lookupOnly.storefront)).toEqual(
      others,
    );

    const requests = scraper.store.requestCount;
    const out = await scraper.run({ appId: spotify.appId });
    expect(scraper.store.requestCount).toBe(requests + 3);
    expect(stepDone(out.steps, 'cache_check')).toMatchObject({ cacheHit: false });
    expect(await listSnapshotHistory(scraper.db, spotify.appId, 'us')).toHaveLength(3);
    expect(await retireSnapshotsForApp(scraper.db, '999999999')).toBe(0);
  });

  it('diffs the latest two snapshots when the store data changed', async ({
    scraper,
    database,
    redis,
  }) => {
    // A folder of links to the real recordings of one app, plus (later) a CONSTRUCTED newer
    // lookup answer: the replay server serves the newest capture date.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'scraper-history-'));
    const files = [lookupOnly.lookup, lookupOnly.reviews].filter((f): f is string => !!f);
    for (const f of files) symlinkSync(path.join(APPSTORE_DIR, f), path.join(dir, f));
    const second = await startHarness({
      databaseUrl: database.url,
      db: scraper.db,
      redisUrl: redis.url,
      prefix: `${redis.prefix}:history`,
      fixturesDir: dir,
    });
    try {
      await retireSnapshotsForApp(scraper.db, lookupOnly.appId);
      const first = await second.run({ appId: lookupOnly.appId });
      expect(first.failedReason).toBeNull();

      const newer = `itunes-lookup_${lookupOnly.storefront}_${lookupOnly.slug}_id${lookupOnly.appId}_9999-12.json`;
      writeFileSync(
        path.join(dir, newer),
        constructLookupUpdate(readFileSync(path.join(APPSTORE_DIR, lookupOnly.lookup!), 'utf8')),
      );
      const updated = await second.run({ appId: lookupOnly.appId, bypassCache: true });
      expect(updated.listing!.version).toBe(CONSTRUCTED_UPDATE.version);

      const pair = await findLatestSnapshotPair(
        scraper.db,
        lookupOnly.appId,
        lookupOnly.storefront,
      );
      const changes = detectListingChanges(
        ZAppListing.parse(pair!.previous!.listing),
        ZAppListing.parse(pair!.latest.listing),
      );
      const raw = rawLookup(lookupOnly.lookup!);
      expect(changes).toEqual([
        { field: 'version', before: raw.version, after: CONSTRUCTED_UPDATE.version, detail: null },
        {
          field: 'releaseNotes',
          before: first.listing!.releaseNotes,
          after: CONSTRUCTED_UPDATE.releaseNotes,
          detail: null,
        },
      ]);
      expect(first.listing!.releaseNotes).not.toBe(CONSTRUCTED_UPDATE.releaseNotes);
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('failures', () => {
  it('a 429 pauses the whole queue (BullMQ rate limiter), then the job succeeds without using an attempt', async ({
    scraper,
  }) => {
    // Two scraper services on the queue: the pause must hold for both, not just the one that
    // saw the 429.
    await scraper.startAnotherScraper();
    scraper.store.setFaults([
      { pathIncludes: spotify.appId, status: 429, retryAfter: 1, failTimes: 1 },
    ]);
    try {
      const limited = await scraper.add({ appId: spotify.appId, bypassCache: true });
      const auditId = (limited.data as TScrapeJob).auditId;
      const pause = await vi.waitUntil(
        async () =>
          (await scraper.bus.read(auditId)).find(
            (e) => e.event.type === 'app_step' && e.event.message.includes('rate-limiting'),
          ),
        { timeout: 10_000, interval: 10 },
      );
      const pausedAt = pause.event.emittedAt;
      // The limiter key holds far more than the configured max (50) only under a manual limit.
      const ttl = await vi.waitUntil(
        async () => {
          const left = await scraper.queue.getRateLimitTtl(50);
          return left > 0 ? left : false;
        },
        { timeout: 1_000, interval: 5 },
      );
      expect(ttl).toBeLessThanOrEqual(1_000);

      // A job added during the pause (a cache hit, no store request) waits for its end.
      const other = await scraper.add({ appId: lookupOnly.appId });
      const [out, waited] = await Promise.all([scraper.settle(limited), scraper.settle(other)]);
      expect(waited.failedReason).toBeNull();
      expect(waited.job.processedOn! - pausedAt).toBeGreaterThanOrEqual(900);

      expect(out.failedReason).toBeNull();
      expect(out.listing!.appName).toBe(rawMedia(spotify.media!).attributes.name);
      expect(out.job.processedOn! - pausedAt).toBeGreaterThanOrEqual(900);
      // Two runs, one counted attempt: the rate-limited run was put back, not failed.
      expect(out.job.attemptsStarted).toBe(2);
      expect(out.job.attemptsMade).toBe(1);
      const scrapeSteps = out.steps.filter((s) => s.step_id === 'scrape');
      expect(scrapeSteps.map((s) => [s.status, s.message])).toEqual([
        ['in_progress', 'Scraping the App Store page'],
        ['in_progress', 'The App Store is rate-limiting requests; waiting 1 s'],
        ['in_progress', 'Scraping the App Store page'],
        ['done', expect.stringMatching(/; snapshot stored\. Store data: /)],
      ]);
    } finally {
      scraper.store.setFaults([]);
    }
  });

  it('500 on every try fails clearly after the catalog attempts (3)', async ({ scraper }) => {
    scraper.store.setFaults([{ status: 500 }]);
    try {
      const snapshots = (await listSnapshotHistory(scraper.db, spotify.appId, 'us')).length;
      const requests = scraper.store.requestCount;
      const out = await scraper.run({ appId: spotify.appId, bypassCache: true });

      const reason = `Could not read the App Store data of app ${spotify.appId} (US): lookup: HTTP 500, product page: HTTP 500. Please try again later.`;
      expect(out.failedReason).toBe(reason);
      expect(out.job.failedReason).toBe(reason);
      expect(JOBS.scrape.options.attempts).toBe(3);
      expect(out.job.attemptsMade).toBe(3);
      // Three attempts of three requests (lookup, page, reviews), each tried once by the client.
      expect(scraper.store.requestCount).toBe(requests + 9);
      const scrapeSteps = out.steps.filter((s) => s.step_id === 'scrape');
      expect(scrapeSteps.map((s) => s.status)).toEqual([
        'in_progress',
        'in_progress',
        'in_progress',
        'in_progress',
        'in_progress',
        'error',
      ]);
      expect(scrapeSteps[1]!.message).toMatch(/; retrying \(attempt 1 of 3 failed\)$/);
      expect(scrapeSteps.at(-1)!.message).toBe(reason);
      expect(await listSnapshotHistory(scraper.db, spotify.appId, 'us')).toHaveLength(snapshots);
    } finally {
      scraper.store.setFaults([]);
    }
  });

  it('an app the store does not know fails at once, without retries', async ({ scraper }) => {
    const unknownId = '1000000001';
    expect(apps.some((a) => a.appId === unknownId)).toBe(false);
    const out = await scraper.run({ appId: unknownId });

    expect(out.failedReason).toBe('App not found in the US App Store');
    expect(out.job.attemptsMade).toBe(1);
    expect(out.job.attemptsStarted).toBe(1);
    expect(await out.job.getState()).toBe('failed');
    expect(statuses(out.steps)).toEqual([
      'url_validation:in_progress',
      'url_validation:done',
      'cache_check:in_progress',
      'cache_check:done',
      'scrape:in_progress',
      'scrape:error',
    ]);
    expect(out.steps.at(-1)!.message).toBe('App not found in the US App Store');
    expect(await listSnapshotHistory(scraper.db, unknownId, 'us')).toEqual([]);
  });

  it('refuses a redirect to another host, never fetching it, and fails at once', async ({
    scraper,
  }) => {
    let stolen = 0;
    const other: Server = createServer((_req, res) => {
      stolen += 1;
      res.end('{}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    scraper.store.setFaults([{ redirectTo: `${otherOrigin}/steal` }]);
    try {
      const out = await scraper.run({ appId: spotify.appId, bypassCache: true });
      expect(out.failedReason).toBe(
        `Could not read the App Store data of app ${spotify.appId} (US): ` +
          `lookup: redirect to ${otherOrigin} refused (only the configured App Store origins are fetched), ` +
          `product page: redirect to ${otherOrigin} refused (only the configured App Store origins are fetched)`,
      );
      expect(out.job.attemptsMade).toBe(1);
      expect(stolen).toBe(0);
      expect(out.steps.at(-1)).toMatchObject({ step_id: 'scrape', status: 'error' });
    } finally {
      scraper.store.setFaults([]);
      await new Promise<void>((r) => other.close(() => r()));
    }
  });

  it('returns a listing built from the lookup when the product page fails, but does not cache it', async ({
    scraper,
  }) => {
    scraper.store.setFaults([{ pathIncludes: `/app/id${spotify.appId}`, status: 503 }]);
    try {
      const before = await listSnapshotHistory(scraper.db, spotify.appId, 'us');
      const out = await scraper.run({ appId: spotify.appId, bypassCache: true });

      expect(out.failedReason).toBeNull();
      expect(out.listing!.sourceLayout).toBe('none');
      expect(out.listing!.appName).toBe(rawLookup(spotify.lookup!).trackName);
      expect(out.listing!.unknownFields).toContain('inAppEvents');
      expect(stepDone(out.steps, 'scrape')!.message).toMatch(
        /; not cached: product page HTTP 503\. Store data: product page failed \(HTTP 503\), lookup, reviews feed\./,
      );
      expect(await listSnapshotHistory(scraper.db, spotify.appId, 'us')).toEqual(before);
    } finally {
      scraper.store.setFaults([]);
    }
  });

  it('fails url_validation at once for a URL that is not the App Store, asking nothing', async ({
    scraper,
  }) => {
    const requests = scraper.store.requestCount;
    const out = await scraper.run({
      appId: spotify.appId,
      appStoreUrl: `https://apps.apple.com.evil.com/us/app/id${spotify.appId}`,
    });
    expect(out.failedReason).toBe('Enter a valid App Store URL.');
    expect(out.job.attemptsMade).toBe(1);
    expect(statuses(out.steps)).toEqual(['url_validation:in_progress', 'url_validation:error']);
    expect(out.steps[1]!.message).toBe('Enter a valid App Store URL.');
    expect(scraper.store.requestCount).toBe(requests);
  });
});

/** The value of `aso_store_fields_missing_total{layout,field}` in a metrics exposition (0 when absent). */
function missingCount(metrics: string, layout: string, field: string): number {
  const line = metrics
    .split('\n')
    .find(
      (l) =>
        l.startsWith('aso_store_fields_missing_total{') &&
        l.includes(`layout="${layout}"`) &&
        l.includes(`field="${field}"`),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

const pageApps = readdirSync(APPSTORE_DIR)
  .map((file) => ({ file, rec: parseRecordingName(file) }))
  .filter(({ rec }) => rec?.kind === 'page2025' || rec?.kind === 'page2025-trimmed')
  .map(({ file, rec }) => ({ file, ...rec! }));

describe.each(pageApps)('scrape job for the recorded 2025 page $file', (app) => {
  it('reads it through the replay server: the storefront drives every request, the read is recorded', async ({
    scraper,
  }) => {
    const from = scraper.store.requests.length;
    const out = await scraper.run({
      appId: app.appId,
      storefront: app.storefront,
      appStoreUrl: buildAppStoreUrl(app.appId, app.storefront, app.slug),
    });
    expect(out.failedReason).toBeNull();
    const listing = out.listing!;
    expect(listing.sourceLayout).toBe('2025');
    expect(listing.storefront).toBe(app.storefront);
    const html = readFileSync(path.join(APPSTORE_DIR, app.file), 'utf8');
    const model = JSON.parse(
      /<script[^>]*id="serialized-server-data"[^>]*>([\s\S]*?)<\/script>/.exec(html)![1]!,
    ).data[0].data;
    expect(listing.appName).toBe(model.title);
    expect(listing.developer).toBe(model.developerAction.title);
    expect(listing.subtitle).toBe(model.lockup.subtitle);
    expect(listing.category).not.toBe('');
    expect(listing.ageRating).not.toBeNull();
    expect(listing.storeData?.sources.lookup.status).toBe('not_found');

    // Every request went to the page's storefront.
    const seen = scraper.store.requests
      .slice(from)
      .map(({ method, path, query }) => ({ method, path, query }));
    expect(seen).toEqual(
      expect.arrayContaining([
        {
          method: 'GET',
          path: '/lookup',
          query: { id: app.appId, country: app.storefront, entity: 'software' },
        },
        { method: 'GET', path: `/${app.storefront}/app/id${app.appId}`, query: {} },
        {
          method: 'GET',
          path: `/${app.storefront}/rss/customerreviews/id=${app.appId}/sortby=mostrecent/json`,
          query: {},
        },
      ]),
    );
    expect(seen.filter((r) => r.path.startsWith('/us/') || r.query.country === 'us')).toEqual([]);

    // The scrape step says what was read; the read is recorded with the page's missing fields.
    expect(stepDone(out.steps, 'scrape')!.message).toContain(
      `Store data: 2025 page layout (${listing.storeData!.pageLanguage!}), lookup: app not listed`,
    );
    const [read] = await scraper.db
      .selectFrom('store_reads')
      .selectAll()
      .where('app_id', '=', app.appId)
      .where('storefront', '=', app.storefront)
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(read).toMatchObject({ layout: '2025', page_status: 'ok', error: null });
    expect(read!.found_fields).toEqual(
      expect.arrayContaining(['appName', 'subtitle', 'developer', 'category', 'languages']),
    );
    expect(read!.missing_fields).toEqual(expect.arrayContaining(['rating', 'description']));
  });
});

describe('the drift alarm', () => {
  it('counts the fields a page lost, and a page no parser recognises, per layout', async ({
    scraper,
    database,
    redis,
  }) => {
    // CONSTRUCTED pages in a scratch folder: a recorded 2025 page with its category and
    // languages rows removed, and a page without any layout marker.
    const source = pageApps[0]!;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'scraper-drift-'));
    const html = readFileSync(path.join(APPSTORE_DIR, source.file), 'utf8');
    const script = /(<script[^>]*id="serialized-server-data"[^>]*>)([\s\S]*?)(<\/script>)/.exec(
      html,
    )!;
    const root = JSON.parse(script[2]!);
    const info = root.data[0].data.shelfMapping.information;
    info.items = info.items.filter(
      (row: any) =>
        !['Category', 'Languages', '카테고리', '언어', '類別', '语言', '語言', '类别'].includes(
          row.title,
        ),
    );
    const lostRows = `page2025_${source.storefront}_lost-rows_id${source.appId}_9999-01.html`;
    writeFileSync(
      path.join(dir, lostRows),
      html.slice(0, script.index) +
        script[1] +
        JSON.stringify(root) +
        script[3] +
        html.slice(script.index + script[0].length),
    );
    const unknownId = '1000000077';
    writeFileSync(
      path.join(dir, `page2025_us_no-marker_id${unknownId}_9999-01.html`),
      '<!DOCTYPE html><html lang="en-US"><head><title>Changed</title></head><body><main>New page</main></body></html>',
    );
    const drift = await startHarness({
      databaseUrl: database.url,
      db: scraper.db,
      redisUrl: redis.url,
      prefix: `${redis.prefix}:drift`,
      fixturesDir: dir,
    });
    try {
      const lost = await drift.run({
        appId: source.appId,
        storefront: source.storefront,
        bypassCache: true,
      });
      expect(lost.failedReason).toBeNull();
      expect(lost.listing!.unknownFields).toEqual(
        expect.arrayContaining(['category', 'languages']),
      );
      expect(lost.listing!.storeData!.fields.category).toEqual({
        state: 'unreadable',
        source: null,
        reason: 'not found on the 2025 page; lookup: app not listed',
      });
      const metrics = await drift.metricsText();
      expect(missingCount(metrics, '2025', 'category')).toBe(1);
      expect(missingCount(metrics, '2025', 'languages')).toBe(1);
      expect(missingCount(metrics, '2025', 'developer')).toBe(0);

      const unknown = await drift.run({ appId: unknownId, storefront: 'us' });
      expect(unknown.failedReason).toMatch(
        /Unknown App Store page layout: none of the known layout markers was found \(looked for .*shoebox-media-api-cache-apps.*serialized-server-data.*application\/ld\+json/,
      );
      const afterUnknown = await drift.metricsText();
      expect(missingCount(afterUnknown, 'unknown', 'appName')).toBe(1);
      expect(missingCount(afterUnknown, 'unknown', 'subtitle')).toBe(1);

      const latest = (appId: string, storefront: string) =>
        scraper.db
          .selectFrom('store_reads')
          .selectAll()
          .where('app_id', '=', appId)
          .where('storefront', '=', storefront)
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
      const lostRead = await latest(source.appId, source.storefront);
      expect(lostRead.missing_fields).toEqual(expect.arrayContaining(['category', 'languages']));
      const unknownRead = await latest(unknownId, 'us');
      expect(unknownRead).toMatchObject({ layout: 'unknown', page_status: 'failed' });
      expect(unknownRead.error).toMatch(/^product page: Unknown App Store page layout/);
      expect(unknownRead.missing_fields).toEqual(expect.arrayContaining(['appName', 'category']));
    } finally {
      await drift.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
