import { describe, expect, it } from 'vitest';
import { parseCellValue, toNumber } from './number.parser';

describe('parseCellValue (docs/product.md#dashboard-computation)', () => {
  it.each([
    ['1,234', 1234],
    ['1,234,567.5', 1234567.5],
    ['12.5%', 12.5],
    ['12.5 %', 12.5],
    ['0', 0],
    ['-0', 0],
    ['-5', -5],
    ['+7', 7],
    [' 42 ', 42],
    ['.5', 0.5],
    ['1e3', 1000],
  ])('reads %j as the number %d', (raw, expected) => {
    expect(parseCellValue(raw)).toBe(expected);
  });

  it.each(['', '   ', '-', '\u2013', '\u2014'])('reads %j as a missing value', (raw) => {
    expect(parseCellValue(raw)).toBeNull();
  });

  it('keeps other text, trimmed', () => {
    expect(parseCellValue(' N/A ')).toBe('N/A');
    expect(parseCellValue('7/20/25')).toBe('7/20/25');
    expect(parseCellValue('United States')).toBe('United States');
    expect(parseCellValue('12abc')).toBe('12abc');
  });
});

describe('toNumber (docs/product.md#dashboard-computation: non-numeric values count as 0)', () => {
  it('passes finite numbers through', () => {
    expect(toNumber(12)).toBe(12);
    expect(toNumber(-3.5)).toBe(-3.5);
  });

  it('reads numeric text', () => {
    expect(toNumber('1,234')).toBe(1234);
    expect(toNumber('12.5%')).toBe(12.5);
  });

  it.each([['-'], [''], ['N/A'], [null], [undefined], [Number.NaN], [Infinity], [true], [{}]])(
    'counts %j as 0',
    (value) => {
      expect(toNumber(value)).toBe(0);
    },
  );
});
