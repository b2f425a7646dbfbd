import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startReplayServer, type TReplayServer } from '@aso/appstore/node';
import type { TWorkerService } from '@aso/queue';
import { createTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { parseWorkerEnv as parseAnalyzerEnv, startAnalyzer } from '@aso/analyzer';
import { parseWorkerEnv as parseScraperEnv, startScraper } from '@aso/scraper';
import {
  appstoreFixturesDir,
  readProgress,
  SPOTIFY_URL,
  workerEnv,
  type TTestApi,
} from './audit.helpers';
import { buildLoggedApi, capturedLogger } from './ops-logs.helpers';
import { sample } from './ops.helpers';

// Metrics and log context, end to end: a real audit through the real gateway, scraper and
// analyzer (the store is the replay server) moves the api's and the workers' /metrics, and
// one audit id can be followed through all three logs. Secrets stay out of every log.

const apiLogs = capturedLogger();
const scraperLogs = capturedLogger();
const analyzerLogs = capturedLogger();

let api: TTestApi | undefined;
let replay: TReplayServer | undefined;
const workers: TWorkerService[] = [];
afterAll(async () => {
  for (const w of workers) await w.close();
  await replay?.close();
  await api?.close();
});

/** The gateway listening on loopback, with a test route that holds an SSE stream open. */
async function startLoggedApi(
  database: { url: string },
  redis: { url: string; prefix: string },
): Promise<TTestApi> {
  const app: FastifyInstance = await buildLoggedApi(database, redis, apiLogs.log, {}, (scope) => {
    scope.get('/test/sse', (_req, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      scope.metrics.trackSse(reply.raw);
      // As a real SSE route does: end the response when the client goes (else it stays half-open).
      reply.raw.once('close', () => reply.raw.end());
      reply.raw.write(': open\n\n');
    });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

const text = async (url: string) => {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return res.text();
};

describe('metrics and correlated logs of an audit', () => {
  it('counts the audit in the api and worker metrics, and tags its log lines with its id in every service', async ({
    database,
    redis,
  }) => {
    api = await startLoggedApi(database, redis);
    replay = await startReplayServer({ port: 0, fixturesDir: appstoreFixturesDir() });
    const env = workerEnv(database, redis, replay.url);
    const scraper = await startScraper(parseScraperEnv(env), {
      handleSignals: false,
      log: scraperLogs.log,
    });
    workers.push(scraper);
    const analyzer = await startAnalyzer(parseAnalyzerEnv(env), {
      handleSignals: false,
      log: analyzerLogs.log,
    });
    workers.push(analyzer);
    const scraperMetrics = `http://127.0.0.1:${scraper.healthPort}/metrics`;
    const analyzerMetrics = `http://127.0.0.1:${analyzer.healthPort}/metrics`;
    const analyzeRoute = {
      service: 'api',
      method: 'POST',
      route: '/api/analyze',
      status_code: '200',
    };

    const before = await text(`${api.url}/metrics`);
    expect(sample(before, 'aso_http_request_duration_seconds_count', analyzeRoute)).toBe(0);
    // The scraper's job schedulers run its first watch round and keyword round as soon as it
    // starts. Those rounds are jobs of the scrape queue too: the audit's scrape is counted on
    // top of them.
    await vi.waitUntil(
      () =>
        ['watch-round', 'keyword-round'].every((name) =>
          scraperLogs.lines.some((l) => l.msg === 'job completed' && l.jobName === name),
        ),
      { timeout: 30_000, interval: 20 },
    );
    const scrapeQueue = { service: 'scraper', queue: 'scrape' };
    const scrapeDuration = { ...scrapeQueue, status: 'completed' };
    const scraperBefore = await text(scraperMetrics);
    const roundsDone = sample(scraperBefore, 'aso_jobs_completed_total', scrapeQueue);
    expect(roundsDone).toBeGreaterThanOrEqual(1);
    expect(sample(scraperBefore, 'aso_job_duration_seconds_count', scrapeDuration)).toBe(
      roundsDone,
    );

    const user = await createTestUser(database.db, 'ops-metrics@example.com');
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/analyze',
      headers: user.headers,
      payload: { appStoreUrl: SPOTIFY_URL },
    });
    expect(res.statusCode, res.body).toBe(200);
    const auditId = res.json<{ id: string }>().id;
    const { events } = await readProgress(api, user, auditId);
    expect(events.at(-1)?.event, JSON.stringify(events.at(-1))).toBe('complete');
    const read = await api.app.inject({
      method: 'GET',
      url: `/api/audit/${auditId}`,
      headers: user.headers,
    });
    expect(read.statusCode).toBe(200);

    // Metrics: the api timed the request by route; each worker counted its job.
    const after = await text(`${api.url}/metrics`);
    expect(sample(after, 'aso_http_request_duration_seconds_count', analyzeRoute)).toBe(1);
    expect(
      sample(after, 'aso_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/audit/:id',
        status_code: '200',
      }),
    ).toBe(1);
    expect(
      sample(after, 'aso_queue_jobs', { service: 'api', queue: 'scrape', state: 'waiting' }),
    ).toBe(0);
    expect(after).toMatch(/^aso_queue_jobs\{queue="analysis",state="active",service="api"\} 0$/m);
    const s = await text(scraperMetrics);
    expect(sample(s, 'aso_jobs_completed_total', scrapeQueue)).toBe(roundsDone + 1);
    expect(sample(s, 'aso_job_duration_seconds_count', scrapeDuration)).toBe(roundsDone + 1);
    const a = await text(analyzerMetrics);
    expect(sample(a, 'aso_jobs_completed_total', { service: 'analyzer', queue: 'analysis' })).toBe(
      1,
    );
    expect(sample(a, 'aso_jobs_failed_total', { service: 'analyzer', queue: 'analysis' })).toBe(0);

    // Logs: the audit id is on the api's request lines and on each worker's job lines.
    const apiRead = apiLogs.lines.filter(
      (l) => l.auditId === auditId && l.msg === 'request completed',
    );
    expect(apiRead.length).toBeGreaterThanOrEqual(1);
    const scrapeDone = scraperLogs.lines.find(
      (l) => l.msg === 'job completed' && l.jobName === 'scrape',
    );
    expect(scrapeDone).toMatchObject({
      auditId,
      queue: 'scrape',
      appId: '324684580',
      jobName: 'scrape',
    });
    expect(String(scrapeDone?.jobId)).toContain(auditId);
    const analysisDone = analyzerLogs.lines.find((l) => l.msg === 'job completed');
    expect(analysisDone).toMatchObject({ auditId, queue: 'analysis', jobName: 'analysis' });
    // Secrets: the session token never reaches a log.
    for (const logs of [apiLogs, scraperLogs, analyzerLogs])
      expect(logs.text()).not.toContain(user.token);
  }, 120_000);

  it('gauges the open SSE streams that call app.metrics.trackSse', async () => {
    expect(api, 'the audit test above starts the gateway').toBeDefined();
    const open = async () =>
      sample(await text(`${api!.url}/metrics`), 'aso_sse_open_streams', { service: 'api' });
    expect(await open()).toBe(0);
    const ac = new AbortController();
    const stream = await fetch(`${api!.url}/test/sse`, { signal: ac.signal });
    const reader = stream.body!.getReader();
    await reader.read();
    expect(await open()).toBe(1);
    ac.abort();
    await reader.cancel().catch(() => undefined);
    const until = Date.now() + 5_000;
    while ((await open()) !== 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(await open()).toBe(0);
  });

  it('counts real progress streams in aso_sse_open_streams', async ({ database }) => {
    expect(api, 'the audit test above starts the gateway').toBeDefined();
    const open = async () =>
      sample(await text(`${api!.url}/metrics`), 'aso_sse_open_streams', { service: 'api' });
    const user = await createTestUser(database.db, 'ops-sse@example.com');
    // A queued audit that no worker picks up: its progress stream stays open.
    const app = { appId: '324684580', storefront: 'us', appStoreUrl: SPOTIFY_URL };
    const audit = await database.db
      .insertInto('audits')
      .values({
        user_id: user.userId,
        app_id: app.appId,
        storefront: 'us',
        app_store_url: SPOTIFY_URL,
        inputs: JSON.stringify({ main: app, competitors: [], keywords: '' }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await open();
    const ac = new AbortController();
    const res = await fetch(`${api!.url}/api/progress?auditId=${audit.id}`, {
      headers: user.headers,
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    expect(await open()).toBe(before + 1);
    ac.abort();
    const until = Date.now() + 5_000;
    while ((await open()) !== before && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await open()).toBe(before);
  });

  it('writes one line per answered request with its id, status and time, none for /healthz', async () => {
    expect(api, 'the audit test above starts the gateway').toBeDefined();
    const before = apiLogs.lines.length;
    expect((await api!.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const rules = await api!.app.inject({
      method: 'GET',
      url: '/api/rules',
      headers: { authorization: 'Bearer secret-token-1' },
    });
    expect(rules.statusCode).toBe(200);
    const fresh = apiLogs.lines.slice(before);
    const url = (l: Record<string, unknown>) => (l.req as { url?: string } | undefined)?.url;
    // /healthz logs at warn: no line for a healthy answer.
    expect(fresh.filter((l) => url(l) === '/healthz')).toEqual([]);
    const lines = fresh.filter((l) => url(l) === '/api/rules');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.reqId).toEqual(expect.any(String));
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/api/rules' },
      res: { statusCode: 200 },
    });
    expect(lines[0]!.responseTime).toBeGreaterThan(0);
    expect(apiLogs.text()).not.toContain('secret-token-1');
  });

  it('tags request lines with the audit or download id from params, query and body', async () => {
    expect(api, 'the audit test above starts the gateway').toBeDefined();
    const calls = [
      {
        method: 'GET' as const,
        url: '/api/audit/aud-param-1',
        key: 'auditId',
        value: 'aud-param-1',
      },
      {
        method: 'GET' as const,
        url: '/api/progress?auditId=aud-query-2',
        key: 'auditId',
        value: 'aud-query-2',
      },
      {
        method: 'GET' as const,
        url: '/api/chart-data/dl-param-3',
        key: 'downloadId',
        value: 'dl-param-3',
      },
      {
        method: 'POST' as const,
        url: '/api/feedback',
        payload: { auditId: 'aud-body-4', feedback: 'x' },
        key: 'auditId',
        value: 'aud-body-4',
      },
    ];
    for (const c of calls) {
      const res = await api!.app.inject({
        method: c.method,
        url: c.url,
        ...(c.payload ? { payload: c.payload } : {}),
      });
      // Refused (no session), but logged with the id it named.
      expect(res.statusCode, c.url).toBe(401);
      const reqId = apiLogs.lines.find(
        (l) => (l.req as { url?: string } | undefined)?.url === c.url,
      )?.reqId;
      const done = apiLogs.lines.find((l) => l.reqId === reqId && l.msg === 'request completed');
      expect(done?.[c.key], c.url).toBe(c.value);
      // Bound once, whether the URL or the route gave it (a key twice is not valid JSON for all).
      const raw = apiLogs
        .text()
        .split('\n')
        .find((l) => l.includes(`"reqId":"${String(reqId)}"`) && l.includes('"request completed"'));
      expect(raw?.split(`"${c.key}":`).length, c.url).toBe(2);
    }
    // Something that is not an id is not logged.
    await api!.app.inject({
      method: 'GET',
      url: `/api/progress?auditId=${encodeURIComponent('a b\n{"x":1}')}`,
    });
    expect(apiLogs.text()).not.toContain('{\\"x\\":1}');
  });
});
