import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  KEYWORD_TERM_MAX,
  ZAuditKeywordRanks,
  ZAuditKeywordRanksParams,
  ZKeywordGap,
  ZKeywordHistory,
  ZKeywordList,
  ZKeywordListQuery,
  ZKeywordParams,
  ZKeywordRanks,
  ZKeywordRanksParams,
  ZKeywordRanksQuery,
  ZKeywordRefreshAnswer,
  ZKeywordRefreshBody,
  ZKeywordResearch,
  ZKeywordResearchQuery,
  ZKeywordResearchQueued,
  ZKeywordTrackBody,
  ZRankSource,
} from '@aso/contracts';
import type { FastifyRequest } from 'fastify';
import { findAudit, findKeywordTrack, keywordRankHistory, untrackKeyword } from '@aso/db';
import { currentUser, presentedAdminCode } from '../plugins/auth.plugin';
import { notFound } from '../lib/app-error';
import { assertMaxChars, pageQuery, readPage } from '../lib/limits';
import {
  auditKeywordRanks,
  keywordGap,
  keywordRanks,
  listKeywordsPage,
  refresh,
  research,
  track,
} from '../services/keyword.service';
import { SearchHintsReader } from '../services/search-hints.reader';
import { NOT_YOURS_MESSAGE } from './audit.routes';

/** Keyword refreshes a user may ask for per minute (each queues search reads). */
const REFRESH_PER_MIN = 6;
/** Research requests a user may make per minute (an unread term queues a search read). */
const RESEARCH_PER_MIN = 30;

/**
 * Tracked keywords (under `/api`, signed in; someone else's item answers 404):
 * - `POST /keywords {appStoreUrl, terms}` (within the per-user write rate): track terms for the
 *   app in the URL's storefront (201 with every tracked term of that app, at most
 *   `KEYWORDS_MAX_PER_APP`; 400 naming a bad term; 409 past `KEYWORDS_MAX_PER_APP` or
 *   `KEYWORDS_MAX_PER_USER`; 413 past `URL_MAX_CHARS`);
 * - `GET /keywords?appId=&storefront=&limit=&cursor=`: a page of the tracked terms, in the order
 *   they were added, with ranks, competitors and estimates (docs/product.md#lists-and-pages);
 * - `DELETE /keywords/{id}` (204); `GET /keywords/{id}/history` (the latest 1,000 ranks);
 * - `POST /keywords/refresh {appId, storefront}`: read the app's terms now, under the search
 *   rate limit (202);
 * - `GET /keywords/research?term=&storefront=[&appId=]`: research of a term (202 while its
 *   first read is queued);
 * - `GET /keywords/gap?appId=&storefront=`: terms x (app + watched competitors);
 * - `GET /apps/{appId}/keyword-ranks?storefront=&from=&to=`: the rank history of the app's
 *   tracked terms for the timeline;
 * - `GET /audit/{id}/keyword-ranks`: the ranks of an audit's keywords for its app and
 *   competitors from the latest stored reads (the owner, or an admin with `x-access-code`).
 *
 * docs/product.md#keyword-ranks.
 */
