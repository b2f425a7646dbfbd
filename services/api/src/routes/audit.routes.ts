import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAnalyzeAnswer,
  ZAnalyzeRequest,
  ZAudit,
  ZFeedback,
  ZFeedbackBody,
  ZRulesCatalogue,
  ZSaveAuditBody,
  ZSavedAudit,
  ZText,
} from '@aso/contracts';
import { rulesCatalogue } from '@aso/aso-rules';
import { currentUser, presentedAdminCode } from '../plugins/auth.plugin';
import { notFound } from '../lib/app-error';
import { renderJson, sendJson } from '../lib/json-answer';
import {
  assertMaxChars,
  isFirstPage,
  nextLink,
  pageQuery,
  pageRequest,
  sendPage,
} from '../lib/limits';
import { readAuditAnswer, sendAuditAnswer } from '../caches/audit-answer.cache';
import {
  addFeedback,
  auditFeedback,
  buildAuditInputs,
  removeSavedAudit,
  saveAudit,
  savedAuditOf,
  savedAudits,
  startAudit,
} from '../services/audit.service';

const ZIdParams = z.object({ id: ZText.min(1).max(64) });
const ZSavedAuditList = z.array(ZSavedAudit);

/** Why another user's audit is not shown: audits are private to the account that ran them. */
export const NOT_YOURS_MESSAGE =
  'This audit belongs to another account. Ask its owner for a share link to see it.';
const ZAuditIdParams = z.object({ auditId: ZText.min(1).max(64) });

