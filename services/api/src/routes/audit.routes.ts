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
import { findAudit } from '@aso/db';
import { currentUser, presentedAdminCode } from '../plugins/auth.plugin';
import { notFound } from '../lib/app-error';
import { renderJson, sendJson } from '../lib/json-answer';
import { CHART_CODINGS, compress, pickChartCoding } from '../services/dataset.cache';
import type { TCachedAudit } from '../services/read-caches';
import {
  addFeedback,
  auditFeedback,
  buildAuditInputs,
  removeSavedAudit,
  saveAudit,
  savedAudits,
  startAudit,
  toAudit,
} from '../services/audit.service';

const ZIdParams = z.object({ id: ZText.min(1).max(64) });
const ZSavedAuditList = z.array(ZSavedAudit);
const AUDIT_ROUTE = { method: 'GET', url: '/api/audit/:id' };
const ZAuditIdParams = z.object({ auditId: ZText.min(1).max(64) });

/**
 * Audit routes (spec section 7), under `/api`:
 * - `POST /analyze` (signed in, rate-limited per user): validates, creates the audit and its
 *   BullMQ flow, answers `{ id }` at once;
 * - `GET /audit/{id}`: the spec's Audit, for its owner, or an admin (`x-access-code`); 404
 *   otherwise;
 * - `POST|GET /saved-audits`, `DELETE /saved-audits/{id}`: the caller's saved audits;
 * - `POST /feedback`, `GET /feedback/{auditId}`: feedback on the caller's own audits;
 * - `GET /rules`: the rules catalogue audits are scored with (public: it is documentation).
 * Someone else's object always answers 404, never 403, so ids cannot be probed.
 */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const analyzeLimit = app.perUserRateLimit('analyze', app.config.ANALYZE_RATE_LIMIT_PER_MIN);

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

  // Read on every audit page load and poll: a finished audit's answer never changes (its
  // result is written once), so its JSON is kept per process with its owner, who is checked on
  // every read; an admin deletion drops it in every replica.
  app.get(
    '/audit/:id',
    { preHandler: userOrAdmin, schema: { params: ZIdParams, response: { 200: ZAudit } } },
    async (req, reply) => {
      const userId = req.adminCode ? null : currentUser(req).userId;
      const answer = await app.readCaches.audits.read(
        req.params.id,
        async () => {
          // Read whoever asks (concurrent reads of one audit share it); the owner is checked below.
          const row = await findAudit(app.db, req.params.id);
          if (!row) return null;
          const finished = row.status === 'done' || row.status === 'failed';
          const json = renderJson(ZAudit, toAudit(row), AUDIT_ROUTE);
          const encoded: TCachedAudit['encoded'] = {};
          // Compressed once for the process's later reads (a browser always asks for it).
          if (finished) {
            const bytes = Buffer.from(json);
            for (const coding of CHART_CODINGS) encoded[coding] = await compress(bytes, coding);
          }
          return { userId: row.user_id, finished, json, encoded };
        },
        (a) => a.finished,
      );
      if (!answer || (userId !== null && answer.userId !== userId))
        throw notFound('Audit not found');
      if (!answer.finished) return sendJson(reply, answer.json);
      void reply.header('vary', 'accept-encoding');
      const coding = pickChartCoding(req.headers['accept-encoding']);
      const body = coding ? answer.encoded[coding] : undefined;
      if (!body) return sendJson(reply, answer.json);
      return sendJson(reply.header('content-encoding', coding), body);
    },
  );

  app.get('/rules', { schema: { response: { 200: ZRulesCatalogue } } }, async (_req, reply) => {
    void reply.header('cache-control', 'public, max-age=300');
    return rulesCatalogue();
  });

  app.post(
    '/saved-audits',
    {
      preHandler: app.requireUser,
      schema: { body: ZSaveAuditBody, response: { 200: ZSavedAudit } },
    },
    async (req) => {
      const { userId } = currentUser(req);
      const saved = await saveAudit(app.db, userId, req.body);
      await app.readCaches.savedAudits.drop(userId);
      return saved;
    },
  );

  // Read on every page load: the list's JSON is kept per user, dropped in every replica on a
  // save or delete.
  app.get(
    '/saved-audits',
    { preHandler: app.requireUser, schema: { response: { 200: ZSavedAuditList } } },
    async (req, reply) => {
      const { userId } = currentUser(req);
      const list = await app.readCaches.savedAudits.read(userId, async () => ({
        json: renderJson(ZSavedAuditList, await savedAudits(app.db, userId), {
          method: 'GET',
          url: '/api/saved-audits',
        }),
      }));
      return sendJson(reply, list!.json);
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
    { preHandler: app.requireUser, schema: { body: ZFeedbackBody, response: { 200: ZFeedback } } },
    async (req) =>
      addFeedback(app.db, currentUser(req).userId, req.body.auditId, req.body.feedback),
  );

  app.get(
    '/feedback/:auditId',
    {
      preHandler: app.requireUser,
      schema: { params: ZAuditIdParams, response: { 200: z.array(ZFeedback) } },
    },
    async (req) => auditFeedback(app.db, currentUser(req).userId, req.params.auditId),
  );
};
