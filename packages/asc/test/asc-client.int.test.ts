/**
 * The App Store Connect client and the stand-in against each other over real HTTP: the
 * stand-in's token rules (signature, audience, lifetime, issue time), segment downloads that
 * follow redirects only under the https rule, and `X-Rate-Limit` pacing that really spaces the
 * requests out when the hour's budget runs low. Keys are generated here.
 */
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AscClient } from '../src/asc.client';
import { AscApiError } from '../src/asc.errors';
import type { TAscSegment } from '../src/asc.resources';
import { ASC_AUDIENCE } from '../src/asc-token';
import { startAscStandIn, type TAscStandIn } from '../src/stand-in';

const ISSUER = '69a6de70-03db-47e3-e053-5b8c7c11a4d1';
const KEY_ID = 'CLIENTKEY1';
const APP = { id: '1500000101', name: 'Constructed Compass', bundleId: 'com.example.compass' };

function ecKeyPair() {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('the stand-in refuses tokens Apple would refuse', () => {
  const key = ecKeyPair();
  let asc: TAscStandIn;

  beforeAll(async () => {
    asc = await startAscStandIn({
      keys: [{ issuerId: ISSUER, keyId: KEY_ID, publicKey: key.publicKey, role: 'ADMIN' }],
      apps: [APP],
      firstDate: '2026-04-01',
      lastProcessingDate: '2026-04-05',
    });
  });
  afterAll(() => asc.close());

  /** A token with the given claims (seconds), signed by `signer` (the registered key by default). */
  const token = (
    claims: { iat: number; exp: number; aud?: string; iss?: string },
    signer: KeyObject = key.privateKey,
  ) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: KEY_ID, typ: 'JWT' })
      .setIssuer(claims.iss ?? ISSUER)
      .setIssuedAt(claims.iat)
      .setExpirationTime(claims.exp)
      .setAudience(claims.aud ?? ASC_AUDIENCE)
      .sign(signer);

  /** The status and the detail of `GET /v1/apps` with `bearer`. */
  const call = async (bearer: string) => {
    const res = await fetch(`${asc.url}/v1/apps`, {
      headers: { authorization: `Bearer ${bearer}` },
      signal: AbortSignal.timeout(5_000),
    });
    const body = (await res.json()) as { errors?: Array<{ detail?: string }> };
    return { status: res.status, detail: body.errors?.[0]?.detail ?? '' };
  };

  const now = () => Math.floor(Date.now() / 1000);

  it('accepts a well-formed token, and one issued a few seconds ahead of its clock', async () => {
    expect((await call(await token({ iat: now(), exp: now() + 600 }))).status).toBe(200);
    expect((await call(await token({ iat: now() + 20, exp: now() + 620 }))).status).toBe(200);
  });

  it('refuses a wrong audience, a lifetime over 20 minutes, a bad signature, an iat in the future and an expired token', async () => {
    const wrongAudience = await call(
      await token({ iat: now(), exp: now() + 600, aud: 'appstoreconnect-v2' }),
    );
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.detail).toMatch(/"aud" claim/);

    const tooLong = await call(await token({ iat: now(), exp: now() + 20 * 60 + 60 }));
    expect(tooLong.status).toBe(401);
    expect(tooLong.detail).toMatch(/lifetime is longer than 20 minutes/);

    // Signed by another key under the registered key id.
    const forged = await call(
      await token({ iat: now(), exp: now() + 600 }, ecKeyPair().privateKey),
    );
    expect(forged.status).toBe(401);
    expect(forged.detail).toMatch(/signature verification failed/);

    const future = await call(await token({ iat: now() + 300, exp: now() + 900 }));
    expect(future.status).toBe(401);
    expect(future.detail).toMatch(/iat is in the future/);

    const expired = await call(await token({ iat: now() - 900, exp: now() - 60 }));
    expect(expired.status).toBe(401);
    expect(expired.detail).toMatch(/"exp" claim/);

    const wrongIssuer = await call(
      await token({ iat: now(), exp: now() + 600, iss: '00000000-0000-0000-0000-000000000000' }),
    );
    expect(wrongIssuer.status).toBe(401);
  });
});

