import { describe, expect, it } from 'vitest';
import { abbreviateCount } from './count-format';

describe('abbreviateCount (docs/product.md#limits-and-constants: K from 1,000, M from 1,000,000)', () => {
  it('keeps counts under 1,000 as they are', () => {
    expect(abbreviateCount(0)).toBe('0');
    expect(abbreviateCount(999)).toBe('999');
    expect(abbreviateCount('42')).toBe('42');
  });
  it('switches to K at exactly 1,000', () => {
    expect(abbreviateCount(1000)).toBe('1K');
    expect(abbreviateCount(1289)).toBe('1.3K');
    expect(abbreviateCount('1,472')).toBe('1.5K');
    expect(abbreviateCount(999_949)).toBe('999.9K');
  });
  it('switches to M at exactly 1,000,000 and never shows 1000K', () => {
    expect(abbreviateCount(999_999)).toBe('1M');
    expect(abbreviateCount(1_000_000)).toBe('1M');
    expect(abbreviateCount('40585992')).toBe('40.6M');
    expect(abbreviateCount('27,873,349')).toBe('27.9M');
    expect(abbreviateCount('36130486')).toBe('36.1M');
  });
  it('returns text that is not a count unchanged, and null as 0', () => {
    expect(abbreviateCount('1.2M')).toBe('1.2M');
    expect(abbreviateCount('')).toBe('');
    expect(abbreviateCount(null)).toBe('0');
  });
});
