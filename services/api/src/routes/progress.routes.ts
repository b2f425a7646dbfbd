import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZProgressCompleteBody, ZText } from '@aso/contracts';
import { findOwnedAudit } from '@aso/db';
import { currentUser } from '../plugins/auth.plugin';
import { notFound } from '../lib/app-error';
import { ProgressFeeds } from '../progress/progress.feed';
import { streamProgress } from '../progress/progress.stream';

/** Query of `GET /api/progress`: the audit, and a resume position for clients that cannot send headers. */
export const ZProgressQuery = z.object({
  auditId: ZText.min(1, 'auditId is required'),
  lastEventId: ZText.max(64).optional(),
});

/**
 * Progress routes (docs/product.md#api-calls, docs/product.md#how-an-audit-runs):
 * - `GET /api/progress?auditId={id}`: the audit's progress as Server-Sent Events (see
 *   `streamProgress`), owner only (404 otherwise, the same answer as for an unknown id),
 *   bearer header required; `Last-Event-ID` (or the `lastEventId` query) resumes.
 * - `POST /api/progress/complete` `{ sessionId }`: 204, kept for older clients.
 */
export const progressRoutes: FastifyPluginAsyncZod = async (app) => {
  const open = new Set<() => void>();
  // One feed per audit for all of this process's clients of that audit.
  const feeds = new ProgressFeeds(app.progress);
  // Hijacked replies are not tracked by Fastify: end them before the server waits for
  // connections to close.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  app.get(
    '/progress',
    { preHandler: app.requireUser, schema: { querystring: ZProgressQuery } },
    async (req, reply) => {
      const identity = currentUser(req);
      const audit = await findOwnedAudit(app.db, req.query.auditId, identity.userId);
      if (!audit) throw notFound('Audit not found');
      const header = req.headers['last-event-id'];
      const lastEventId =
        (Array.isArray(header) ? header[0] : header) ?? req.query.lastEventId ?? null;
      reply.hijack();
      app.metrics.trackSse(reply.raw);
      const stream = await streamProgress(
        {
          db: app.db,
          feeds,
          heartbeatMs: app.config.SSE_HEARTBEAT_MS,
          log: req.log,
        },
        audit,
        lastEventId,
        reply.raw,
      );
      open.add(stream.end);
      void stream.ended.then(() => open.delete(stream.end));
    },
  );

  app.post(
    '/progress/complete',
    { preHandler: app.requireUser, schema: { body: ZProgressCompleteBody } },
    async (_req, reply) => reply.code(204).send(),
  );
};
