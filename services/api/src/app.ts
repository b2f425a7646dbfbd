import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { TApiEnv } from './env';
import { errorHandlerPlugin } from './plugins/error-handler.plugin';
import { answerHeadersPlugin } from './plugins/answer-headers.plugin';
import { infraPlugin } from './plugins/infra.plugin';
import { authPlugin } from './plugins/auth.plugin';
import { rateLimitPlugin } from './plugins/rate-limit.plugin';
import { metricsPlugin } from './plugins/metrics.plugin';
import { logContextPlugin } from './plugins/log-context.plugin';
import { docsPlugin } from './plugins/docs.plugin';
import { queueBoardPlugin } from './plugins/queue-board.plugin';
import { healthRoutes } from './routes/health.routes';
import { authRoutes } from './routes/auth.routes';
import { adminRoutes } from './routes/admin.routes';
import { auditRoutes } from './routes/audit.routes';
import { progressRoutes } from './routes/progress.routes';
import { analyticsRoutes } from './routes/analytics.routes';
import { webRoutes } from './routes/web.routes';
import { webConfigRoutes } from './routes/web-config.routes';
import { reportPdfRoutes } from './routes/report-pdf.routes';
import { watchRoutes } from './routes/watch.routes';
import { shareRoutes } from './routes/share.routes';
import { keywordRoutes } from './routes/keyword.routes';
import { notificationRoutes } from './routes/notification.routes';
import { ascRoutes } from './routes/asc.routes';

/** Options of {@link app}. */
export interface TAppOptions {
  config: TApiEnv;
}

/**
 * The gateway as a Fastify plugin (STYLE: fastify/demo): external plugins first (errors,
 * connections, auth), then the routes. `server.ts` adds the logger, timeouts and shutdown;
 * tests register it on a bare instance and call `inject()`.
 */
export async function app(fastify: FastifyInstance, { config }: TAppOptions): Promise<void> {
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);

  await fastify.register(errorHandlerPlugin);
  await fastify.register(answerHeadersPlugin);
  await fastify.register(infraPlugin, { config });
  await fastify.register(rateLimitPlugin);
  await fastify.register(authPlugin);
  // Operations (docs/OPERATIONS.md): before the routes, whose timings, log context and docs
  // they collect.
  await fastify.register(metricsPlugin);
  await fastify.register(logContextPlugin);
  await fastify.register(docsPlugin);
  await fastify.register(queueBoardPlugin);

  await fastify.register(healthRoutes);
  await fastify.register(authRoutes, { prefix: '/api' });
  await fastify.register(adminRoutes, { prefix: '/api/admin' });
  await fastify.register(auditRoutes, { prefix: '/api' });
  await fastify.register(progressRoutes, { prefix: '/api' });
  await fastify.register(analyticsRoutes, { prefix: '/api' });
  await fastify.register(webConfigRoutes, { prefix: '/api' });
  await fastify.register(reportPdfRoutes, { prefix: '/api' });
  await fastify.register(shareRoutes, { prefix: '/api' });
  await fastify.register(watchRoutes, { prefix: '/api' });
  await fastify.register(keywordRoutes, { prefix: '/api' });
  await fastify.register(notificationRoutes, { prefix: '/api' });
  await fastify.register(ascRoutes, { prefix: '/api' });
  await fastify.register(webRoutes);
}
