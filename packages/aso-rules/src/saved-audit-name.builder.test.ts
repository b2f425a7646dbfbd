import { describe, expect, it } from 'vitest';
import { buildSavedAuditName } from './saved-audit-name.builder';

describe('buildSavedAuditName', () => {
  it("builds '<app name> <CC> <dd-mm-yyyy>'", () => {
    expect(buildSavedAuditName('Spotify: Music and Podcasts', 'us', new Date(2026, 0, 5))).toBe(
      'Spotify: Music and Podcasts US 05-01-2026',
    );
    expect(buildSavedAuditName(' Instagram ', 'GB', new Date(2025, 11, 31))).toBe(
      'Instagram GB 31-12-2025',
    );
  });
  it("defaults the storefront to 'us'", () => {
    expect(buildSavedAuditName('X', '', new Date(2026, 5, 1))).toBe('X US 01-06-2026');
  });
  it('rejects an invalid date', () => {
    expect(() => buildSavedAuditName('X', 'us', new Date('nope'))).toThrow(/valid Date/);
  });
});
