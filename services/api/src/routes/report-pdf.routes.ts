import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { JobWaiter, QUEUES, redisTarget } from '@aso/queue';
import { currentUser } from '../plugins/auth.plugin';
import { attachmentHeader } from '../services/analytics.service';
import { ZReportPdfStatus } from '@aso/contracts';
import { reportPdf, reportPdfStatus } from '../services/report-pdf.service';
import { liveShareLink, markShared, ZShareToken } from '../services/share.service';

const ZIdParams = z.object({ id: z.string().min(1).max(64) });
const ZTokenParams = z.object({ token: ZShareToken });

/** Sends a stored PDF as the download it is. */
function sendPdf(reply: FastifyReply, doc: { file_name: string; pages: number; pdf: Buffer }) {
  return reply
    .type('application/pdf')
    .header('content-disposition', attachmentHeader(doc.file_name))
    .header('cache-control', 'private, no-store')
    .header('x-pdf-pages', String(doc.pages))
    .send(doc.pdf);
}

/**
 * The PDF reports (under `/api`, signed-in owners only; someone else's answers 404):
 * - `GET /audit/{id}/report.pdf`: the audit's result page as a PDF;
 * - `GET /dashboards/{id}/report.pdf`: the saved dashboard (KPI report, executive summary,
 *   monthly report, charts) over its saved date range.
 * - `GET /shared/{token}/report.pdf` (no session): the PDF of a share link's audit (its
 *   owner's document), 404 for an unknown, revoked or expired link.
 * All answer `application/pdf` as an attachment, rendered by the render worker (the `render`
 * queue, one render per user at a time, users in turn) when the subject changed since the
 * last render, else the stored file at once. Each has a sibling `.../report-status` answering
 * where that PDF stands (`ZReportPdfStatus`: queued behind how many renders) while its
 * download waits.
 */
export const reportPdfRoutes: FastifyPluginAsyncZod = async (app) => {
  const waiter = new JobWaiter({
    queue: QUEUES.render,
    target: redisTarget(app.config),
    producers: app.producers,
    redis: app.redis,
    connectionName: 'api:render-events',
    onError: (err) => app.log.debug({ err }, 'render queue events error'),
  });
  // Requests waiting in a user's render line stop before the server waits for them to end.
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort(new Error('the server is closing')));
  app.addHook('onClose', async () => waiter.close());
  const deps = () => ({
    db: app.db,
    producers: app.producers,
    waiter,
    log: app.log,
    waitMs: app.config.RENDER_WAIT_MS,
    redis: app.redis,
    maxPerUser: app.config.RENDER_QUEUE_MAX_PER_USER,
    closing: closing.signal,
  });

  for (const [path, kind] of [
    ['/audit/:id/report.pdf', 'audit'],
    ['/dashboards/:id/report.pdf', 'dashboard'],
  ] as const) {
    app.get(
      path,
      {
        preHandler: app.requireUser,
        // Documents the answer (PDF bytes); the handler sends a Buffer as it is.
        schema: { params: ZIdParams, response: { 200: z.string() } },
      },
      async (req, reply) => {
        const doc = await reportPdf(
          { ...deps(), log: req.log },
          { kind, subjectId: req.params.id, userId: currentUser(req).userId },
        );
        // Bytes, not the schema's string: Fastify sends a Buffer as it is.
        return sendPdf(reply, doc);
      },
    );
    app.get(
      path.replace('report.pdf', 'report-status'),
      {
        preHandler: app.requireUser,
        schema: { params: ZIdParams, response: { 200: ZReportPdfStatus } },
      },
      async (req) =>
        reportPdfStatus(deps(), {
          kind,
          subjectId: req.params.id,
          userId: currentUser(req).userId,
        }),
    );
  }

  app.get(
    '/shared/:token/report-status',
    { schema: { params: ZTokenParams, response: { 200: ZReportPdfStatus } } },
    async (req, reply) => {
      markShared(reply);
      const link = await liveShareLink(app, req.params.token);
      return reportPdfStatus(deps(), {
        kind: 'audit',
        subjectId: link.auditId,
        userId: link.userId,
      });
    },
  );

  app.get(
    '/shared/:token/report.pdf',
    { schema: { params: ZTokenParams, response: { 200: z.string() } } },
    async (req, reply) => {
      markShared(reply);
      const link = await liveShareLink(app, req.params.token);
      const doc = await reportPdf(
        { ...deps(), log: req.log },
        { kind: 'audit', subjectId: link.auditId, userId: link.userId },
      );
      return sendPdf(reply, doc);
    },
  );
};