export const keywordRoutes: FastifyPluginAsyncZod = async (app) => {
  const hints = new SearchHintsReader(
    app.config.SEARCH_HINTS_ORIGIN,
    app.config.SEARCH_HINTS_TIMEOUT_MS,
  );
  const deps = () => ({
    hints,
    db: app.db,
    producers: app.producers,
    log: app.log,
    maxPerApp: app.config.KEYWORDS_MAX_PER_APP,
    maxPerUser: app.config.KEYWORDS_MAX_PER_USER,
    searchRatePerMin: app.config.ITUNES_SEARCH_RATE_PER_MIN,
  });
  const refreshLimit = app.perUserRateLimit('keyword-refresh', REFRESH_PER_MIN);
  const researchLimit = app.perUserRateLimit('keyword-research', RESEARCH_PER_MIN);
  const writeLimit = app.perUserRateLimit('writes', app.config.WRITE_RATE_LIMIT_PER_MIN);
  const ZListQuery = ZKeywordListQuery.extend(pageQuery(app.config).shape);
  // A page's key is the last term's time and text (see listKeywordTracksPage).
  const isTerm = (id: string) => id.length > 0 && [...id].length <= KEYWORD_TERM_MAX;

  app.post(
    '/keywords',
    {
      preHandler: [app.requireUser, writeLimit],
      schema: { body: ZKeywordTrackBody, response: { 201: ZKeywordList } },
    },
    async (req, reply) => {
      assertMaxChars(
        { appStoreUrl: req.body.appStoreUrl },
        app.config.URL_MAX_CHARS,
        'URL_MAX_CHARS',
      );
      const items = await track({ ...deps(), log: req.log }, currentUser(req).userId, req.body);
      return reply.code(201).send({ items });
    },
  );

  app.get(
    '/keywords',
    {
      preHandler: [app.requireUser, app.listReadSlot],
      schema: { querystring: ZListQuery, response: { 200: ZKeywordList } },
    },
    async (req, reply) => ({
      items: await readPage(
        req,
        reply,
        req.query,
        app.config,
        (page) =>
          listKeywordsPage(
            app.db,
            currentUser(req).userId,
            req.query.appId,
            req.query.storefront,
            page,
          ),
        isTerm,
      ),
    }),
  );

  app.post(
    '/keywords/refresh',
    {
      preHandler: app.requireUser,
      schema: { body: ZKeywordRefreshBody, response: { 202: ZKeywordRefreshAnswer } },
    },
    async (req, reply) => {
      await refreshLimit(req);
      const answer = await refresh(
        deps(),
        currentUser(req).userId,
        req.body.appId,
        req.body.storefront,
      );
      return reply.code(202).send(answer);
    },
  );

  app.get(
    '/keywords/research',
    {
      preHandler: app.requireUser,
      schema: {
        querystring: ZKeywordResearchQuery,
        response: { 200: ZKeywordResearch, 202: ZKeywordResearchQueued },
      },
    },
    async (req, reply) => {
      await researchLimit(req);
      const answer = await research(deps(), currentUser(req).userId, req.query);
      return 'queued' in answer ? reply.code(202).send(answer) : reply.send(answer);
    },
  );

  app.get(
    '/keywords/gap',
    {
      preHandler: [app.requireUser, app.listReadSlot],
      schema: { querystring: ZKeywordListQuery, response: { 200: ZKeywordGap } },
    },
    async (req) =>
      keywordGap(app.db, currentUser(req).userId, req.query.appId, req.query.storefront),
  );

  app.get(
    '/apps/:appId/keyword-ranks',
    {
      preHandler: app.requireUser,
      schema: {
        params: ZKeywordRanksParams,
        querystring: ZKeywordRanksQuery,
        response: { 200: ZKeywordRanks },
      },
    },
    async (req) => keywordRanks(app.db, currentUser(req).userId, req.params.appId, req.query),
  );

  // As `GET /audit/{id}`: an admin code reads any audit, a session its own.
  const userOrAdmin = async (req: FastifyRequest) => {
    if (presentedAdminCode(req)) await app.requireAdmin(req);
    else await app.requireUser(req);
  };
  app.get(
    '/audit/:id/keyword-ranks',
    {
      preHandler: userOrAdmin,
      schema: { params: ZAuditKeywordRanksParams, response: { 200: ZAuditKeywordRanks } },
    },
    async (req) => {
      const userId = req.adminCode ? null : currentUser(req).userId;
      const audit = await findAudit(app.db, req.params.id);
      if (!audit) throw notFound('Audit not found');
      if (userId !== null && audit.user_id !== userId) {
        throw notFound(NOT_YOURS_MESSAGE, 'NOT_YOURS');
      }
      return auditKeywordRanks(app.db, userId, audit);
    },
  );

  app.delete(
    '/keywords/:id',
    { preHandler: app.requireUser, schema: { params: ZKeywordParams } },
    async (req, reply) => {
      if (!(await untrackKeyword(app.db, currentUser(req).userId, req.params.id))) {
        throw notFound('Tracked keyword not found');
      }
      return reply.code(204).send();
    },
  );

  app.get(
    '/keywords/:id/history',
    {
      preHandler: app.requireUser,
      schema: { params: ZKeywordParams, response: { 200: ZKeywordHistory } },
    },
    async (req) => {
      const item = await findKeywordTrack(app.db, currentUser(req).userId, req.params.id);
      if (!item) throw notFound('Tracked keyword not found');
      const points = await keywordRankHistory(app.db, item.termId, item.appId);
      return {
        points: points.map((p) => ({
          checkedAt: p.readAt.toISOString(),
          rank: p.rank,
          source: ZRankSource.parse(p.source),
        })),
      };
    },
  );
};