describe('segment downloads', () => {
  const bytes = gzipSync('Date\tCounts\n2026-04-01\t3\n');
  const segment = (url: string): TAscSegment => ({
    id: 'seg-1',
    url,
    checksum: createHash('md5').update(bytes).digest('hex'),
    sizeInBytes: bytes.length,
  });
  /** The configured origin (plain http, as a local stand-in is). */
  let origin: Server;
  let originUrl: string;
  /** Another plain-http origin: never to be fetched. */
  let elsewhere: Server;
  let elsewhereUrl: string;
  let elsewhereHits = 0;

  beforeAll(async () => {
    elsewhere = createServer((_req, res) => {
      elsewhereHits++;
      res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
    });
    elsewhereUrl = await listen(elsewhere);
    origin = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/file') {
        res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
      } else if (url.pathname === '/to-file') {
        res.writeHead(302, { location: '/file' }).end();
      } else if (url.pathname === '/to-elsewhere') {
        res.writeHead(307, { location: `${elsewhereUrl}/file` }).end();
      } else if (url.pathname === '/loop') {
        res.writeHead(301, { location: '/loop' }).end();
      } else {
        res.writeHead(404).end();
      }
    });
    originUrl = await listen(origin);
  });
  afterAll(async () => {
    await close(origin);
    await close(elsewhere);
  });

  const client = () =>
    new AscClient({
      origin: originUrl,
      key: { issuerId: ISSUER, keyId: KEY_ID, privateKey: ecKeyPair().privateKey },
      timeoutMs: 5_000,
      attempts: 2,
      baseDelayMs: 10,
    });

  it('follows a redirect that stays on the configured origin, checking the file', async () => {
    expect(await client().downloadSegment(segment(`${originUrl}/to-file`))).toEqual(bytes);
  });

  it('refuses a redirect to plain http off the configured origin without fetching it', async () => {
    const error = await client()
      .downloadSegment(segment(`${originUrl}/to-elsewhere`))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AscApiError);
    expect((error as AscApiError).message).toMatch(
      /only https is followed \(http:\/\/127\.0\.0\.1/,
    );
    expect(elsewhereHits).toBe(0);
    // The same URL given directly is refused as well.
    await expect(client().downloadSegment(segment(`${elsewhereUrl}/file`))).rejects.toThrow(
      /only https is followed/,
    );
    expect(elsewhereHits).toBe(0);
  });

  it('gives up on a redirect loop', async () => {
    await expect(client().downloadSegment(segment(`${originUrl}/loop`))).rejects.toThrow(
      /redirected more than 5 times/,
    );
  });
});

describe('X-Rate-Limit pacing', () => {
  const key = ecKeyPair();
  let asc: TAscStandIn;

  beforeAll(async () => {
    asc = await startAscStandIn({
      keys: [{ issuerId: ISSUER, keyId: KEY_ID, publicKey: key.publicKey, role: 'ADMIN' }],
      apps: [APP],
      firstDate: '2026-04-01',
      lastProcessingDate: '2026-04-05',
      // A budget of 10 requests in the window: half of it is left after the fifth.
      rateLimit: 10,
      rateWindowMs: 600_000,
    });
  });
  afterAll(() => asc.close());

  it('spaces requests out once the remaining budget falls below the low-water mark, and not before', async () => {
    const pauseMs = 150;
    const client = new AscClient({
      origin: asc.url,
      key: { issuerId: ISSUER, keyId: KEY_ID, privateKey: key.privateKey },
      timeoutMs: 5_000,
      lowWaterRatio: 0.5,
      maxPauseMs: pauseMs,
    });
    for (let i = 0; i < 8; i++) await client.listApps();
    expect(client.rateLimit).toEqual({ limit: 10, remaining: 2 });
    // Requests 6, 7 and 8 followed answers saying 5, 4 and 3 were left: each waited.
    expect(client.pausedMs).toBe(3 * pauseMs);
    const times = asc.apiRequestTimes();
    expect(times).toHaveLength(8);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // A timer never fires early; a millisecond of rounding between the two clocks is allowed.
    for (const gap of gaps.slice(4)) expect(gap).toBeGreaterThanOrEqual(pauseMs - 1);
  });
});
