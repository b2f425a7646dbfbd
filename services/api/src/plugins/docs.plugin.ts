import fp from 'fastify-plugin';
import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** Where the OpenAPI UI is served; the document itself is at `${DOCS_PREFIX}/json` (and `/yaml`). */
export const DOCS_PREFIX = '/docs';

/** Paths outside `/api` that the document describes (the operations endpoints). */
const DOCUMENTED_OPS_PATHS = new Set(['/healthz', '/readyz']);

/** Tag of a documented path: the UI groups operations by it. */
export function docsTag(url: string): string {
  if (DOCUMENTED_OPS_PATHS.has(url)) return 'operations';
  if (url.startsWith('/api/admin/')) return 'admin';
  if (/^\/api\/(login|register|logout|check-access)$/.test(url)) return 'access';
  if (url.startsWith('/api/progress')) return 'progress';
  if (/^\/api\/(uploads|chart-data|download-merged|dashboards)(\/|$)/.test(url)) return 'analytics';
  return 'audits';
}

/**
 * The OpenAPI document of the gateway (docs/OPERATIONS.md), built from the routes' zod schemas
 * (params, query, body and answers, from `@aso/contracts`) by fastify-type-provider-zod's
 * `jsonSchemaTransform`: `GET /docs` serves the Swagger UI, `GET /docs/json` the OpenAPI 3
 * document. It lists the `/api` routes and the health checks; the web app's files, the queue
 * monitor and `/metrics` stay out. Admin routes (under `/api/admin`) are marked with the
 * `x-access-code` scheme, and every route that runs `app.requireUser` with the bearer scheme
 * (docs/product.md#access-and-sessions).
 *
 * Register it after the auth plugin and before any route: it learns routes as they are added.
 */
export const docsPlugin = fp(async (app) => {
  const transform: SwaggerTransform = (input) => {
    const { url, route } = input;
    if (!url.startsWith('/api/') && !DOCUMENTED_OPS_PATHS.has(url)) {
      return { schema: { hide: true }, url };
    }
    const out = jsonSchemaTransform(input);
    const preHandlers = [route.preHandler ?? []].flat();
    const security = url.startsWith('/api/admin/')
      ? [{ adminCode: [] }]
      : preHandlers.includes(app.requireUser)
        ? [{ bearer: [] }]
        : undefined;
    return {
      url: out.url,
      schema: { ...out.schema, tags: [docsTag(url)], ...(security ? { security } : {}) },
    };
  };

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'ASO Audit Robot API',
        description:
          'The gateway of the ASO audit and analytics product. Answers are JSON; errors are ' +
          '`{ message, code }` with a fitting status (400 invalid input, 401 no session, 403 not ' +
          'allowed, 404 missing or expired, 409 conflict, 413 too large, 429 rate limited, 503 a ' +
          'backing service is down).',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'The sessionToken answered by /api/login or /api/register.',
          },
          adminCode: {
            type: 'apiKey',
            in: 'header',
            name: 'x-access-code',
            description: 'An admin access code.',
          },
        },
      },
    },
    transform,
  });

  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // The docs share the app's origin (where the session token lives): only the UI's own
    // scripts run (hashes of its inline ones), and no other site may frame them. Requests are
    // not upgraded to HTTPS, so a local install over HTTP keeps working.
    staticCSP: true,
    transformStaticCSP: (header: string) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/\s*upgrade-insecure-requests;?/, ''),
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.url === DOCS_PREFIX || req.url.startsWith(`${DOCS_PREFIX}/`)) {
      void reply.header('x-frame-options', 'DENY');
    }
    done(null, payload);
  });
});
