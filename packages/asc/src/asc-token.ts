import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/** Audience of every App Store Connect API token (Apple: "Generating tokens for API requests"). */
export const ASC_AUDIENCE = 'appstoreconnect-v1';
/**
 * Longest lifetime Apple accepts (ms): "tokens that have an expiration time greater than
 * 20 minutes into the future are not valid"
 * (https://developer.apple.com/documentation/appstoreconnectapi/generating-tokens-for-api-requests).
 */
export const ASC_MAX_TOKEN_LIFETIME_MS = 20 * 60_000;

/** Thrown when a private key is not an EC P-256 key in PEM; the message never quotes it. */
export class AscKeyError extends Error {
  override readonly name = 'AscKeyError';
}

/**
 * Reads `pem` (the text of the .p8 App Store Connect gives: PKCS#8 "PRIVATE KEY", or SEC1
 * "EC PRIVATE KEY") into a private KeyObject. Throws AscKeyError when it is not PEM, not a
 * private key, or not on curve P-256 (ES256 is the only algorithm Apple accepts).
 */
export function readAscPrivateKey(pem: string): KeyObject {
  if (!/-----BEGIN (EC )?PRIVATE KEY-----/.test(pem)) {
    throw new AscKeyError(
      'privateKey must be the PEM text of the .p8 file (-----BEGIN PRIVATE KEY-----)',
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new AscKeyError('privateKey is not a readable PEM private key');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new AscKeyError(
      'privateKey must be an EC P-256 key (App Store Connect API keys sign with ES256)',
    );
  }
  return key;
}

/** Who signs: an App Store Connect API key. */
export interface TAscKey {
  /** Issuer id (a UUID, Users and Access > Integrations). */
  issuerId: string;
  /** Key id (10 characters), sent as the JWT header `kid`. */
  keyId: string;
  /** The private key, read by {@link readAscPrivateKey}. */
  privateKey: KeyObject;
}

/**
 * Makes and caches the bearer token of one key: ES256 JWT with header `{alg, kid, typ: JWT}`
 * and claims `iss`, `iat`, `exp` (`lifetimeMs` after `iat`, at most 20 min), `aud`. The
 * same token is reused until `renewBeforeMs` before it expires, then a new one is signed.
 */
export class AscTokenSigner {
  private cached: { token: string; expiresAtMs: number } | null = null;

  constructor(
    private readonly key: TAscKey,
    private readonly opts: { lifetimeMs?: number; renewBeforeMs?: number; now?: () => number } = {},
  ) {}

  /** The current token (signs a new one when none is cached or it is about to expire). */
  async token(): Promise<string> {
    const now = (this.opts.now ?? Date.now)();
    const renewBefore = this.opts.renewBeforeMs ?? 120_000;
    if (this.cached && this.cached.expiresAtMs - renewBefore > now) return this.cached.token;
    const lifetime = Math.min(this.opts.lifetimeMs ?? 19 * 60_000, ASC_MAX_TOKEN_LIFETIME_MS);
    const iat = Math.floor(now / 1000);
    const exp = iat + Math.floor(lifetime / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: this.key.keyId, typ: 'JWT' })
      .setIssuer(this.key.issuerId)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setAudience(ASC_AUDIENCE)
      .sign(this.key.privateKey);
    this.cached = { token, expiresAtMs: exp * 1000 };
    return token;
  }
}
