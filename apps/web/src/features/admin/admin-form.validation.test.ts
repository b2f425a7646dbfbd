import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_USES,
  codeTypeLabel,
  formatDateTime,
  parseGenerateForm,
} from './admin-form.validation';

describe('parseGenerateForm', () => {
  it('accepts the default of 3 uses without expiry', () => {
    expect(DEFAULT_MAX_USES).toBe(3);
    expect(parseGenerateForm(String(DEFAULT_MAX_USES), '')).toEqual({
      ok: true,
      value: { maxUses: 3 },
    });
  });

  it('accepts the minimum of 1 for both fields', () => {
    expect(parseGenerateForm('1', ' 1 ')).toEqual({
      ok: true,
      value: { maxUses: 1, expiresIn: 1 },
    });
  });

  it('refuses 0, negatives, fractions and text for max uses', () => {
    for (const bad of ['0', '-2', '1.5', 'three', '']) {
      const result = parseGenerateForm(bad, '');
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.errors.maxUses).toBe('Max uses must be a whole number of at least 1');
    }
  });

  it('refuses an expiry below one day but allows leaving it empty', () => {
    const result = parseGenerateForm('3', '0');
    expect(result).toEqual({
      ok: false,
      errors: { expiresIn: 'Expiry must be a whole number of days, at least 1' },
    });
    expect(parseGenerateForm('3', '   ').ok).toBe(true);
  });

  it('reports both fields at once', () => {
    const result = parseGenerateForm('0', 'x');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(['expiresIn', 'maxUses']);
  });
});

describe('display helpers', () => {
  it('labels code types', () => {
    expect(codeTypeLabel(true)).toBe('Admin');
    expect(codeTypeLabel(false)).toBe('User');
  });

  it('formats timestamps and keeps unparseable text', () => {
    expect(formatDateTime('2026-11-21T09:05:00.000Z')).toMatch(
      /^Nov 2[01], 2026, \d{2}:\d{2} (AM|PM)$/,
    );
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatDateTime(null)).toBe('');
  });
});
