import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, ZodError } from 'zod';
import { ApiClient } from './api.client';
import { ApiError } from './api.error';

/** What the test server saw of the last request. */
interface TSeen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let client: ApiClient;
let seen: TSeen | null = null;
/** The next answer of the test server: status, body text, content type, delay (ms). */
let next: {
  status: number;
  body: string;
  type?: string;
  delayMs?: number;
  link?: string;
} = {
  status: 200,
  body: '',
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const answer = next;
      setTimeout(() => {
        res.writeHead(answer.status, {
          'content-type': answer.type ?? 'application/json',
          ...(answer.link ? { link: answer.link } : {}),
        });
        res.end(answer.body);
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 2_000);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('ApiClient', () => {
  it('reads a page of a list and the path of the next one from its Link header', async () => {
    next = {
      status: 200,
      body: JSON.stringify([{ id: 'a' }]),
      link: '</api/watchlist?limit=1&cursor=Y3Vy>; rel="next"',
    };
    const items = z.array(z.object({ id: z.string() }));
    const first = await client.callPage('/api/watchlist?limit=1', items, { token: 'tok-2' });
    expect(first).toEqual({ data: [{ id: 'a' }], next: '/api/watchlist?limit=1&cursor=Y3Vy' });
    next = { status: 200, body: JSON.stringify([{ id: 'b' }]) };
    const last = await client.callPage(first.next!, items, { token: 'tok-2' });
    expect(seen?.url).toBe('/api/watchlist?limit=1&cursor=Y3Vy');
    expect(last).toEqual({ data: [{ id: 'b' }], next: null });
  });

  it('sends JSON with the bearer token and parses the answer with its contract', async () => {
    next = { status: 200, body: JSON.stringify({ id: 'audit-1' }) };
    const answer = await client.analyze('tok-1', { appStoreUrl: 'https://apps.apple.com/x' });
    expect(answer).toEqual({ id: 'audit-1' });
    expect(seen).toMatchObject({
      method: 'POST',
      url: '/api/analyze',
      body: JSON.stringify({ appStoreUrl: 'https://apps.apple.com/x' }),
    });
    expect(seen!.headers.authorization).toBe('Bearer tok-1');
    expect(seen!.headers['content-type']).toBe('application/json');
    expect(seen!.headers['x-access-code']).toBeUndefined();
  });

  it('sends admin calls with the access code, and the method they name', async () => {
    next = { status: 200, body: JSON.stringify({ appId: '389801252', cleared: 3 }) };
    expect(await client.clearAppCache('ADMIN-CODE', '389801252')).toEqual({
      appId: '389801252',
      cleared: 3,
    });
    expect(seen).toMatchObject({ method: 'DELETE', url: '/api/admin/cache/app/389801252' });
    expect(seen!.headers['x-access-code']).toBe('ADMIN-CODE');
    expect(seen!.headers.authorization).toBeUndefined();
  });

  it('puts a report range in the query string', async () => {
    next = { status: 500, body: '' };
    await expect(
      client.report('tok', 'ds 1', { start: '2025-01-01', end: '2025-01-31' }),
    ).rejects.toThrow(ApiError);
    expect(seen!.url).toBe('/api/reports/ds%201?start=2025-01-01&end=2025-01-31');
    await expect(client.report('tok', 'ds-1')).rejects.toThrow(ApiError);
    expect(seen!.url).toBe('/api/reports/ds-1');
  });

  it('tracks keywords and lists them, checking the answers against the contracts', async () => {
    // CONSTRUCTED answer of one tracked term.
    const item = {
      id: '2f1c9a55-7c0e-4a4e-9d8e-5a1b2c3d4e5f',
      term: 'music',
      appId: '324684580',
      storefront: 'us',
      rank: 2,
      previousRank: null,
      bestRank: 2,
      change7d: null,
      checkedAt: '2026-06-01T10:00:00.000Z',
      nextReadAt: '2026-06-02T10:00:00.000Z',
      resultCount: 40,
      source: 'itunes-search',
      lastError: null,
      throttledUntil: null,
      competitors: [],
      popularity: null,
      difficulty: null,
      recent: [{ checkedAt: '2026-06-01T10:00:00.000Z', rank: 2 }],
      createdAt: '2026-06-01T09:59:00.000Z',
    };
    next = { status: 201, body: JSON.stringify({ items: [item] }) };
    const body = { appStoreUrl: 'https://apps.apple.com/us/app/id324684580', terms: ['Music'] };
    expect(await client.trackKeywords('tok', body)).toEqual({ items: [item] });
    expect(seen).toMatchObject({
      method: 'POST',
      url: '/api/keywords',
      body: JSON.stringify(body),
    });
    next = { status: 200, body: JSON.stringify({ items: [{ ...item, rank: 201 }] }) };
    await expect(client.keywords('tok', '324684580', 'us')).rejects.toBeInstanceOf(ZodError);
    expect(seen).toMatchObject({
      method: 'GET',
      url: '/api/keywords?appId=324684580&storefront=us',
    });
  });

  it('uploads each file as a multipart part of its field', async () => {
    next = { status: 413, body: JSON.stringify({ message: 'File size must be less than 20MB' }) };
    const bytes = new TextEncoder().encode('"Date","Impressions"\n7/1/25,10\n');
    const failure = client.upload('tok', { redownloadsCSV: { filename: 'r.csv', bytes } });
    await expect(failure).rejects.toMatchObject({
      status: 413,
      serverMessage: 'File size must be less than 20MB',
    });
    expect(seen!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen!.body).toContain('name="redownloadsCSV"; filename="r.csv"');
    expect(seen!.body).toContain('7/1/25,10');
  });

  const jsonBody = JSON.stringify({ message: 'Invalid access code', code: 'UNAUTHORIZED' });
  it.each([
    ['a JSON error body', jsonBody, `401: ${jsonBody}`, 'Invalid access code'],
    ['a text body', 'upstream down', '401: upstream down', 'upstream down'],
    ['an empty body', '', '401: Unauthorized', 'Unauthorized'],
  ])(
    'turns a non-2xx answer with %s into an ApiError "<status>: <body text>" (docs/product.md#error-catalogue)',
    async (_what, body, message, serverMessage) => {
      next = { status: 401, body, type: 'text/plain' };
      const error = await client.login('a@example.com', 'code').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toBe(message);
      expect((error as ApiError).serverMessage).toBe(serverMessage);
      expect((error as ApiError).status).toBe(401);
    },
  );

  it('refuses an answer that breaks its contract', async () => {
    next = { status: 200, body: JSON.stringify({ sessionToken: 42 }) };
    await expect(client.register('a@example.com', 'code')).rejects.toBeInstanceOf(ZodError);
  });

  it('gives up after the timeout', async () => {
    next = { status: 200, body: JSON.stringify({ id: 'late' }), delayMs: 1_000 };
    const error = await client
      .call('/api/analyze', z.object({ id: z.string() }), { body: {}, timeoutMs: 100 })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('TimeoutError');
  });
});
