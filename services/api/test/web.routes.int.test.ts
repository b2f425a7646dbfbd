import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiEnv } from '../src/env';
import { errorHandlerPlugin } from '../src/plugins/error-handler.plugin';
import { webRoutes } from '../src/routes/web.routes';

// A constructed build folder (not the real one, which may not be built): an index.html and
// one hashed asset, enough to check routing, caching and headers.
const INDEX_HTML =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';

async function buildApp(distDir: string): Promise<FastifyInstance> {
  const app = Fastify();
  app.decorate('config', parseApiEnv({ WEB_DIST_DIR: distDir }));
  await app.register(errorHandlerPlugin);
  app.get('/api/ping', async () => ({ ok: true }));
  await app.register(webRoutes);
  await app.ready();
  return app;
}

describe('webRoutes', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aso-web-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX_HTML);
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
    // The build's precompressed copies (apps/web vite.config.ts writes them beside each file).
    const big = `export const text = ${JSON.stringify('ASO '.repeat(5000))};`;
    writeFileSync(join(dir, 'assets', 'big-def456.js'), big);
    writeFileSync(join(dir, 'assets', 'big-def456.js.br'), brotliCompressSync(big));
    writeFileSync(join(dir, 'assets', 'big-def456.js.gz'), gzipSync(big));
    app = await buildApp(dir);
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers client routes with index.html, revalidated', async () => {
    for (const url of [
      '/',
      '/results/3f1c2a9e-0000-4000-8000-000000000000',
      '/admin',
      '/no/such/page?x=1',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toBe(INDEX_HTML);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('marks shared pages noindex, without a referrer or a cookie, and only them', async () => {
    const shared = await app.inject({
      method: 'GET',
      url: '/s/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde',
    });
    expect(shared.statusCode).toBe(200);
    expect(shared.body).toBe(INDEX_HTML);
    expect(shared.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(shared.headers['referrer-policy']).toBe('no-referrer');
    expect(shared.headers['set-cookie']).toBeUndefined();
    const own = await app.inject({
      method: 'GET',
      url: '/results/3f1c2a9e-0000-4000-8000-000000000000',
    });
    expect(own.headers['x-robots-tag']).toBeUndefined();
  });

  it('serves hashed assets with a year of immutable caching', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe('console.log("app")');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the precompressed copy Accept-Encoding asks for, keeping the long cache', async () => {
    const url = '/assets/big-def456.js';
    const original = String(
      (await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } })).body,
    );
    const cases: [string | undefined, string | undefined][] = [
      ['br, gzip', 'br'],
      ['gzip, deflate', 'gzip'],
      ['gzip;q=1, br;q=0', 'gzip'],
      ['deflate', undefined],
      [undefined, undefined],
    ];
    for (const [accept, coding] of cases) {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: accept === undefined ? {} : { 'accept-encoding': accept },
      });
      expect(res.statusCode, String(accept)).toBe(200);
      expect(res.headers['content-encoding'], String(accept)).toBe(coding);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      const body =
        coding === 'br'
          ? brotliDecompressSync(res.rawPayload).toString()
          : coding === 'gzip'
            ? gunzipSync(res.rawPayload).toString()
            : res.body;
      expect(body).toBe(original);
      if (coding) expect(res.rawPayload.length).toBeLessThan(original.length / 10);
    }
  });

  it('never answers API paths or missing files with the app', async () => {
    const api = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
    const missing = await app.inject({ method: 'GET', url: '/assets/missing-1.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/json/);
    const real = await app.inject({ method: 'GET', url: '/api/ping' });
    expect(real.json()).toEqual({ ok: true });
  });

  it('serves files added after start (a rebuild) and refuses paths that leave the folder', async () => {
    writeFileSync(join(dir, 'assets', 'index-new456.js'), 'console.log("rebuilt")');
    const rebuilt = await app.inject({ method: 'GET', url: '/assets/index-new456.js' });
    expect(rebuilt.statusCode).toBe(200);
    expect(rebuilt.body).toBe('console.log("rebuilt")');
    // A file next to the build folder, reachable only by climbing out of it.
    const secretName = `aso-secret-${Date.now()}.txt`;
    const secret = join(dir, '..', secretName);
    writeFileSync(secret, 'TOP-SECRET');
    try {
      for (const url of [
        `/%2e%2e/${secretName}`,
        `/assets/%2e%2e/%2e%2e/${secretName}`,
        `/assets/..%2f..%2f${secretName}`,
        `/..%5c${secretName}`,
      ]) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.body, url).not.toContain('TOP-SECRET');
        expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      }
    } finally {
      rmSync(secret, { force: true });
    }
  });

  it('sends a CSP allowing only this origin for scripts and the store hosts for media', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['img-src']).toEqual(
      expect.arrayContaining(["'self'", 'https://*.mzstatic.com']),
    );
    expect(directives['media-src']).toEqual(
      expect.arrayContaining(['blob:', 'https://*.mzstatic.com']),
    );
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('serves nothing when the folder has no build', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'aso-web-empty-'));
    const bare = await buildApp(empty);
    try {
      const res = await bare.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-security-policy']).toBeUndefined();
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
