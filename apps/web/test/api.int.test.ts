import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAnalyzeAnswer } from '@aso/contracts';
import { ApiError, apiFetch, apiFetchPage } from '../src/lib/api';

// A real HTTP server on loopback answering the cases the client must handle.
let server: Server;
let origin: string;
const seen: { method?: string; type?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, type: req.headers['content-type'], body });
      switch (req.url) {
        case '/api/analyze':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"a1"}');
          break;
        case '/api/pages':
          res
            .writeHead(200, {
              'content-type': 'application/json',
              link: '</api/pages?limit=1&cursor=Y3Vy>; rel="next"',
            })
            .end('[{"id":"first"}]');
          break;
        case '/api/pages?limit=1&cursor=Y3Vy':
          res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":"last"}]');
          break;
        case '/api/bad-shape':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"nope":true}');
          break;
        case '/api/gone':
          res.writeHead(204).end();
          break;
        case '/api/missing':
          res
            .writeHead(404, { 'content-type': 'application/json' })
            .end('{"message":"Audit not found","code":"NOT_FOUND"}');
          break;
        case '/api/empty-error':
          res.writeHead(503).end();
          break;
        case '/api/private':
          res
            .writeHead(401, { 'content-type': 'application/json' })
            .end('{"message":"Please sign in","code":"UNAUTHORIZED"}');
          break;
        case undefined:
        default:
          res.writeHead(500).end('boom');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('apiFetch against a real server', () => {
  it('reads a page of a list with the address of the next one', async () => {
    const first = await apiFetchPage<{ id: string }[]>(`${origin}/api/pages`);
    expect(first).toEqual({ data: [{ id: 'first' }], next: '/api/pages?limit=1&cursor=Y3Vy' });
    const last = await apiFetchPage<{ id: string }[]>(`${origin}${first.next}`);
    expect(last).toEqual({ data: [{ id: 'last' }], next: null });
  });

  it('sends JSON and validates the answer with the contract', async () => {
    const answer = await apiFetch(`${origin}/api/analyze`, {
      method: 'POST',
      body: { appStoreUrl: 'x' },
      schema: ZAnalyzeAnswer,
    });
    expect(answer).toEqual({ id: 'a1' });
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      type: 'application/json',
      body: '{"appStoreUrl":"x"}',
    });
    await expect(apiFetch(`${origin}/api/bad-shape`, { schema: ZAnalyzeAnswer })).rejects.toThrow();
  });

  it('resolves an empty 204 answer to undefined', async () => {
    await expect(apiFetch(`${origin}/api/gone`, { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('throws ApiError "<status>: <body text>", or the status text for an empty body', async () => {
    const err = await apiFetch(`${origin}/api/missing`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('404: {"message":"Audit not found","code":"NOT_FOUND"}');
    expect((err as ApiError).body?.message).toBe('Audit not found');
    await expect(apiFetch(`${origin}/api/empty-error`)).rejects.toThrow('503: Service Unavailable');
  });

  it('turns a 401 into null when asked to', async () => {
    await expect(apiFetch(`${origin}/api/private`, { on401: 'null' })).resolves.toBeNull();
    await expect(apiFetch(`${origin}/api/private`)).rejects.toThrow(
      '401: {"message":"Please sign in"',
    );
  });
});
