import type { Socket } from 'node:net';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import fresh from 'fresh';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZChartData,
  ZCreateDashboardBody,
  ZDashboard,
  ZDashboardList,
  ZKpiReport,
  ZReportQuery,
  ZUploadResult,
  ZText,
} from '@aso/contracts';
import { JobWaiter, QUEUES, redisTarget } from '@aso/queue';
import { currentUser } from '../plugins/auth.plugin';
import {
  attachmentHeader,
  chartData,
  createDashboard,
  dashboards,
  kpiReport,
  mergedCsv,
  removeDashboard,
} from '../services/analytics.service';
import { DatasetCache } from '../caches/dataset.cache';
import { JSON_TYPE, renderJson, sendJson } from '../lib/json-answer';
import { isFirstPage, nextLink, pageQuery, pageRequest, sendPage } from '../lib/limits';
import { mergeUploads, takeMergeSlot } from '../services/upload-merge.service';
import { receiveUploads, UPLOAD_MULTIPART_LIMITS } from '../services/upload.service';

const ZDownloadParams = z.object({ downloadId: ZText.min(1).max(64) });

/**
 * The reply without the type provider's typing of `send()` by the 200 schema, for answers
 * rendered ahead as a Buffer (chart-data, reports: checked against their schema once, see
 * caches/dataset.cache.ts) or streamed (the merged CSV). Fastify sends a Buffer or a stream
 * as it is, without the route's serializer; the schema still documents the answer.
 */
const untyped = (reply: unknown): FastifyReply => reply as FastifyReply;

const ZIdParams = z.object({ id: ZText.min(1).max(64) });

/**
 * Analytics routes (docs/product.md#api-calls; docs/product.md#how-a-dashboard-is-built), under
 * `/api`, all for signed-in users and their own objects only (someone else's answers 404):
 * - `POST /uploads` (multipart `conversionCSV` and/or `redownloadsCSV`, rate-limited per
 *   user, within the user's `USER_STORAGE_QUOTA_MB`): stores the files, runs the csv-merge
 *   `merge` job and answers `{ mergedData }`;
 * - `GET /chart-data/{downloadId}`: the merged rows, with a strong `ETag` (304 to a matching
 *   `If-None-Match`), `Cache-Control: private, no-cache` and gzip or br when accepted;
 * - `GET /download-merged/{downloadId}`: the processed CSV as an attachment;
 * - `GET /reports/{downloadId}?start&end`: the KPI report of @aso/analytics;
 * - `POST|GET /dashboards`, `DELETE /dashboards/{id}`: saved dashboards.
 * An unknown, expired or foreign dataset answers 404 (the client's "dashboard data expired").
 * chart-data and reports answer from datasets prepared once per process (`DatasetCache`,
 * bounded by `DATASET_CACHE_MB`), after the per-request check of owner and expiry.
 * @fastify/multipart is registered in this plugin only, with the upload limits.
 */

/**
 * Most bytes of a refused upload read and thrown away after the answer: the two files at
 * their limit and the rest of the form. A client that keeps sending past it is cut off.
 */
const DISCARD_MAX_BYTES = 2 * UPLOAD_MULTIPART_LIMITS.fileSize + 1024 * 1024;

/**
 * A refusal can come before the body is read to its end: the rest is read and thrown away, so
 * the client, still sending, gets to read the answer. Closing at once instead makes its
 * further writes fail (EPIPE, ECONNRESET), and many clients then report that error, never the
 * answer. The connection is closed once the body has ended (never reused after a refusal) or
 * past {@link DISCARD_MAX_BYTES}; a body that stops coming is ended by `REQUEST_TIMEOUT_MS`.
 */
function discardBody(req: FastifyRequest, reply: FastifyReply): void {
  const body = req.raw;
  // Taken now: the answer detaches the socket from the request once it is sent. (An injected
  // request has no real socket: nothing to close.)
  const socket = body.socket as Partial<Socket> | undefined;
  const close = () => socket?.end?.();
  body.unpipe();
  let discarded = 0;
  body.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_MAX_BYTES) socket?.destroy?.();
  });
  body.once('end', () => {
    // The answer may still be on its way: end the connection after it.
    if (reply.raw.writableFinished) close();
    else reply.raw.once('finish', close);
  });
  body.resume();
}

