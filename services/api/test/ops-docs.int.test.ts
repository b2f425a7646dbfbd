import { afterAll, describe, expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { it } from '@aso/testkit/vitest';
import { startApi } from './access.fixtures';

// The OpenAPI document at /docs/json describes every call of the spec's call
// table (docs/product.md#api-calls), from the routes' zod schemas; /docs serves the UI.

/** docs/product.md#api-calls (plus the feedback list its POST invalidates). */
export const SPEC_CALLS = [
  'GET /api/check-access',
  'POST /api/login',
  'POST /api/register',
  'POST /api/logout',
  'POST /api/analyze',
  'GET /api/progress',
  'POST /api/progress/complete',
  'GET /api/audit/{id}',
  'POST /api/feedback',
  'GET /api/feedback/{auditId}',
  'POST /api/uploads',
  'GET /api/download-merged/{downloadId}',
  'GET /api/chart-data/{downloadId}',
  'POST /api/dashboards',
  'GET /api/dashboards',
  'DELETE /api/dashboards/{id}',
  'POST /api/saved-audits',
  'GET /api/saved-audits',
  'DELETE /api/saved-audits/{id}',
  'GET /api/admin/codes',
  'GET /api/admin/feedbacks',
  'GET /api/admin/audit-history',
  'GET /api/admin/audits',
  'GET /api/admin/store-health',
  'POST /api/admin/generate-code',
  'DELETE /api/admin/codes/{code}',
  'DELETE /api/admin/cache/app/{appId}',
  'DELETE /api/admin/audits/{id}',
  'POST /api/keywords',
  'GET /api/keywords',
  'GET /api/keywords/research',
  'GET /api/keywords/gap',
  'GET /api/apps/{appId}/keyword-ranks',
  'GET /api/audit/{id}/keyword-ranks',
] as const;

/** `/api/audit/{id}` and `/api/audit/{auditId}` are the same route: parameter names do not matter. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { securitySchemes: Record<string, unknown> };
}
interface OpenApiOperation {
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: {
    content: Record<
      string,
      { schema: { properties?: Record<string, unknown>; required?: string[] } }
    >;
  };
  responses?: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

describe('OpenAPI document', () => {
  let app: FastifyInstance;
  let doc: OpenApiDoc;
  afterAll(async () => app?.close());

  it('is served at /docs/json as OpenAPI 3 built from the zod contracts', async ({
    database,
    redis,
  }) => {
    app = await startApi(database, redis);
    const res = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json<OpenApiDoc>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['adminCode', 'bearer']);

    // The analyze body is the contract's ZAnalyzeRequest, with its required URL.
    const analyze = doc.paths['/api/analyze']?.post;
    const body = analyze?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(body?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'appStoreUrl',
        'keywords',
        'competitorUrl1',
        'competitorUrl2',
        'competitorUrl3',
      ]),
    );
    expect(body?.required).toContain('appStoreUrl');
    expect(analyze?.security).toEqual([{ bearer: [] }]);
    expect(analyze?.tags).toEqual(['audits']);
    // Query parameters come from the route's querystring schema.
    const progress = doc.paths['/api/progress']?.get;
    expect(progress?.parameters?.find((p) => p.name === 'auditId')).toMatchObject({
      in: 'query',
      required: true,
    });
    // Admin routes carry the admin code scheme.
    expect(doc.paths['/api/admin/codes']?.get?.security).toEqual([{ adminCode: [] }]);
    expect(
      doc.paths['/api/admin/codes']?.get?.responses?.['200']?.content?.['application/json'],
    ).toBeDefined();
  });

  it('lists every call of the documented call table (docs/product.md#api-calls)', () => {
    expect(doc, 'the document test above must pass first').toBeDefined();
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${shape(path)}`),
      ),
    );
    const missing = SPEC_CALLS.filter((call) => {
      const [method, path] = call.split(' ') as [string, string];
      return !documented.has(`${method} ${shape(path)}`);
    });
    expect(
      missing,
      `not documented (route not registered, or hidden): ${missing.join(', ')}`,
    ).toEqual([]);
  });

  it('leaves the web app, the queue monitor and /metrics out of the document', () => {
    expect(doc, 'the document test above must pass first').toBeDefined();
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => !p.startsWith('/api/')).sort()).toEqual(['/healthz', '/readyz']);
  });

  it('serves the Swagger UI at /docs', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/' });
    const page =
      res.statusCode === 302
        ? await app.inject({ method: 'GET', url: String(res.headers.location) })
        : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger');
  });
});
