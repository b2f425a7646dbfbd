import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BenchFailure } from '../bench.types';
import { loadTest, parseWrkSummary } from './wrk.load';

// Runs the real wrk (Debian's package) against real local HTTP servers.
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(
  handler: (headers: IncomingHttpHeaders) => { status: number; delayMs: number },
): Promise<{ url: string; answered: () => number; seen: IncomingHttpHeaders[] }> {
  let answered = 0;
  const seen: IncomingHttpHeaders[] = [];
  server = createServer((req, res) => {
    seen.push(req.headers);
    const { status, delayMs } = handler(req.headers);
    setTimeout(() => {
      answered++;
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
    }, delayMs);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api/x?start=2025-01-01`, answered: () => answered, seen };
}

describe('loadTest (wrk)', () => {
  it('measures the answers and latency of a server that takes 20 ms per answer', async () => {
    const target = await serve(() => ({ status: 200, delayMs: 20 }));
    const r = await loadTest(target.url, {
      durationS: 1,
      connections: 2,
      headers: { 'Accept-Encoding': 'gzip, br' },
      authorization: 'Bearer secret-token',
    });
    // Two connections, one answer each per 20 ms: about 100 answers/s, never more.
    expect(r.requests).toBeGreaterThan(20);
    expect(r.requests).toBeLessThanOrEqual(target.answered());
    expect(r.rps).toBeGreaterThan(20);
    expect(r.rps).toBeLessThan(105);
    expect(r.p50).toBeGreaterThanOrEqual(20);
    expect(r.p50).toBeLessThan(200);
    expect(r.p99).toBeGreaterThanOrEqual(r.p50);
    // Every request carried the headers and the token (given through the environment).
    expect(target.seen.length).toBeGreaterThan(0);
    for (const h of target.seen) {
      expect(h['accept-encoding']).toBe('gzip, br');
      expect(h.authorization).toBe('Bearer secret-token');
    }
  });

  it('sends no Authorization without one', async () => {
    const target = await serve(() => ({ status: 200, delayMs: 0 }));
    await loadTest(target.url, { durationS: 1, connections: 1 });
    expect(target.seen.some((h) => 'authorization' in h)).toBe(false);
  });

  it('fails the run when any answer has a status of 400 or more', async () => {
    let n = 0;
    const target = await serve(() => ({ status: ++n % 50 === 0 ? 503 : 200, delayMs: 1 }));
    const run = loadTest(target.url, { durationS: 1, connections: 2 });
    await expect(run).rejects.toThrow(BenchFailure);
    await expect(run).rejects.toThrow(/[1-9]\d* answers with a status of 400 or more/);
  });

  it('fails the run when nothing listens', async () => {
    const target = await serve(() => ({ status: 200, delayMs: 0 }));
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(loadTest(target.url, { durationS: 1, connections: 1 })).rejects.toThrow(
      /socket errors|wrk failed/,
    );
  });
});

describe('parseWrkSummary', () => {
  it('reads the summary line among wrk’s own report', () => {
    const s = parseWrkSummary(
      'Running 1s test @ http://x\n  1 threads and 2 connections\n' +
        'WRK_SUMMARY {"requests":97,"durationUs":1003000,"bytes":9700,"connectErrors":0,"readErrors":0,' +
        '"writeErrors":0,"statusErrors":0,"timeouts":0,"p50Us":20512,"p99Us":23001,"maxUs":24100}\n',
    );
    expect(s).toMatchObject({ requests: 97, durationUs: 1_003_000, p50Us: 20_512, p99Us: 23_001 });
  });

  it('refuses output without the line or with a malformed one', () => {
    expect(() => parseWrkSummary('Running 1s test\n')).toThrow(/printed no summary/);
    expect(() => parseWrkSummary('WRK_SUMMARY {"requests":-1}\n')).toThrow(/malformed/);
  });
});
