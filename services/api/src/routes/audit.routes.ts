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
import { findAudit, findOwnedAudit } from '@aso/db';
import { currentUser, presentedAdminCode } from '../plugins/auth.plugin';
import { notFound } from '../lib/app-error';
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

  app.get(
    '/audit/:id',
    { preHandler: userOrAdmin, schema: { params: ZIdParams, response: { 200: ZAudit } } },
    async (req) => {
      const row = req.adminCode
        ? await findAudit(app.db, req.params.id)
        : await findOwnedAudit(app.db, req.params.id, currentUser(req).userId);
      if (!row) throw notFound('Audit not found');
      return toAudit(row);
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
    async (req) => saveAudit(app.db, currentUser(req).userId, req.body),
  );

  app.get(
    '/saved-audits',
    { preHandler: app.requireUser, schema: { response: { 200: z.array(ZSavedAudit) } } },
    async (req) => savedAudits(app.db, currentUser(req).userId),
  );

  app.delete(
    '/saved-audits/:id',
    { preHandler: app.requireUser, schema: { params: ZIdParams } },
    async (req, reply) => {
      await removeSavedAudit(app.db, currentUser(req).userId, req.params.id);
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
