import { describe, expect, it } from 'vitest';
import { formatCount, formatFileSize, formatPercent } from './format.helpers';

describe('formatCount (docs/product.md#dashboard-computation: counts rounded and locale-formatted)', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1234, '1,234'],
    [1234.5, '1,235'],
    [1234567.4, '1,234,567'],
    [-0.4, '0'],
    [-1234, '-1,234'],
    [Number.NaN, '0'],
  ])('%d -> %s', (value, text) => {
    expect(formatCount(value)).toBe(text);
  });
});

describe('formatPercent (docs/product.md#dashboard-computation: one decimal)', () => {
  it.each([
    [4.25, '4.3%'],
    [2.995, '3.0%'],
    [5, '5.0%'],
    [0.04, '0.0%'],
    [-0.04, '0.0%'],
    [-1.04, '-1.0%'],
    [1234.56, '1,234.6%'],
    [Infinity, '0.0%'],
  ])('%d -> %s', (value, text) => {
    expect(formatPercent(value)).toBe(text);
  });

  it('adds a plus sign when asked', () => {
    expect(formatPercent(3, { signed: true })).toBe('+3.0%');
    expect(formatPercent(-3, { signed: true })).toBe('-3.0%');
    expect(formatPercent(0.01, { signed: true })).toBe('0.0%');
  });
});

describe('formatFileSize (docs/product.md#validation-rules: Bytes, KB or MB with two decimals)', () => {
  it.each([
    [0, '0 Bytes'],
    [512, '512 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1048575, '1.00 MB'],
    [1048576, '1.00 MB'],
    [20 * 1024 * 1024, '20.00 MB'],
    [20 * 1024 * 1024 + 1, '20.00 MB'],
  ])('%d bytes -> %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it('rejects negative sizes', () => {
    expect(() => formatFileSize(-1)).toThrow(RangeError);
  });
});
