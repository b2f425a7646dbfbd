/**
 * Slow and greedy clients against a listening gateway (a real socket server over the real
 * PostgreSQL and Redis), plus the headers of the docs and strict admin numbers.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import { it } from '@aso/testkit/vitest';
import { admin, startApi } from './access.fixtures';

/** Opens a socket to `port` and resolves once connected. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Resolves with what the server sent once it closes `socket`. */
function closed(socket: Socket): Promise<string> {
  let got = '';
  socket.on('data', (b: Buffer) => (got += b.toString('latin1')));
  socket.on('error', () => undefined);
  return new Promise((resolve) => socket.once('close', () => resolve(got)));
}

describe('slow and greedy connections', () => {
  it('cuts drip-fed bodies at REQUEST_TIMEOUT_MS while others are answered', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, { REQUEST_TIMEOUT_MS: '1500' });
    await api.listen({ host: '127.0.0.1', port: 0 });
    const { port } = api.server.address() as AddressInfo;
    const drips: NodeJS.Timeout[] = [];
    try {
      const sockets = await Promise.all(Array.from({ length: 20 }, () => open(port)));
      const ends = sockets.map((s) => {
        const end = closed(s);
        s.write(
          'POST /api/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 10000\r\n\r\n{',
        );
        drips.push(setInterval(() => s.write(' '), 200));
        return end;
      });
      const started = Date.now();
      // Meanwhile another client is answered at once.
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(res.status).toBe(200);
      const answers = await Promise.all(ends);
      const tookMs = Date.now() - started;
      for (const a of answers) expect(a).toMatch(/^HTTP\/1\.1 408/);
      // The timeout plus Node's check interval (1 s), with a margin.
      expect(tookMs).toBeLessThan(5_000);
    } finally {
      for (const d of drips) clearInterval(d);
      await api.close();
    }
  });

  it('closes connections past CONNECTIONS_PER_ADDRESS_MAX from one address', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, { CONNECTIONS_PER_ADDRESS_MAX: '3' });
    // The server's side of each connection, seen after the cap's own listener (which counts it).
    const serverSide: Socket[] = [];
    api.server.on('connection', (socket: Socket) => serverSide.push(socket));
    await api.listen({ host: '127.0.0.1', port: 0 });
    const { port } = api.server.address() as AddressInfo;
    try {
      const kept = await Promise.all([open(port), open(port), open(port)]);
      const extra = await open(port);
      // The fourth is closed unanswered.
      expect(await closed(extra)).toBe('');
      // Once one closes (on the server too, which frees its place), a new one is served.
      const first = serverSide.find((s) => s.remotePort === kept[0].localPort)!;
      const freed = once(first, 'close');
      kept[0].destroy();
      await freed;
      const again = await fetch(`http://127.0.0.1:${port}/healthz`, {
        headers: { connection: 'close' },
      });
      expect(again.status).toBe(200);
      for (const s of kept) s.destroy();
    } finally {
      await api.close();
    }
  });
});

describe('headers and strict input', () => {
  it('serves /docs with a CSP forbidding framing, and HSTS only over HTTPS', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis, { TRUST_PROXY: 'loopback' });
    try {
      const docs = await api.inject({ method: 'GET', url: '/docs/', remoteAddress: '127.0.0.1' });
      const csp = String(docs.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(docs.headers['x-frame-options']).toBe('DENY');
      expect(docs.headers['strict-transport-security']).toBeUndefined();
      const overTls = await api.inject({
        method: 'GET',
        url: '/healthz',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(overTls.headers['strict-transport-security']).toBe(
        'max-age=31536000; includeSubDomains',
      );
    } finally {
      await api.close();
    }
  });

  it('refuses admin numbers that are not plain whole numbers', async ({ database, redis }) => {
    const api = await startApi(database, redis);
    try {
      const generate = (payload: object) =>
        api.inject({
          method: 'POST',
          url: '/api/admin/generate-code',
          headers: admin(),
          payload,
        });
      for (const maxUses of ['0x41', '1e3', ' 5', '5.0', 2.5, true]) {
        const res = await generate({ maxUses });
        expect(res.statusCode, `${String(maxUses)}: ${res.body}`).toBe(400);
        expect(res.body).toContain('maxUses');
      }
      expect((await generate({ maxUses: '65' })).statusCode).toBe(200);
      expect((await generate({ maxUses: 65, expiresIn: 7 })).statusCode).toBe(200);
    } finally {
      await api.close();
    }
  });
});