export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, {
    limits: UPLOAD_MULTIPART_LIMITS,
    // Truncation is checked per file so the answer is the documented message (see upload.service).
    throwFileSizeLimit: false,
  });

  const waiter = new JobWaiter({
    queue: QUEUES.csvMerge,
    target: redisTarget(app.config),
    producers: app.producers,
    redis: app.redis,
    connectionName: 'api:merge-events',
    onError: (err) => app.log.debug({ err }, 'merge queue events error'),
  });
  app.addHook('onClose', async () => waiter.close());

  const uploadLimit = app.perUserRateLimit('uploads', app.config.UPLOAD_RATE_LIMIT_PER_MIN);
  const writeLimit = app.perUserRateLimit('writes', app.config.WRITE_RATE_LIMIT_PER_MIN);
  const ZPageQuery = pageQuery(app.config);
  // Datasets prepared for chart-data and reports, per process (docs/BENCHMARKS.md).
  const datasets = new DatasetCache({ maxBytes: app.config.DATASET_CACHE_MB * 1024 * 1024 });

  /** Stores the request's files and merges them (see receiveUploads and mergeUploads). */
  const receiveAndMerge = async (
    req: FastifyRequest,
    reply: FastifyReply,
    userId: string,
    clientGone: AbortSignal,
  ) => {
    let uploads;
    try {
      uploads = await receiveUploads(req, {
        db: app.db,
        userId,
        ttlDays: app.config.DATASET_TTL_DAYS,
        quotaBytes: Math.floor(app.config.USER_STORAGE_QUOTA_MB * 1024 * 1024),
      });
    } catch (err) {
      discardBody(req, reply);
      throw err;
    }
    req.log.info({ uploads: uploads.ids, bytes: uploads.sizes }, 'uploads stored; merging');
    const mergedData = await mergeUploads(
      {
        db: app.db,
        redis: app.redis,
        producers: app.producers,
        waiter,
        log: req.log,
        waitMs: app.config.UPLOAD_WAIT_MS,
        clientGone,
      },
      userId,
      uploads,
    );
    return { mergedData };
  };

  app.post(
    '/uploads',
    { preHandler: [app.requireUser, uploadLimit], schema: { response: { 200: ZUploadResult } } },
    async (req, reply) => {
      const { userId } = currentUser(req);
      // The client going away before the answer cancels the merge (see mergeUploads).
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      let release: () => Promise<void>;
      try {
        release = await takeMergeSlot(app.redis, app.config.QUEUE_PREFIX, userId);
      } catch (err) {
        discardBody(req, reply);
        throw err;
      }
      try {
        return await receiveAndMerge(req, reply, userId, gone.signal);
      } finally {
        await release().catch((err: unknown) =>
          req.log.warn({ err }, 'could not release the merge slot'),
        );
      }
    },
  );

  app.get(
    '/chart-data/:downloadId',
    {
      preHandler: app.requireUser,
      schema: { params: ZDownloadParams, response: { 200: ZChartData } },
    },
    async (req, reply) => {
      const { body, etag, coding } = await chartData(
        app.db,
        datasets,
        currentUser(req).userId,
        req.params.downloadId,
        req.headers['accept-encoding'],
      );
      // The dataset never changes: a browser keeps the answer and revalidates it (no-cache), so
      // an expired dataset still answers 404 and an unchanged one a bodiless 304.
      const answer = untyped(reply)
        .header('etag', etag)
        .header('cache-control', 'private, no-cache')
        .header('vary', 'accept-encoding');
      // If-None-Match against the ETag (RFC 9110 section 13.1.2), as Express decides it.
      if (fresh(req.headers, { etag })) return answer.code(304).send();
      if (coding) void answer.header('content-encoding', coding);
      return answer.type(JSON_TYPE).send(body);
    },
  );

  app.get(
    '/download-merged/:downloadId',
    {
      preHandler: app.requireUser,
      // Documents the body (CSV text). The handler sends a stream, which fastify writes as
      // it is, without the serializer; the schema's string type is only for the docs.
      schema: { params: ZDownloadParams, response: { 200: z.string() } },
    },
    async (req, reply) => {
      const { csv, fileName } = await mergedCsv(
        app.db,
        currentUser(req).userId,
        req.params.downloadId,
      );
      return untyped(reply)
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachmentHeader(fileName))
        .header('cache-control', 'private, no-store')
        .send(csv);
    },
  );

  app.get(
    '/reports/:downloadId',
    {
      preHandler: app.requireUser,
      schema: { params: ZDownloadParams, querystring: ZReportQuery, response: { 200: ZKpiReport } },
    },
    async (req, reply) => {
      const body = await kpiReport(
        app.db,
        datasets,
        currentUser(req).userId,
        req.params.downloadId,
        req.query,
      );
      return untyped(reply).type(JSON_TYPE).send(body);
    },
  );

  app.post(
    '/dashboards',
    {
      preHandler: [app.requireUser, writeLimit],
      schema: { body: ZCreateDashboardBody, response: { 200: ZDashboard } },
    },
    async (req) => {
      const { userId } = currentUser(req);
      const dashboard = await createDashboard(app.db, userId, req.body, app.config);
      await app.readCaches.dashboards.drop(userId);
      return dashboard;
    },
  );

  // Read on every page load: the first page's JSON is kept per user (dropped in every replica
  // on a save or delete; expired dashboards, deleted by the worker, go with the entry's
  // lifetime). Other pages are read from the database.
  app.get(
    '/dashboards',
    {
      preHandler: [app.requireUser, app.listReadSlot],
      schema: { querystring: ZPageQuery, response: { 200: ZDashboardList } },
    },
    async (req, reply) => {
      const { userId } = currentUser(req);
      const load = async () => {
        const page = pageRequest(req.query, app.config);
        const list = await dashboards(app.db, userId, page);
        return {
          json: renderJson(ZDashboardList, list.rows, { method: 'GET', url: '/api/dashboards' }),
          link: nextLink(req, list, page.limit),
        };
      };
      const list = isFirstPage(req.query, app.config)
        ? await app.readCaches.dashboards.read(userId, load)
        : await load();
      return sendJson(sendPage(reply, list!.link), list!.json);
    },
  );

  app.delete(
    '/dashboards/:id',
    { preHandler: app.requireUser, schema: { params: ZIdParams } },
    async (req, reply) => {
      const { userId } = currentUser(req);
      await removeDashboard(app.db, userId, req.params.id);
      await app.readCaches.dashboards.drop(userId);
      return reply.code(204).send();
    },
  );
};
