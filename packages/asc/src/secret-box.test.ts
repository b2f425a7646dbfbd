import { describe, expect, it } from 'vitest';
import { generateSecretsKey, openSecret, sealSecret, secretsKeyFrom } from './secret-box';

describe('secret box', () => {
  const key = secretsKeyFrom(generateSecretsKey());

  it('seals with AES-256-GCM and opens with the same key and owner only', () => {
    const sealed = sealSecret('-----BEGIN PRIVATE KEY-----\nabc', key, 'conn-1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('PRIVATE');
    expect(sealSecret('same', key, 'a')).not.toBe(sealSecret('same', key, 'a'));
    expect(openSecret(sealed, key, 'conn-1')).toBe('-----BEGIN PRIVATE KEY-----\nabc');
    expect(() => openSecret(sealed, key, 'conn-2')).toThrow(/does not open/);
    expect(() => openSecret(sealed, secretsKeyFrom(generateSecretsKey()), 'conn-1')).toThrow(
      /does not open/,
    );
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => openSecret(tampered, key, 'conn-1')).toThrow();
  });

  it('wants SECRETS_KEY as base64 of exactly 32 bytes', () => {
    expect(() => secretsKeyFrom(undefined)).toThrow(/not set/);
    expect(() => secretsKeyFrom(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
    expect(secretsKeyFrom(Buffer.alloc(32, 1).toString('base64'))).toHaveLength(32);
  });
});
