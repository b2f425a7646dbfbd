import { afterAll, describe, expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { it } from '@aso/testkit/vitest';
import { TEXT_ERROR, fieldLabel } from '@aso/contracts';
import { admin, bearer, credentials, generateCode, startApi } from './access.fixtures';

// Strings PostgreSQL cannot store (a NUL) or that are not Unicode (an unpaired surrogate) are
// refused with 400 naming the field, wherever the API accepts a string: never a 500.

const POISONS = { nul: 'a\u0000b', loneHigh: 'a\uD800b', loneLow: '\uDC00z' } as const;

/**
 * A poison as it arrives in a URL: percent-encoded UTF-8, and a lone surrogate as the three
 * bytes a careless encoder (CESU-8) would send, since UTF-8 has no form for it.
 */
const inUrl = (poison: string) =>
  poison
    .replace(/[\uD800-\uDFFF]/g, (c) => (c.charCodeAt(0) < 0xdc00 ? '%ED%A0%80' : '%ED%B0%80'))
    .replaceAll('\u0000', '%00');

interface Operation {
  parameters?: { name: string; in: string; schema?: { type?: string } }[];
  requestBody?: {
    content: Record<string, { schema: { properties?: Record<string, { type?: unknown }> } }>;
  };
}

let app: FastifyInstance;
let token = '';
afterAll(async () => {
  await app?.close();
});

describe('text that cannot be stored', () => {
  it('starts a gateway with a signed-in user', async ({ database, redis }) => {
    app = await startApi(database, redis);
    const code = await generateCode(app, { maxUses: 5 });
    const res = await credentials(app, 'register', 'strings@example.com', code.code);
    expect(res.statusCode, res.body).toBe(200);
    token = res.json<{ sessionToken: string }>().sessionToken;
  });

  it.each(Object.entries(POISONS))(
    'answers 400 naming the field on the reported calls (%s)',
    async (_name, poison) => {
      const auth = { ...bearer(token) };
      const cases = [
        {
          method: 'POST' as const,
          url: '/api/login',
          payload: { email: 'strings@example.com', accessCode: poison },
          field: 'accessCode',
        },
        {
          method: 'POST' as const,
          url: '/api/feedback',
          payload: { auditId: '00000000-0000-4000-8000-000000000000', feedback: poison },
          field: 'feedback',
          headers: auth,
        },
        {
          method: 'POST' as const,
          url: '/api/saved-audits',
          payload: { auditId: '00000000-0000-4000-8000-000000000000', name: poison },
          field: 'name',
          headers: auth,
        },
        {
          method: 'POST' as const,
          url: '/api/analyze',
          payload: {
            appStoreUrl: 'https://apps.apple.com/us/app/id324684580',
            keywords: poison,
          },
          field: 'keywords',
          headers: auth,
        },
        {
          method: 'DELETE' as const,
          url: `/api/admin/codes/${inUrl(poison)}`,
          field: 'code',
          headers: admin(),
        },
      ];
      for (const c of cases) {
        const res = await app.inject(c);
        expect(res.statusCode, `${c.method} ${c.url}: ${res.body}`).toBe(400);
        const body = res.json<{ message: string; code: string; field?: string }>();
        expect(body.code).toBe('BAD_REQUEST');
        // A lone surrogate has no UTF-8 form: in a path it is refused as a bad URL.
        expect(body.message).toBe(
          c.method === 'DELETE' && poison !== POISONS.nul
            ? `'${c.url}' is not a valid url component`
            : `${fieldLabel(c.field)}: ${TEXT_ERROR}`,
        );
      }
    },
  );

  it('never answers 5xx for a poisoned string in any parameter or body field of any call', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    let tried = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const inputs = [
          ...(op.parameters ?? []).map((p) => ({ in: p.in, name: p.name })),
          ...Object.keys(op.requestBody?.content['application/json']?.schema.properties ?? {}).map(
            (name) => ({ in: 'body', name }),
          ),
        ];
        for (const input of inputs) {
          for (const poison of Object.values(POISONS)) {
            let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
              name === input.name && input.in === 'path'
                ? inUrl(poison)
                : '00000000-0000-4000-8000-000000000000',
            );
            if (input.in === 'query') url += `?${input.name}=${inUrl(poison)}`;
            const headers: Record<string, string> = { ...bearer(token), ...admin() };
            const res = await app.inject({
              method: method.toUpperCase() as 'GET',
              url,
              headers,
              ...(input.in === 'body' ? { payload: { [input.name]: poison } } : {}),
            });
            tried++;
            expect(
              res.statusCode,
              `${method} ${path} ${input.in} ${input.name}: ${res.body}`,
            ).toBeLessThan(500);
            expect(
              res.statusCode,
              `${method} ${path} ${input.in} ${input.name}`,
            ).toBeGreaterThanOrEqual(400);
          }
        }
      }
    }
    // Every call with inputs was tried (a broken document would try nothing).
    expect(tried).toBeGreaterThan(40);
  });
});
