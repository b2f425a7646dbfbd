import { describe, expect, it } from 'vitest';
import { rowsForRange } from './dataset.helpers';
import { buildExportCsv, exportCell, exportFileName } from './export-csv';

describe('exportCell', () => {
  it('writes numbers as numbers and null as empty', () => {
    expect(exportCell(1234)).toBe('1234');
    expect(exportCell(-5)).toBe('-5');
    expect(exportCell(null)).toBe('');
    expect(exportCell(undefined)).toBe('');
  });

  it('neutralises text a spreadsheet would run as a formula, but not a negative number', () => {
    expect(exportCell('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(exportCell('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(exportCell('+1+2')).toBe(`'+1+2`);
    expect(exportCell('-12.5')).toBe('-12.5');
    expect(exportCell('United Kingdom')).toBe('United Kingdom');
  });
});

describe('buildExportCsv', () => {
  it('exports only the rows of the applied range, in day order, quoting cells that hold commas', () => {
    const rows = [
      { Date: '7/21/25', 'Total Downloads': 5, Territory: 'United Kingdom, The' },
      { Date: '7/20/25', 'Total Downloads': 4, Territory: 'United Kingdom, The' },
      { Date: '7/19/25', 'Total Downloads': 3, Territory: 'United Kingdom, The' },
    ];
    const csv = buildExportCsv(
      ['Date', 'Total Downloads', 'Territory'],
      rowsForRange(rows, { start: '2025-07-20', end: '2025-07-21' }),
    );
    expect(csv).toBe(
      'Date,Total Downloads,Territory\r\n7/20/25,4,"United Kingdom, The"\r\n7/21/25,5,"United Kingdom, The"\r\n',
    );
  });
});

describe('exportFileName', () => {
  it('names the app, the territory and the range', () => {
    expect(
      exportFileName('Calm Notes: Journal & Mood', 'United Kingdom', {
        start: '2025-07-20',
        end: '2025-08-18',
      }),
    ).toBe('calm-notes-journal-mood-united-kingdom-2025-07-20_2025-08-18.csv');
    expect(exportFileName(null, null, { start: '2025-07-20', end: '2025-08-18' })).toBe(
      'dashboard-2025-07-20_2025-08-18.csv',
    );
  });
});
