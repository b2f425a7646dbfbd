import { describe, expect, it } from 'vitest';
import { isHeaderRow, uniqueHeaders } from './export-header.finder';

describe('isHeaderRow (docs/product.md#merging-exports)', () => {
  it('needs three cells, one exactly Date', () => {
    expect(isHeaderRow(['Date', 'A', 'B'])).toBe(true);
    expect(isHeaderRow([' date ', 'A', 'B'])).toBe(true);
    expect(isHeaderRow(['\ufeffDATE', 'A', 'B'])).toBe(true);
    expect(isHeaderRow(['Date', 'A'])).toBe(false);
    expect(isHeaderRow(['Date Range', 'Jul 1, 2025', 'Jul 31, 2025'])).toBe(false);
    expect(isHeaderRow(['Dates', 'A', 'B'])).toBe(false);
  });
});

describe('uniqueHeaders', () => {
  it('names empty cells and numbers repeated names, case-insensitively', () => {
    expect(uniqueHeaders([' Date ', 'A', '', 'a', 'Two  words'])).toEqual({
      headers: ['Date', 'A', 'Column 3', 'a (2)', 'Two words'],
      unnamed: new Set([2]),
    });
  });
});
