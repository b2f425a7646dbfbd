import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSessionToken } from '@aso/db';

/**
 * Crockford's base32 alphabet (https://www.crockford.com/base32.html): digits and upper-case
 * letters without I, L, O and U, so a code read aloud or copied by hand is hard to mistype.
 */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Random bytes per generated access code: 10 bytes = 80 bits (at least 60 against guessing). */
export const ACCESS_CODE_BYTES = 10;

/** Characters per dash-separated group in the canonical form of an access code. */
export const ACCESS_CODE_GROUP_SIZE = 4;

/** Random bytes per session token: 32 bytes = 256 bits (docs/product.md#access-and-sessions). */
export const SESSION_TOKEN_BYTES = 32;

/**
 * Encodes bytes in Crockford base32, most significant bits first, without padding: 5 bits
 * per character, the last character zero-padded on the right (10 bytes -> 16 characters).
 */
export function encodeCrockford(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += CROCKFORD_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * The compact comparison form of an access code as typed: spaces and dashes removed, upper
 * case, and Crockford's read-alike letters decoded (O -> 0, I and L -> 1). Other characters
 * are kept as they are, so a code that was never generated (e.g. an `ADMIN_ACCESS_CODE`
 * chosen by an operator) still compares by the same rule. Returns '' for blank input.
 */
export function normaliseAccessCode(input: string): string {
  return input
    .replace(/[\s-]+/g, '')
    .toUpperCase()
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
}

/** Splits a compact code into groups of {@link ACCESS_CODE_GROUP_SIZE} joined by dashes. */
export function groupAccessCode(compact: string): string {
  const groups: string[] = [];
  for (let i = 0; i < compact.length; i += ACCESS_CODE_GROUP_SIZE) {
    groups.push(compact.slice(i, i + ACCESS_CODE_GROUP_SIZE));
  }
  return groups.join('-');
}

/**
 * The canonical (stored) form of an access code: {@link normaliseAccessCode} then
 * {@link groupAccessCode}, e.g. `abcd efgh-jkmn-pqrs` -> `ABCD-EFGH-JKMN-PQRS`. Two inputs
 * denote the same code exactly when their canonical forms are equal.
 */
export function canonicalAccessCode(input: string): string {
  return groupAccessCode(normaliseAccessCode(input));
}

/**
 * A new access code: {@link ACCESS_CODE_BYTES} bytes from the CSPRNG in grouped Crockford
 * base32, e.g. `7K3M-Q9XA-R2T8-VB4N` (16 characters, 80 bits). `random` is injectable for
 * tests only.
 */
export function generateAccessCode(random: (size: number) => Uint8Array = randomBytes): string {
  return groupAccessCode(encodeCrockford(random(ACCESS_CODE_BYTES)));
}

/** A new session token: 32 CSPRNG bytes as base64url (43 characters, 256 bits). */
export function newSessionToken(): string {
  return randomBytes(SESSION_TOKEN_BYTES).toString('base64url');
}

/** Hex SHA-256 of a session token: the only form in which tokens are stored (`@aso/db`). */
export { hashSessionToken as hashToken } from '@aso/db';

/** The hex SHA-256 under which an access or sign-in code is stored (of its canonical form). */
export function codeHash(canonical: string): string {
  return hashSessionToken(canonical);
}

/**
 * Compares two secrets in time independent of where they differ: both are hashed to 32
 * bytes first, so neither their content nor (beyond hashing cost) their length leaks.
 */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}