/**
 * Audit routes (docs/product.md#api-calls), under `/api`:
 * - `POST /analyze` (signed in, rate-limited per user): validates, creates the audit and its
 *   BullMQ flow, answers `{ id }` at once;
 * - `GET /audit/{id}`: the documented Audit, for its owner, or an admin (`x-access-code`); 404
 *   otherwise;
 * - `POST|GET /saved-audits[?auditId=]`, `DELETE /saved-audits/{id}`: the caller's saved
 *   audits (paged), or the saved entry of one audit;
 * - `POST /feedback` (413 past `FEEDBACK_MAX_CHARS`, 409 past `FEEDBACK_MAX_PER_USER`),
 *   `GET /feedback/{auditId}`: feedback on the caller's own audits;
 * - `GET /rules`: the rules catalogue audits are scored with (public: it is documentation).
 * Someone else's object always answers 404, never 403, so ids cannot be probed.
 */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const analyzeLimit = app.perUserRateLimit('analyze', app.config.ANALYZE_RATE_LIMIT_PER_MIN);
  const writeLimit = app.perUserRateLimit('writes', app.config.WRITE_RATE_LIMIT_PER_MIN);
  const ZPageQuery = pageQuery(app.config);
  const ZSavedAuditsQuery = ZPageQuery.extend({
    auditId: z.uuid('auditId is not an audit id').optional(),
  });

  app.post(
    '/analyze',
    {
      preHandler: app.requireUser,
      schema: { body: ZAnalyzeRequest, response: { 200: ZAnalyzeAnswer } },
    },
    async (req) => {
      const inputs = buildAuditInputs(req.body);
      // Counted after validation: a mistyped URL does not use up the user's audits.
      await analyzeLimit(req);
      const id = await startAudit(
        { db: app.db, producers: app.producers },
        currentUser(req),
        inputs,
      );
      req.log.info(
        { auditId: id, appId: inputs.main.appId, competitors: inputs.competitors.length },
        'audit queued',
      );
      return { id };
    },
  );

  // An admin code in `x-access-code` reads any audit (admin history); otherwise a session.
  const userOrAdmin = async (req: FastifyRequest) => {
    if (presentedAdminCode(req)) await app.requireAdmin(req);
    else await app.requireUser(req);
  };

  // Read on every audit page load and poll (kept per process once finished, see
  // readAuditAnswer). Someone else's audit answers 404, with a message telling a signed-in
  // colleague who was sent the private address to ask its owner for a share link.
  app.get(
    '/audit/:id',
    { preHandler: userOrAdmin, schema: { params: ZIdParams, response: { 200: ZAudit } } },
    async (req, reply) => {
      const userId = req.adminCode ? null : currentUser(req).userId;
      const answer = await readAuditAnswer(app, req.params.id);
      if (!answer) throw notFound('Audit not found');
      if (userId !== null && answer.userId !== userId)
        throw notFound(NOT_YOURS_MESSAGE, 'NOT_YOURS');
      return sendAuditAnswer(req, reply, answer);
    },
  );

  app.get('/rules', { schema: { response: { 200: ZRulesCatalogue } } }, async (_req, reply) => {
    void reply.header('cache-control', 'public, max-age=300');
    return rulesCatalogue();
  });

  app.post(
    '/saved-audits',
    {
      preHandler: [app.requireUser, writeLimit],
      schema: { body: ZSaveAuditBody, response: { 200: ZSavedAudit } },
    },
    async (req) => {
      const { userId } = currentUser(req);
      const saved = await saveAudit(app.db, userId, req.body, app.config.SAVED_AUDITS_MAX_PER_USER);
      await app.readCaches.savedAudits.drop(userId);
      return saved;
    },
  );

  // Read on every page load: the first page's JSON is kept per user, dropped in every replica
  // on a save or delete. `?auditId=` answers the caller's saved entry of that audit alone (an
  // array of at most one): whether an audit is saved, however long the list.
  app.get(
    '/saved-audits',
    {
      preHandler: [app.requireUser, app.listReadSlot],
      schema: { querystring: ZSavedAuditsQuery, response: { 200: ZSavedAuditList } },
    },
    async (req, reply) => {
      const { userId } = currentUser(req);
      if (req.query.auditId !== undefined) {
        return savedAuditOf(app.db, userId, req.query.auditId).then((s) => (s ? [s] : []));
      }
      const load = async () => {
        const page = pageRequest(req.query, app.config);
        const list = await savedAudits(app.db, userId, page);
        return {
          json: renderJson(ZSavedAuditList, list.rows, {
            method: 'GET',
            url: '/api/saved-audits',
          }),
          link: nextLink(req, list, page.limit),
        };
      };
      const list = isFirstPage(req.query, app.config)
        ? await app.readCaches.savedAudits.read(userId, load)
        : await load();
      return sendJson(sendPage(reply, list!.link), list!.json);
    },
  );

  app.delete(
    '/saved-audits/:id',
    { preHandler: app.requireUser, schema: { params: ZIdParams } },
    async (req, reply) => {
      const { userId } = currentUser(req);
      await removeSavedAudit(app.db, userId, req.params.id);
      await app.readCaches.savedAudits.drop(userId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/feedback',
    {
      preHandler: [app.requireUser, writeLimit],
      schema: { body: ZFeedbackBody, response: { 200: ZFeedback } },
    },
    async (req) => {
      assertMaxChars(
        { feedback: req.body.feedback },
        app.config.FEEDBACK_MAX_CHARS,
        'FEEDBACK_MAX_CHARS',
      );
      return addFeedback(
        app.db,
        currentUser(req).userId,
        req.body.auditId,
        req.body.feedback,
        app.config.FEEDBACK_MAX_PER_USER,
      );
    },
  );

  app.get(
    '/feedback/:auditId',
    {
      preHandler: [app.requireUser, app.listReadSlot],
      schema: {
        params: ZAuditIdParams,
        querystring: ZPageQuery,
        response: { 200: z.array(ZFeedback) },
      },
    },
    async (req, reply) => {
      const page = pageRequest(req.query, app.config);
      const list = await auditFeedback(app.db, currentUser(req).userId, req.params.auditId, page);
      void sendPage(reply, nextLink(req, list, page.limit));
      return list.rows;
    },
  );
};
