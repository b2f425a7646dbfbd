import { describe, expect, it } from 'vitest';
import { hasRunawayQuote, linesText, unreadableNotice } from './export-csv.options';

describe('hasRunawayQuote', () => {
  it('tells a quote that ran over lines from a cell written across lines', () => {
    // Cells as csv-parse gives them back (constructed): a relaxed closing quote keeps the
    // opening one; a well-closed quoted cell does not.
    expect(hasRunawayQuote(['7/2/25', '"3,4\n7/3/25,5,6\n7/4/25,"7"', '8'])).toBe(true);
    expect(hasRunawayQuote(['7/2/25', '"3\r\n7/3/25', '8'])).toBe(true);
    expect(hasRunawayQuote(['7/1/25', 'two\nlines', '"4"5'])).toBe(false);
    expect(hasRunawayQuote(['7/1/25', '1', '2'])).toBe(false);
  });
});

describe('unreadableNotice', () => {
  it('names one line, a span and the rest of the file', () => {
    expect(linesText({ from: 4, to: 4 })).toBe('line 4');
    expect(linesText({ from: 4, to: 6 })).toBe('lines 4 to 6');
    expect(linesText({ from: 4, to: null })).toBe('lines 4 to the end of the file');
    expect(unreadableNotice('redownloads data', { from: 4, to: 4 })).toBe(
      'The redownloads data file: line 4 was left out, unreadable as CSV rows (the quote opened on line 4 is not closed before the next delimiter), so the days written there have no values; fix the quote and upload again.',
    );
  });
});
