import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { JobWaiter, QUEUES } from '@aso/queue';
import { currentUser } from '../plugins/auth.plugin';
import { attachmentHeader } from '../services/analytics.service';
import { reportPdf } from '../services/report-pdf.service';

const ZIdParams = z.object({ id: z.string().min(1).max(64) });

/**
 * The PDF reports (under `/api`, signed-in owners only; someone else's answers 404):
 * - `GET /audit/{id}/report.pdf`: the audit's result page as a PDF;
 * - `GET /dashboards/{id}/report.pdf`: the saved dashboard (KPI report, executive summary,
 *   monthly report, charts) over its saved date range.
 * Both answer `application/pdf` as an attachment, rendered by the render worker (the `render`
 * queue) when the subject changed since the last render, else the stored file at once.
 */
export const reportPdfRoutes: FastifyPluginAsyncZod = async (app) => {
  const waiter = new JobWaiter({
    queue: QUEUES.render,
    redisUrl: app.config.REDIS_URL,
    producers: app.producers,
    redis: app.redis,
    connectionName: 'api:render-events',
    onError: (err) => app.log.debug({ err }, 'render queue events error'),
  });
  app.addHook('onClose', async () => waiter.close());
  const deps = () => ({
    db: app.db,
    producers: app.producers,
    waiter,
    log: app.log,
    waitMs: app.config.RENDER_WAIT_MS,
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
        return (reply as FastifyReply)
          .type('application/pdf')
          .header('content-disposition', attachmentHeader(doc.file_name))
          .header('cache-control', 'private, no-store')
          .header('x-pdf-pages', String(doc.pages))
          .send(doc.pdf);
      },
    );
  }
};
