import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvExportError } from './csv-export.error';
import { decimalCommaToPoint, isHeaderRow, MAX_RECORD_BYTES, parseExport } from './export.parser';

function parseText(text: string | Buffer) {
  return parseExport(
    Readable.from([typeof text === 'string' ? Buffer.from(text, 'utf8') : text]),
    'conversionCSV',
  );
}

describe('isHeaderRow (issue 6 point 2)', () => {
  it('needs three cells, one exactly Date', () => {
    expect(isHeaderRow(['Date', 'A', 'B'])).toBe(true);
    expect(isHeaderRow([' date ', 'A', 'B'])).toBe(true);
    expect(isHeaderRow(['\ufeffDATE', 'A', 'B'])).toBe(true);
    expect(isHeaderRow(['Date', 'A'])).toBe(false);
    expect(isHeaderRow(['Date Range', 'Jul 1, 2025', 'Jul 31, 2025'])).toBe(false);
    expect(isHeaderRow(['Dates', 'A', 'B'])).toBe(false);
  });
});

describe('parseExport', () => {
  it('reads CR-only line ends', async () => {
    const p = await parseText('"Name","X"\r"Date","A","B"\r7/1/25,1,2\r7/2/25,3,4\r');
    expect(p.preamble.appName).toBe('X');
    expect(p.rows.map((r) => r.cells)).toEqual([
      ['7/1/25', 1, 2],
      ['7/2/25', 3, 4],
    ]);
  });

  it('reads semicolon files with decimal commas', async () => {
    const p = await parseText('"Date";"A";"B";"C"\n7/1/25;"1,5";"1.234";"2.345,5%"\n');
    expect(p.delimiter).toBe(';');
    expect(p.rows[0]!.cells).toEqual(['7/1/25', 1.5, 1234, 2345.5]);
  });

  it('names empty and repeated headers, keeping filled unnamed columns', async () => {
    const p = await parseText('Date,A,,A,\n7/1/25,1,9,2,\n');
    expect(p.headers).toEqual(['Date', 'A', 'Column 3', 'A (2)']);
    expect(p.rows[0]!.cells).toEqual(['7/1/25', 1, 9, 2]);
  });

  it('fills short rows with null and skips repeated headers and empty dates', async () => {
    const p = await parseText('Date,A,B\n7/1/25,1\nDate,A,B\n,5,6\n7/2/25,-,x\n');
    expect(p.rows.map((r) => r.cells)).toEqual([
      ['7/1/25', 1, null],
      ['7/2/25', null, 'x'],
    ]);
    expect(p.skippedRows).toBe(2);
  });

  it('finds the date column wherever it is', async () => {
    const p = await parseText('Source,Date,Downloads\nSearch,2025-07-01,5\n');
    expect(p.dateIndex).toBe(1);
    expect(p.rows[0]).toEqual({
      date: '2025-07-01',
      day: '2025-07-01',
      cells: ['Search', '2025-07-01', 5],
    });
  });

  it('stops at an oversized line with a clear message', async () => {
    const line = 'x'.repeat(MAX_RECORD_BYTES + 10);
    const error = await parseText(`${line}\nDate,A,B\n`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvExportError);
    expect((error as CsvExportError).message).toBe(
      `conversionCSV: no header row with a Date column found in the first 20 lines (a line is longer than ${MAX_RECORD_BYTES} bytes)`,
    );
  });
});

describe('decimalCommaToPoint', () => {
  it.each([
    ['1,5', '1.5'],
    ['1.234', '1234'],
    ['1.234.567,25', '1234567.25'],
    ['12,5%', '12.5%'],
    ['abc', 'abc'],
    ['7/1/25', '7/1/25'],
  ])('%j -> %j', (input, output) => {
    expect(decimalCommaToPoint(input)).toBe(output);
  });
});
