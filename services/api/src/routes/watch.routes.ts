import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAnalyzeAnswer,
  ZHistoryAnswer,
  ZHistoryParams,
  ZHistoryQuery,
  ZSnapshotAuditParams,
  ZWatchBody,
  ZWatchItem,
  ZWatchItemParams,
  ZWatchRefreshAnswer,
} from '@aso/contracts';
import { listWatchItemsPage, unwatchListing } from '@aso/db';
import { currentUser } from '../plugins/auth.plugin';
import { notFound } from '../lib/app-error';
import { assertMaxChars, pageQuery, readPage } from '../lib/limits';
import {
  auditSnapshot,
  listingHistory,
  refreshWatchItem,
  toWatchItem,
  watch,
} from '../services/watch.service';

const ZWatchList = z.array(ZWatchItem);

/** Refreshes a user may ask for per minute (each reads the store). */
const REFRESH_PER_MIN = 10;

/**
 * The watchlist and a watched listing's history (under `/api`, signed in; someone else's item
 * answers 404):
 * - `POST /watchlist {appStoreUrl, role}` (within the per-user write rate): watch a listing
 *   (201 with the item; 200 with the existing item, its role updated, when the user already
 *   watches it; 409 past `WATCHLIST_MAX_PER_USER`; 413 past `URL_MAX_CHARS`);
 * - `GET /watchlist?limit=&cursor=`: a page of the user's items, newest first
 *   (docs/product.md#lists-and-pages);
 * - `DELETE /watchlist/{id}`: stop watching (204);
 * - `POST /watchlist/{id}/refresh`: read the store now (202);
 * - `GET /apps/{appId}/history?storefront=`: snapshots and changes of a watched app;
 * - `POST /apps/{appId}/history/{snapshotId}/audit`: audit a stored snapshot (no store read),
 *   answers `{ id }` of the audit, followed like any audit.
 */
export const watchRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({
    db: app.db,
    producers: app.producers,
    log: app.log,
    maxPerUser: app.config.WATCHLIST_MAX_PER_USER,
  });
  const refreshLimit = app.perUserRateLimit('watch-refresh', REFRESH_PER_MIN);
  const analyzeLimit = app.perUserRateLimit('analyze', app.config.ANALYZE_RATE_LIMIT_PER_MIN);
  const writeLimit = app.perUserRateLimit('writes', app.config.WRITE_RATE_LIMIT_PER_MIN);
  const ZPageQuery = pageQuery(app.config);

  app.post(
    '/watchlist',
    {
      preHandler: [app.requireUser, writeLimit],
      schema: { body: ZWatchBody, response: { 200: ZWatchItem, 201: ZWatchItem } },
    },
    async (req, reply) => {
      assertMaxChars(
        { appStoreUrl: req.body.appStoreUrl },
        app.config.URL_MAX_CHARS,
        'URL_MAX_CHARS',
      );
      const { created, item } = await watch(
        { ...deps(), log: req.log },
        currentUser(req).userId,
        req.body,
      );
      return reply.code(created ? 201 : 200).send(item);
    },
  );

  app.get(
    '/watchlist',
    {
      preHandler: [app.requireUser, app.listReadSlot],
      schema: { querystring: ZPageQuery, response: { 200: ZWatchList } },
    },
    async (req, reply) =>
      (
        await readPage(req, reply, req.query, app.config, (page) =>
          listWatchItemsPage(app.db, currentUser(req).userId, page),
        )
      ).map(toWatchItem),
  );

  app.delete(
    '/watchlist/:id',
    { preHandler: app.requireUser, schema: { params: ZWatchItemParams } },
    async (req, reply) => {
      if (!(await unwatchListing(app.db, currentUser(req).userId, req.params.id))) {
        throw notFound('Watched listing not found');
      }
      return reply.code(204).send();
    },
  );

  app.post(
    '/watchlist/:id/refresh',
    {
      preHandler: app.requireUser,
      schema: { params: ZWatchItemParams, response: { 202: ZWatchRefreshAnswer } },
    },
    async (req, reply) => {
      await refreshLimit(req);
      await refreshWatchItem(deps(), currentUser(req).userId, req.params.id);
      return reply.code(202).send({ id: req.params.id, queued: true as const });
    },
  );

  app.get(
    '/apps/:appId/history',
    {
      preHandler: app.requireUser,
      schema: {
        params: ZHistoryParams,
        querystring: ZHistoryQuery,
        response: { 200: ZHistoryAnswer },
      },
    },
    async (req) =>
      listingHistory(app.db, currentUser(req).userId, req.params.appId, req.query.storefront),
  );

  app.post(
    '/apps/:appId/history/:snapshotId/audit',
    {
      preHandler: app.requireUser,
      schema: { params: ZSnapshotAuditParams, response: { 200: ZAnalyzeAnswer } },
    },
    async (req) => {
      await analyzeLimit(req);
      const id = await auditSnapshot(
        deps(),
        currentUser(req),
        req.params.appId,
        req.params.snapshotId,
      );
      req.log.info({ auditId: id, snapshotId: req.params.snapshotId }, 'snapshot audit queued');
      return { id };
    },
  );
};
