import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { AscKeyError, AscTokenSigner, readAscPrivateKey } from './asc-token';

const pair = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const pem = (k: ReturnType<typeof pair>) =>
  k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('App Store Connect tokens', () => {
  it('signs ES256 with kid and typ, iss, iat, exp 19 minutes on, aud appstoreconnect-v1', async () => {
    const keys = pair();
    const now = Date.UTC(2026, 10, 28, 5, 0, 0);
    const signer = new AscTokenSigner(
      {
        issuerId: '57246542-96fe-1a63-e053-0824d011072a',
        keyId: '2X9R4HXF34',
        privateKey: readAscPrivateKey(pem(keys)),
      },
      { now: () => now },
    );
    const token = await signer.token();
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: '2X9R4HXF34', typ: 'JWT' });
    const { payload } = await jwtVerify(token, keys.publicKey, {
      audience: 'appstoreconnect-v1',
      issuer: '57246542-96fe-1a63-e053-0824d011072a',
      currentDate: new Date(now),
    });
    expect(payload.iat).toBe(now / 1000);
    expect(payload.exp).toBe(now / 1000 + 19 * 60);
  });

  it('reuses the token until two minutes before it expires, then signs a new one', async () => {
    let now = Date.UTC(2026, 10, 28, 5, 0, 0);
    const signer = new AscTokenSigner(
      { issuerId: 'i', keyId: 'K', privateKey: readAscPrivateKey(pem(pair())) },
      { now: () => now },
    );
    const first = await signer.token();
    now += 16 * 60_000;
    expect(await signer.token()).toBe(first);
    now += 2 * 60_000;
    expect(await signer.token()).not.toBe(first);
  });

  it('never lets a token live more than 20 minutes', async () => {
    const keys = pair();
    const signer = new AscTokenSigner(
      { issuerId: 'i', keyId: 'K', privateKey: readAscPrivateKey(pem(keys)) },
      { lifetimeMs: 60 * 60_000 },
    );
    const { payload } = await jwtVerify(await signer.token(), keys.publicKey);
    expect(payload.exp! - payload.iat!).toBe(20 * 60);
  });

  it('refuses a key that is not EC P-256 PEM, without quoting it', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(() => readAscPrivateKey(rsa)).toThrow(/EC P-256/);
    expect(() => readAscPrivateKey(p384)).toThrow(/EC P-256/);
    expect(() => readAscPrivateKey('hello')).toThrow(AscKeyError);
    expect(() =>
      readAscPrivateKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----'),
    ).toThrow(/not a readable/);
    try {
      readAscPrivateKey(rsa);
    } catch (e) {
      expect((e as Error).message).not.toContain(rsa.split('\n')[1]!);
    }
  });
});
