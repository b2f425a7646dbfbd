/**
 * The PDF flood (docs/product.md#pdf-reports): one user asking for twelve PDFs at once does
 * not hold back another user's first one by more than one render. Real api, real render
 * worker with the system Chromium, real BullMQ; the print pages come from a stand-in web
 * server that records which page each render opened, in order, so the test reads the order
 * in which renders started (never a duration).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, vi } from 'vitest';
import { pino } from 'pino';
import { finalizeAudit, insertAudit, type TDb } from '@aso/db';
import { ZErrorBody, ZReportPdfStatus, type TReportPdfStatus } from '@aso/contracts';
import { createRedis, Producers, QUEUES, renderLineKeys, type TRenderPdfJob } from '@aso/queue';
import { createTestUser, type TTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { parseRenderEnv, startRender } from '@aso/render';
import { SPOTIFY_URL, startApi } from './audit.helpers';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** PDFs the flooding user asks for at once; also their `RENDER_QUEUE_MAX_PER_USER`. */
const FLOOD = 12;

/**
 * A stand-in of the web app's print pages: every `/print/{kind}/{id}` answers a page that is
 * ready for printing at once, and is recorded (`opened`, in order of arrival). While `held`,
 * answers wait until {@link release}.
 */
async function startPrintPages() {
  const opened: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/print\/(audit|dashboard)\/([^/?]+)/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const id = decodeURIComponent(match[2]!);
    opened.push(id);
    void released.then(() =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html data-print-header="Stand-in"><head><title>Report ${id}</title></head>` +
            `<body><main data-print-state="ready"><h1>Audit ${id}</h1></main></body></html>`,
        ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    opened,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A finished audit of `user` (a stored result, as the analyzer writes it). */
async function doneAudit(db: TDb, user: TTestUser): Promise<string> {
  const row = await insertAudit(db, {
    userId: user.userId,
    accessCodeId: user.accessCodeId,
    appId: '324684580',
    storefront: 'us',
    appStoreUrl: SPOTIFY_URL,
    inputs: {},
  });
  expect(
    await finalizeAudit(db, row.id, { result: {}, appName: 'Spotify', provider: 'heuristic' }),
  ).toBe(true);
  return row.id;
}

describe.skipIf(process.platform !== 'linux')('fair PDF rendering', () => {
  it("serves another user's first PDF after at most one of a flood of twelve, and reuses a finished one", async ({
    database,
    redis,
  }) => {
    const pages = await startPrintPages();
    const api = await startApi(database, redis, {
      RENDER_QUEUE_MAX_PER_USER: String(FLOOD),
      RENDER_WAIT_MS: '170000',
    });
    // One render at a time: the strictest case (another slot would let B in even sooner).
    const render = await startRender(
      parseRenderEnv({
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        HEALTH_PORT: '0',
        LOG_LEVEL: 'silent',
        CHROMIUM_PATH: CHROMIUM,
        RENDER_APP_URL: pages.url,
        CONCURRENCY: '1',
      }),
      { handleSignals: false, log: pino({ level: 'silent' }) },
    );
    // The test's own look into Redis: the line's keys and the render queue's jobs.
    const conn = createRedis(redis.url, { role: 'producer', name: 'test:render-fairness' });
    const producers = new Producers(conn, redis.prefix);
    try {
      const a = await createTestUser(database.db);
      const b = await createTestUser(database.db);
      const floods: string[] = [];
      for (let i = 0; i < FLOOD + 1; i++) floods.push(await doneAudit(database.db, a));
      const bAudit = await doneAudit(database.db, b);

      const pdf = (user: TTestUser, auditId: string) =>
        api.app.inject({ url: `/api/audit/${auditId}/report.pdf`, headers: user.headers });
      const status = async (user: TTestUser, auditId: string): Promise<TReportPdfStatus> => {
        const res = await api.app.inject({
          url: `/api/audit/${auditId}/report-status`,
          headers: user.headers,
        });
        expect(res.statusCode, res.body).toBe(200);
        return ZReportPdfStatus.parse(res.json());
      };
      const lineLength = () => conn.llen(renderLineKeys(redis.prefix, a.userId).waiting);

      expect(await status(a, floods[0]!)).toEqual({ state: 'idle', queuedBehind: 0 });

      // A asks for twelve PDFs at once: one renders (held at its page), eleven wait in A's line.
      const flood = floods.slice(0, FLOOD).map((id) => pdf(a, id));
      await vi.waitUntil(async () => pages.opened.length === 1 && (await lineLength()) === 11, {
        timeout: 60_000,
        interval: 50,
      });
      // Per-user concurrency 1: BullMQ holds one job of A, the one rendering.
      const queue = producers.queue(QUEUES.render);
      const jobsOfA = (await queue.getJobs(['waiting', 'active', 'prioritized', 'delayed']))
        .map((job) => job.data as TRenderPdfJob)
        .filter((data) => data.userId === a.userId);
      expect(jobsOfA).toHaveLength(1);
      const first = jobsOfA[0]!.subjectId;
      expect(pages.opened).toEqual([first]);
      // Each of A's PDFs says how many renders start before it: 0 (rendering), then 1 to 11.
      const places = await Promise.all(floods.slice(0, FLOOD).map((id) => status(a, id)));
      expect(places.filter((p) => p.state === 'rendering')).toHaveLength(1);
      expect(
        places
          .filter((p) => p.state === 'queued')
          .map((p) => p.queuedBehind)
          .sort((x, y) => x - y),
      ).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));

      // A thirteenth at once is refused, naming the limit.
      const refused = await pdf(a, floods[FLOOD]!);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(ZErrorBody.parse(refused.json()).message).toBe(
        `${FLOOD} of your PDFs are being prepared, the most at once (RENDER_QUEUE_MAX_PER_USER ${FLOOD}); download one of them first, then ask for this one again`,
      );

      // B's first PDF is next in the render queue: nothing waits before it.
      const bPdf = pdf(b, bAudit);
      await vi.waitUntil(async () => (await status(b, bAudit)).state === 'queued', {
        timeout: 30_000,
        interval: 50,
      });
      expect(await status(b, bAudit)).toEqual({ state: 'queued', queuedBehind: 0 });
      pages.release();
      const answers = await Promise.all([...flood, bPdf]);
      for (const res of answers) {
        expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
        expect(res.headers['content-type']).toBe('application/pdf');
        expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      }
      // B's render started after exactly one of A's (the one already rendering when B asked).
      expect(pages.opened).toHaveLength(FLOOD + 1);
      expect(pages.opened.indexOf(bAudit)).toBe(1);
      expect(new Set(pages.opened)).toEqual(new Set([...floods.slice(0, FLOOD), bAudit]));
      // A's line drained, and the turn is free again: the worker hands it on right after it
      // stored the last PDF, which may be just after that PDF's answer went out.
      expect(await lineLength()).toBe(0);
      const turn = renderLineKeys(redis.prefix, a.userId).current;
      await vi.waitUntil(async () => (await conn.exists(turn)) === 0, {
        timeout: 10_000,
        interval: 20,
      });

      // A finished document is reused: the same PDF again, no render started.
      expect(await status(a, first)).toEqual({ state: 'ready', queuedBehind: 0 });
      const again = await pdf(a, first);
      expect(again.statusCode).toBe(200);
      expect(again.rawPayload.equals(answers[floods.indexOf(first)]!.rawPayload)).toBe(true);
      expect(pages.opened).toHaveLength(FLOOD + 1);
    } finally {
      pages.release();
      await render.close();
      await api.close();
      await pages.close();
      await producers.close();
      conn.disconnect();
    }
  }, 240_000);
});
