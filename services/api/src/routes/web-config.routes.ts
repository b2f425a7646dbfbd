import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZWebConfig } from '@aso/contracts';

/**
 * `GET /api/web-config` (under `/api`, no sign-in: it holds nothing private): the web app's
 * run-time settings, e.g. the consulting link (`CONSULTING_URL`; null hides the link and the
 * promo block). Browsers may keep it for 5 minutes.
 */
export const webConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { consultingUrl: app.config.CONSULTING_URL ?? null };
  app.get('/web-config', { schema: { response: { 200: ZWebConfig } } }, async (_req, reply) => {
    void reply.header('cache-control', 'public, max-age=300');
    return config;
  });
};
