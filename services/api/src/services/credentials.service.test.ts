import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CROCKFORD_ALPHABET,
  canonicalAccessCode,
  encodeCrockford,
  generateAccessCode,
  hashToken,
  newSessionToken,
  normaliseAccessCode,
  sameSecret,
} from './credentials.service';

describe('Crockford base32', () => {
  it('encodes known vectors most significant bits first', () => {
    expect(encodeCrockford(new Uint8Array([]))).toBe('');
    // 0x00 -> 00000|000 -> "0" then "0" (padded)
    expect(encodeCrockford(new Uint8Array([0]))).toBe('00');
    // 0xff -> 11111|111(00) -> "Z" then 11100 = 28 = "W"
    expect(encodeCrockford(new Uint8Array([0xff]))).toBe('ZW');
    // "foobar" in Crockford base32 (RFC 4648 test vector re-mapped to Crockford's alphabet).
    expect(encodeCrockford(new TextEncoder().encode('foobar'))).toBe('CSQPYRK1E8');
    // 10 bytes of 0xff are 80 one-bits: 16 'Z's, no padding.
    expect(encodeCrockford(new Uint8Array(10).fill(0xff))).toBe('Z'.repeat(16));
  });
});

describe('access code generation', () => {
  it('draws 10 bytes and formats four groups of four Crockford characters', () => {
    const sizes: number[] = [];
    const code = generateAccessCode((n) => {
      sizes.push(n);
      return Uint8Array.from({ length: n }, (_, i) => i * 25);
    });
    expect(sizes).toEqual([10]);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    // Bytes 0x0019324b647d96afc8e1 read as one 80-bit number, 16 five-bit digits (computed independently).
    expect(code).toBe('00CK-4JV4-FPBA-ZJ71');
  });

  it('uses the real CSPRNG by default: distinct codes over the whole alphabet', () => {
    const codes = new Set(Array.from({ length: 500 }, () => generateAccessCode()));
    expect(codes.size).toBe(500);
    const chars = new Set([...codes].join('').replaceAll('-', ''));
    expect([...chars].every((c) => CROCKFORD_ALPHABET.includes(c))).toBe(true);
    // 8000 characters drawn from 32: every one shows up.
    expect(chars.size).toBe(32);
  });

  it('round-trips: a generated code is its own canonical form', () => {
    for (let i = 0; i < 50; i++) {
      const code = generateAccessCode();
      expect(canonicalAccessCode(code)).toBe(code);
    }
  });
});

describe('access code normalisation', () => {
  it('ignores case, dashes and spaces', () => {
    expect(canonicalAccessCode('abcd-efgh-jkmn-pqrs')).toBe('ABCD-EFGH-JKMN-PQRS');
    expect(canonicalAccessCode('  ABCDEFGHJKMNPQRS ')).toBe('ABCD-EFGH-JKMN-PQRS');
    expect(canonicalAccessCode('abcd efgh--jkmn pqrs')).toBe('ABCD-EFGH-JKMN-PQRS');
  });

  it("decodes Crockford's read-alike letters", () => {
    expect(normaliseAccessCode('o0Oi1IlL')).toBe('00011111');
    expect(canonicalAccessCode('ABCO-EFGI-JKML-PQRS')).toBe('ABC0-EFG1-JKM1-PQRS');
  });

  it('keeps other characters, so operator-chosen codes compare by the same rule', () => {
    expect(canonicalAccessCode('my-admin_secret!')).toBe('MYAD-M1N_-SECR-ET!');
    expect(canonicalAccessCode('My Admin_Secret!')).toBe(canonicalAccessCode('my-admin_secret!'));
    expect(normaliseAccessCode(' - ')).toBe('');
  });
});

describe('session tokens', () => {
  it('are 32 random bytes in base64url', () => {
    const a = newSessionToken();
    const b = newSessionToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('are stored as their hex SHA-256', () => {
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hashToken('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
  });
});

describe('sameSecret', () => {
  it('tells equal from different secrets of any length', () => {
    expect(sameSecret('ABCD-EFGH', 'ABCD-EFGH')).toBe(true);
    expect(sameSecret('ABCD-EFGH', 'ABCD-EFGJ')).toBe(false);
    expect(sameSecret('ABCD', 'ABCD-EFGH')).toBe(false);
    expect(sameSecret('', '')).toBe(true);
  });
});
