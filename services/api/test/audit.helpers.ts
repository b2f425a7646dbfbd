import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { DEFAULT_FIXTURES_DIR, startReplayServer, type TReplayServer } from '@aso/appstore/node';
import type { TTestUser } from '@aso/testkit';
import type { TWorkerService } from '@aso/queue';
import { parseWorkerEnv as parseAnalyzerEnv, startAnalyzer } from '@aso/analyzer';
import { parseWorkerEnv as parseScraperEnv, startScraper } from '@aso/scraper';
import { parseApiEnv } from '../src/env';
import { buildServer } from '../src/server';
import { readSse, type TSseMessage } from '@aso/api-client';

export const SPOTIFY_URL = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';
export const INSTAGRAM_URL = 'https://apps.apple.com/us/app/instagram/id389801252';
export const TIKTOK_URL = 'https://apps.apple.com/us/app/tiktok/id835599320';
export const RIVIAN_URL = 'https://apps.apple.com/us/app/rivian/id1570215232';

/** The recorded store answers (read in place, never copied). */
export const appstoreFixturesDir = () =>
  `${process.env.FIXTURES_DIR || DEFAULT_FIXTURES_DIR}/appstore`;

/** The gateway listening on an ephemeral loopback port. */
export interface TTestApi {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** Builds the real gateway on the test file's database and Redis prefix and listens on 127.0.0.1:0. */
export async function startApi(
  database: { url: string },
  redis: { url: string; prefix: string },
  env: Record<string, string> = {},
): Promise<TTestApi> {
  const app = await buildServer(
    parseApiEnv({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: redis.prefix,
      LOG_LEVEL: 'silent',
      SSE_HEARTBEAT_MS: '1000',
      ...env,
    }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/** The real scraper and analyzer services in this process, reading the store from a replay server. */
export interface TTestWorkers {
  replay: TReplayServer;
  scraper: TWorkerService;
  analyzer: TWorkerService;
  close(): Promise<void>;
}

/** Worker environment shared by the in-process services and spawned worker processes. */
export function workerEnv(
  database: { url: string },
  redis: { url: string; prefix: string },
  replayUrl: string,
): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: redis.prefix,
    HEALTH_PORT: '0',
    LOG_LEVEL: 'silent',
    ITUNES_ORIGIN: replayUrl,
    APP_STORE_ORIGIN: replayUrl,
    STORE_TIMEOUT_MS: '5000',
    STORE_RETRY_BASE_DELAY_MS: '50',
  };
}

/**
 * Starts a replay server (port 0; each store answer delayed by `storeDelayMs`, default 0) and
 * the scraper and analyzer services with `handleSignals: false`.
 */
export async function startWorkers(
  database: { url: string },
  redis: { url: string; prefix: string },
  opts: { scraper?: boolean; env?: Record<string, string>; storeDelayMs?: number } = {},
): Promise<TTestWorkers> {
  const replay = await startReplayServer({
    port: 0,
    fixturesDir: appstoreFixturesDir(),
    defaultDelayMs: opts.storeDelayMs ?? 0,
  });
  const env = { ...workerEnv(database, redis, replay.url), ...opts.env };
  const silent = pino({ level: 'silent' });
  const scraper =
    opts.scraper === false
      ? { healthPort: null, close: async () => undefined }
      : await startScraper(parseScraperEnv(env), { handleSignals: false, log: silent });
  const analyzer = await startAnalyzer(parseAnalyzerEnv(env), {
    handleSignals: false,
    log: silent,
  });
  return {
    replay,
    scraper,
    analyzer,
    close: async () => {
      await scraper.close();
      await analyzer.close();
      await replay.close();
    },
  };
}

/** Starts an audit through the API; returns its id (throws with the answer on a non-200). */
export async function analyze(
  api: TTestApi,
  user: TTestUser,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await api.app.inject({
    method: 'POST',
    url: '/api/analyze',
    headers: user.headers,
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`analyze answered ${res.statusCode}: ${res.body}`);
  return res.json<{ id: string }>().id;
}

/** A parsed SSE message with its JSON payload. */
export interface TEvent extends TSseMessage {
  json: Record<string, unknown>;
}

/**
 * Reads the audit's progress stream over real HTTP until the server closes it (or `max`
 * messages arrived, then disconnects). Heartbeat comments are counted in `comments`.
 */
export async function readProgress(
  api: TTestApi,
  user: TTestUser,
  auditId: string,
  opts: {
    lastEventId?: string;
    max?: number;
    timeoutMs?: number;
    query?: string;
    /** Called for each comment line as it arrives (heartbeats). */
    onComment?: (comment: string) => void;
  } = {},
): Promise<{ events: TEvent[]; comments: string[] }> {
  const events: TEvent[] = [];
  const comments: string[] = [];
  const ac = new AbortController();
  const timer = setTimeout(
    () => ac.abort(new Error('progress stream timed out')),
    opts.timeoutMs ?? 45_000,
  );
  try {
    const url = `${api.url}/api/progress?auditId=${encodeURIComponent(auditId)}${opts.query ?? ''}`;
    for await (const m of readSse(url, {
      headers: {
        ...user.headers,
        ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}),
      },
      signal: ac.signal,
      onComment: (c) => {
        comments.push(c);
        opts.onComment?.(c);
      },
    })) {
      events.push({ ...m, json: JSON.parse(m.data) as Record<string, unknown> });
      if (opts.max !== undefined && events.length >= opts.max) break;
    }
  } catch (err) {
    if (!ac.signal.aborted) throw err;
    throw new Error(
      `progress stream of ${auditId} did not end within ${opts.timeoutMs ?? 45_000} ms; got: ${events.map((e) => `${e.event}:${(e.json as { step_id?: string }).step_id ?? ''}:${(e.json as { status?: string }).status ?? ''}`).join(', ')}`,
    );
  } finally {
    clearTimeout(timer);
  }
  return { events, comments };
}
