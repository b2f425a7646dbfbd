import { pino } from 'pino';
import { AppNotFoundError } from '@aso/appstore';
import {
  DEFAULT_FIXTURES_DIR,
  fetchAppListing,
  startReplayServer,
  type TReplayServer,
} from '@aso/appstore/node';
import { ZAuditInputs, type TAuditInputs, type TBusEvent } from '@aso/contracts';
import { insertAudit, type TDb } from '@aso/db';
import {
  createRedis,
  createTypedWorker,
  ProgressBus,
  Producers,
  UnrecoverableError,
  type TProgressEntry,
  type TRedisClient,
} from '@aso/queue';
import { parseWorkerEnv } from '../src/env';
import { startAnalyzer } from '../src/service';

export const SPOTIFY = {
  appId: '324684580',
  storefront: 'us',
  appStoreUrl: 'https://apps.apple.com/us/app/id324684580?platform=iphone',
};
export const INSTAGRAM = {
  appId: '389801252',
  storefront: 'us',
  appStoreUrl: 'https://apps.apple.com/us/app/id389801252?platform=iphone',
};
export const TIKTOK = {
  appId: '835599320',
  storefront: 'us',
  appStoreUrl: 'https://apps.apple.com/us/app/id835599320?platform=iphone',
};

/** Analyzer env of the openai provider against a local OpenAI-compatible server at `baseURL`. */
export const openAiEnv = (baseURL: string, extra: Record<string, string> = {}) => ({
  AI_PROVIDER: 'openai',
  OPENAI_API_KEY: 'sk-test-not-a-secret',
  OPENAI_BASE_URL: baseURL,
  OPENAI_MODEL: 'test-text-model',
  OPENAI_VISION_MODEL: 'test-vision-model',
  OPENAI_TIMEOUT_MS: '5000',
  ...extra,
});

/** The recorded store answers (house rule: read in place, never copied). */
export const fixturesDir = () => `${process.env.FIXTURES_DIR || DEFAULT_FIXTURES_DIR}/appstore`;

/** A running analyzer, a replay server and the test's `scrape` worker. */
export interface TAnalysisStack {
  replay: TReplayServer;
  redis: TRedisClient;
  bus: ProgressBus;
  /** The test's producers (the gateway's layer): the audit flow, queue reads. */
  producers: Producers;
  close(): Promise<void>;
}

/**
 * Starts, for one test: the replay server (port 0), the real analyzer service (`startAnalyzer`)
 * with `env` overrides, and a `scrape` worker that reads the store through the real store
 * client of `@aso/appstore` against the replay server (the scraper service's handler is
 * tested in its own package; this keeps the analyzer's tests independent of it). An app the
 * store does not know fails its scrape job at once, like the scraper does.
 */
export async function startStack(
  db: { url: string },
  redisFixture: { url: string; prefix: string },
  env: Record<string, string> = {},
): Promise<TAnalysisStack> {
  const replay = await startReplayServer({ port: 0, fixturesDir: fixturesDir() });
  const analyzer = await startAnalyzer(
    parseWorkerEnv({
      DATABASE_URL: db.url,
      REDIS_URL: redisFixture.url,
      QUEUE_PREFIX: redisFixture.prefix,
      HEALTH_PORT: '0',
      LOG_LEVEL: 'silent',
      ...env,
    }),
    { handleSignals: false, log: pino({ level: 'silent' }) },
  );
  const scrapeConn = createRedis(redisFixture.url, { role: 'worker', name: 'test:scrape' });
  const scraper = createTypedWorker(
    'scrape',
    {
      scrape: async (data) => {
        try {
          const { listing } = await fetchAppListing({
            appId: data.appId,
            storefront: data.storefront,
            itunesOrigin: replay.url,
            appStoreOrigin: replay.url,
            timeoutMs: 5_000,
          });
          return listing;
        } catch (err) {
          if (err instanceof AppNotFoundError) throw new UnrecoverableError(err.message);
          throw err;
        }
      },
      // Audits add no watched-listing jobs.
      'watch-read': () => Promise.reject(new Error('not used')),
      'watch-round': () => Promise.reject(new Error('not used')),
      'keyword-round': () => Promise.reject(new Error('not used')),
    },
    { connection: scrapeConn, prefix: redisFixture.prefix, concurrency: 4 },
  );
  const redis = createRedis(redisFixture.url, { role: 'producer', name: 'test:commands' });
  const bus = new ProgressBus(redis, { prefix: redisFixture.prefix });
  const producers = new Producers(redis, redisFixture.prefix);
  return {
    replay,
    redis,
    bus,
    producers,
    close: async () => {
      await scraper.close();
      await analyzer.close();
      await producers.close();
      scrapeConn.disconnect();
      redis.disconnect();
      await replay.close();
    },
  };
}

/**
 * Inserts an audit for `userId` and adds its flow through the gateway's own call
 * (`Producers.addAuditFlow`). Returns the audit id.
 */
export async function enqueueAudit(
  db: TDb,
  producers: Producers,
  userId: string,
  inputs: TAuditInputs,
): Promise<string> {
  const parsed = ZAuditInputs.parse(inputs);
  const audit = await insertAudit(db, {
    userId,
    accessCodeId: null,
    appId: parsed.main.appId,
    storefront: parsed.main.storefront,
    appStoreUrl: parsed.main.appStoreUrl,
    inputs: parsed,
  });
  await producers.addAuditFlow(audit.id, parsed);
  return audit.id;
}

/** Reads the audit's progress stream until a `complete` or `error` event (or throws after `timeoutMs`). */
export async function waitForTerminal(
  bus: ProgressBus,
  auditId: string,
  timeoutMs = 30_000,
): Promise<TProgressEntry[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const entries = await bus.read(auditId);
    if (entries.some((e) => e.event.type === 'complete' || e.event.type === 'error'))
      return entries;
    if (Date.now() > deadline) {
      throw new Error(
        `no terminal event for ${auditId} within ${timeoutMs} ms: ${JSON.stringify(entries.map((e) => e.event.type))}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The events of `entries` of type `type`. */
export function eventsOf<T extends TBusEvent['type']>(
  entries: TProgressEntry[],
  type: T,
): Array<Extract<TBusEvent, { type: T }>> {
  return entries
    .map((e) => e.event)
    .filter((e): e is Extract<TBusEvent, { type: T }> => e.type === type);
}
