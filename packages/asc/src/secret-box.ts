import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Version tag of the sealed form; a new scheme gets a new tag. */
const VERSION = 'v1';
/** AES-GCM nonce length (bytes): 96 bits, the size GCM is defined for (NIST SP 800-38D). */
const IV_BYTES = 12;

/** Thrown when `SECRETS_KEY` is missing or malformed, or a sealed secret does not open. */
export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
}

/**
 * Decodes `SECRETS_KEY` (base64 of exactly 32 random bytes) into the AES-256 key.
 * Throws SecretBoxError naming the variable (never echoing its value) when it is not that.
 */
export function secretsKeyFrom(base64: string | undefined): Buffer {
  if (!base64) throw new SecretBoxError('SECRETS_KEY is not set (base64 of 32 random bytes)');
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32 || key.toString('base64') !== base64.trim()) {
    throw new SecretBoxError('SECRETS_KEY must be the base64 of exactly 32 bytes');
  }
  return key;
}

/** A new random `SECRETS_KEY` value (base64 of 32 bytes from the OS's CSPRNG). */
export const generateSecretsKey = (): string => randomBytes(32).toString('base64');

/**
 * Encrypts `plain` with AES-256-GCM under `key` (a fresh 12-byte nonce per call) into
 * `v1.<iv>.<tag>.<ciphertext>` (base64url parts). `aad` binds the sealed text to its owner
 * (e.g. a connection id), so a sealed value copied to another row does not open there.
 */
export function sealSecret(plain: string, key: Buffer, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
  return [VERSION, ...parts].join('.');
}

/**
 * Opens a value made by {@link sealSecret} with the same key and `aad`. Throws
 * SecretBoxError (no detail of the value) when the form is unknown or the tag does not
 * verify: wrong key, other owner, or altered text.
 */
export function openSecret(sealed: string, key: Buffer, aad: string): string {
  const [version, iv, tag, body, ...rest] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined || rest.length > 0) {
    throw new SecretBoxError('stored secret has an unknown form');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new SecretBoxError(
      'stored secret does not open with SECRETS_KEY (the key changed without a re-encrypt?)',
    );
  }
}
