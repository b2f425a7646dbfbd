import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvExportError } from './csv-export.error';
import { MAX_EXPORT_COLUMNS, MAX_EXPORT_ROWS, MAX_RECORD_BYTES } from './export-limits';
import { parseExport } from './export.parser';
import { FAST_CHUNK_CHARS } from './export-fast.reader';

function parseText(text: string | Buffer) {
  return parseExport(
    Readable.from([typeof text === 'string' ? Buffer.from(text, 'utf8') : text]),
    'conversionCSV',
  );
}

describe('parseExport', () => {
  it('reads CR-only line ends', async () => {
    const p = await parseText('"Name","X"\r"Date","A","B"\r7/1/25,1,2\r7/2/25,3,4\r');
    expect(p.preamble.appName).toBe('X');
    expect(p.toRows().map((r) => r.cells)).toEqual([
      ['7/1/25', 1, 2],
      ['7/2/25', 3, 4],
    ]);
  });

  it('reads semicolon files with decimal commas', async () => {
    const p = await parseText('"Date";"A";"B";"C"\n7/1/25;"1,5";"1.234";"2.345,5%"\n');
    expect(p.delimiter).toBe(';');
    expect(p.toRows()[0]!.cells).toEqual(['7/1/25', 1.5, 1234, 2345.5]);
  });

  it('names empty and repeated headers, keeping filled unnamed columns', async () => {
    const p = await parseText('Date,A,,A,\n7/1/25,1,9,2,\n');
    expect(p.headers).toEqual(['Date', 'A', 'Column 3', 'A (2)']);
    expect(p.toRows()[0]!.cells).toEqual(['7/1/25', 1, 9, 2]);
  });

  it('fills short rows with null and skips repeated headers and empty dates', async () => {
    const p = await parseText('Date,A,B\n7/1/25,1\nDate,A,B\n,5,6\n7/2/25,-,x\n');
    expect(p.toRows().map((r) => r.cells)).toEqual([
      ['7/1/25', 1, null],
      ['7/2/25', null, 'x'],
    ]);
    expect(p.skippedRows).toBe(2);
  });

  it('finds the date column wherever it is', async () => {
    const p = await parseText('Source,Date,Downloads\nSearch,2025-07-01,5\n');
    expect(p.dateIndex).toBe(1);
    expect(p.toRows()[0]).toEqual({
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

describe('parseExport on large and unusual files (docs/BENCHMARKS.md)', () => {
  /** A constructed export of `days` rows (quoted preamble, CRLF, quoted thousands). */
  function constructed(days: number, preamble = '"Name","Big App"\r\n"Territory","Chile"\r\n\r\n') {
    const lines = [preamble + '"Date","Downloads","Impressions","Note"'];
    for (let i = 0; i < days; i++) {
      const date = new Date(Date.UTC(2000, 0, 1 + i));
      const text = `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`;
      lines.push(
        `${text},${i % 97},"${Math.floor(i / 10)},${String(i % 1000).padStart(3, '0')}",${i % 500 === 0 ? 'spike' : ''}`,
      );
    }
    return `${lines.join('\r\n')}\r\n`;
  }

  it('reads every row of a file of many pieces, numbers and notes included', async () => {
    const text = constructed(30_000);
    const pieces: Buffer[] = [];
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; at += 4093) pieces.push(bytes.subarray(at, at + 4093));
    // Above the row cap of real exports: this checks the streaming, not the cap.
    const p = await parseExport(Readable.from(pieces), 'conversionCSV', { maxRows: 1_000_000 });
    expect(p.preamble).toMatchObject({ appName: 'Big App', territory: 'Chile' });
    expect(p.headers).toEqual(['Date', 'Downloads', 'Impressions', 'Note']);
    expect(p.rowCount).toBe(30_000);
    expect([p.date(0), p.cell(0, 1), p.cell(0, 2), p.cell(0, 3)]).toEqual([
      '1/1/2000',
      0,
      0,
      'spike',
    ]);
    expect([p.date(29_999), p.cell(29_999, 1), p.cell(29_999, 2), p.cell(29_999, 3)]).toEqual([
      '2/18/2082',
      29_999 % 97,
      2_999_999,
      null,
    ]);
  });

  it('reads the same rows when the preamble sends the file to csv-parse', async () => {
    // A quoted line break in the preamble: the fast reader leaves the whole file to csv-parse.
    const odd = constructed(3_000, '"Name","Big\r\nApp"\r\n"Territory","Chile"\r\n');
    const plain = constructed(3_000);
    const a = await parseText(odd);
    const b = await parseText(plain);
    expect(a.preamble.appName).toBe('Big App');
    expect(a.toRows()).toEqual(b.toRows());
  });

  it('reads a small file (papaparse) as csv-parse reads it when streamed', async () => {
    const text =
      '"Name","Odd App"\r\n\r\n"Date","Downloads","Note"\r\n' +
      '7/1/25,"1,234","two\r\nlines"\r\n\r\n""\r\n   \r\n7/2/25,5\r\n' +
      '7/3/25,6,"say ""hi""",extra\r\nTotal,11,\r\n7/4/25,-,note\r\n';
    const small = await parseText(text);
    // Past the read-ahead (more line breaks than the row cap allows): streamed by csv-parse.
    const streamed = await parseText(text + '\r\n'.repeat(20_000));
    expect(small.toRows()).toEqual(streamed.toRows());
    expect(small.skippedRows).toBe(streamed.skippedRows);
    expect(small.preamble).toEqual(streamed.preamble);
    expect(small.toRows().map((r) => r.cells)).toEqual([
      ['7/1/25', 1234, 'two\r\nlines'],
      ['7/2/25', 5, null],
      ['7/3/25', 6, 'say "hi"'],
      ['7/4/25', null, 'note'],
    ]);
  });

  it('hands the rest of the file to csv-parse at an unusual row, keeping its rows', async () => {
    const p = await parseText('Date,A,B\n7/1/25,1,2\n7/2/25,x"y,3\n7/3/25,"4"5,6\n7/4/25,7,8\n');
    expect(p.toRows().map((r) => r.cells)).toEqual([
      ['7/1/25', 1, 2],
      ['7/2/25', 'x"y', 3],
      ['7/3/25', '"4"5', 6],
      ['7/4/25', 7, 8],
    ]);
  });

  it('refuses a file above the row limit, naming it', async () => {
    const error = await parseExport(
      Readable.from([Buffer.from(constructed(101))]),
      'redownloadsCSV',
      { maxRows: 100 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvExportError);
    expect((error as CsvExportError).reason).toBe('too_many_rows');
    expect((error as CsvExportError).message).toBe(
      'redownloadsCSV: the file has more than 100 data rows, the most one export may have (a daily export of ten years has 3,653); export a shorter date range',
    );
    const fits = await parseExport(
      Readable.from([Buffer.from(constructed(100))]),
      'redownloadsCSV',
      {
        maxRows: 100,
      },
    );
    expect(fits.rowCount).toBe(100);
    expect(MAX_EXPORT_ROWS).toBe(5_000);
  });

  it('refuses millions of short lines without dates as soon as they pass the line cap', async () => {
    // 12 MB of lines with an empty date cell, in the 64 KB pieces a stream gives: each line is
    // skipped, but each one is counted.
    const bytes = Buffer.from('Date,Downloads,Impressions\n' + ',1,2\n'.repeat(2_000_000));
    const pieces = Math.ceil(bytes.length / 65_536);
    let pulled = 0;
    async function* file() {
      for (let at = 0; at < bytes.length; at += 65_536) {
        pulled++;
        yield bytes.subarray(at, at + 65_536);
      }
    }
    const error = await parseExport(Readable.from(file()), 'conversionCSV').catch(
      (e: unknown) => e,
    );
    expect((error as CsvExportError).reason).toBe('too_many_rows');
    expect((error as CsvExportError).message).toMatch(
      /^conversionCSV: the file has more than 5,000 data rows/,
    );
    // Refused after about 10,000 lines (60 kB): the rest of the file is never read.
    expect(pulled).toBeLessThan(pieces / 20);
  });

  it('refuses a header row wider than the column cap, naming it', async () => {
    const cells = ['Date', ...Array.from({ length: 120 }, (_, i) => `Metric ${i}`)];
    const text = `${cells.join(',')}\n1/1/25,${cells
      .slice(1)
      .map(() => '1')
      .join(',')}\n`;
    const error = await parseExport(Readable.from([Buffer.from(text)]), 'redownloadsCSV').catch(
      (e: unknown) => e,
    );
    expect((error as CsvExportError).reason).toBe('too_many_columns');
    expect((error as CsvExportError).message).toBe(
      `redownloadsCSV: the header row has 121 columns, more than the ${MAX_EXPORT_COLUMNS} an export may have`,
    );
  });

  it('pauses as it goes (every 1,024 rows at most)', async () => {
    let pauses = 0;
    const p = await parseExport(Readable.from([Buffer.from(constructed(5_000))]), 'conversionCSV', {
      pauseEveryMs: 0,
      pause: async () => {
        pauses++;
      },
    });
    expect(p.rowCount).toBe(5_000);
    expect(pauses).toBe(Math.floor(5_000 / 1024));
  });
});

describe('parseExport on broken quotes, double BOMs and mixed line breaks (docs/product.md#merging-exports)', () => {
  // Every file below is constructed in the test: an export edited by hand or saved twice.

  it('leaves out the lines of a quote never closed, naming the line it opened on', async () => {
    const p = await parseText('Date,A,B\n7/1/25,1,2\n7/2/25,"3,4\n7/3/25,5,6\n');
    expect(p.toRows().map((r) => r.cells)).toEqual([['7/1/25', 1, 2]]);
    expect(p.notices).toEqual([
      'The conversion data file: lines 3 to the end of the file were left out, unreadable as CSV rows (the quote opened on line 3 is never closed), so the days written there have no values; fix the quote and upload again.',
    ]);
  });

  it('leaves out the lines a runaway quote took, keeping the rows after them', async () => {
    const p = await parseText(
      '"Name","X"\n\nDate,A,B\n7/1/25,1,2\n\n7/2/25,"3,4\n7/3/25,5,6\n7/4/25,"7",8\n7/5/25,9,10\n',
    );
    expect(p.toRows().map((r) => r.cells)).toEqual([
      ['7/1/25', 1, 2],
      ['7/5/25', 9, 10],
    ]);
    expect(p.notices).toEqual([
      'The conversion data file: lines 6 to 8 were left out, unreadable as CSV rows (the quote opened on line 6 is not closed before the next delimiter), so the days written there have no values; fix the quote and upload again.',
    ]);
  });

  it('keeps every row above an unclosed quote when the file is streamed', async () => {
    const rows = Array.from(
      { length: 300 },
      (_, i) => `${(i % 12) + 1}/${(i % 28) + 1}/2000,${i},1`,
    );
    const text = `Date,A,B\r\n${rows.join('\r\n')}\r\n7/2/25,"3,4\r\n${'\r\n'.repeat(20_000)}`;
    const p = await parseText(text);
    expect(p.rowCount).toBe(300);
    expect(p.notices).toEqual([expect.stringContaining('lines 302 to the end of the file')]);
  });

  it('names at most five broken places, then counts the rest', async () => {
    const broken = Array.from({ length: 7 }, (_, i) => `7/${i + 1}/25,"1\n7/${i + 10}/25,2,"3"`);
    const p = await parseText(`Date,A,B\n${broken.join('\n')}\n8/1/25,1,2\n`);
    expect(p.toRows().map((r) => r.cells)).toEqual([['8/1/25', 1, 2]]);
    expect(p.notices).toHaveLength(6);
    expect(p.notices[0]).toContain('lines 2 to 3 were left out');
    expect(p.notices[4]).toContain('lines 10 to 11 were left out');
    expect(p.notices[5]).toBe(
      'The conversion data file: 2 more places could not be read as CSV rows and were left out.',
    );
  });

  it('refuses a file whose only data row is an unclosed quote, naming the line', async () => {
    const error = await parseText('Date,A,B\n7/1/25,"1,2\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvExportError);
    expect((error as CsvExportError).reason).toBe('no_rows');
    expect((error as CsvExportError).message).toBe(
      'conversionCSV: no data rows with a date below the header row (line 1); lines 2 to the end of the file could not be read (the quote opened on line 2 is never closed)',
    );
  });

  it('refuses a quote never closed above the header row, naming the line it opened on', async () => {
    const error = await parseText('"Name","X\n\nDate,A,B\n7/1/25,1,2\n').catch((e: unknown) => e);
    expect((error as CsvExportError).reason).toBe('no_header');
    expect((error as CsvExportError).message).toBe(
      'conversionCSV: no header row with a Date column found in the first 20 lines (the quote opened on line 1 is never closed)',
    );
  });

  it('still refuses an oversized data line, the one error not skipped', async () => {
    const long = 'x'.repeat(MAX_RECORD_BYTES + 10);
    const error = await parseText(`Date,A,B\n7/1/25,1,2\n7/2/25,${long},3\n`).catch(
      (e: unknown) => e,
    );
    expect((error as CsvExportError).reason).toBe('malformed');
    expect((error as CsvExportError).message).toBe(
      `conversionCSV: a line is longer than ${MAX_RECORD_BYTES} bytes; expected one CSV record per day below the header row`,
    );
  });

  // papaparse splits a file of up to 2 MB in pieces of FAST_CHUNK_CHARS, reading each
  // piece's records into the rows at once; these files run over several pieces.
  const manyDays = (count: number, cell: (i: number) => string) =>
    Array.from({ length: count }, (_, i) => {
      const day = new Date(Date.UTC(2000, 0, 1 + i));
      return `${day.getUTCMonth() + 1}/${day.getUTCDate()}/${day.getUTCFullYear()},${i},${cell(i)}`;
    });

  it('reads no row twice when an unclosed quote pieces into the file sends it to csv-parse', async () => {
    const rows = manyDays(3_000, () => '1');
    const text = `Date,A,B\r\n${rows.slice(0, 2_500).join('\r\n')}\r\n7/2/25,"3,4\r\n${rows.slice(2_500).join('\r\n')}\r\n`;
    expect(text.indexOf('"')).toBeGreaterThan(2 * FAST_CHUNK_CHARS);
    const p = await parseText(text);
    expect(p.rowCount).toBe(2_500);
    expect(p.skippedRows).toBe(0);
    expect([p.date(0), p.cell(2_499, 1)]).toEqual(['1/1/2000', 2_499]);
    expect(p.notices).toEqual([expect.stringContaining('lines 2502 to the end of the file')]);
  });

  it('keeps quoted cells written across lines where two pieces meet', async () => {
    const rows = manyDays(2_000, (i) => `"note\r\n${i}"`);
    const p = await parseText(`Date,A,Note\r\n${rows.join('\r\n')}\r\n`);
    expect(p.notices).toEqual([]);
    expect(p.rowCount).toBe(2_000);
    const cells = p.toRows().map((r) => r.cells);
    expect(cells.every((c, i) => c[1] === i && c[2] === `note\r\n${i}`)).toBe(true);
  });

  it('ends when its last piece pauses', async () => {
    let pauses = 0;
    const text = `Date,A,B\r\n${manyDays(1_100, () => '1').join('\r\n')}\r\n`;
    // The 1,024th record is in the last of two pieces.
    expect(text.length).toBeGreaterThan(FAST_CHUNK_CHARS);
    expect(text.length).toBeLessThan(2 * FAST_CHUNK_CHARS);
    const p = await parseExport(Readable.from([Buffer.from(text)]), 'conversionCSV', {
      pauseEveryMs: 0,
      pause: async () => {
        pauses++;
      },
    });
    expect([p.rowCount, pauses]).toEqual([1_100, 1]);
  });

  it('stops splitting when the pause of the merge throws', async () => {
    const stop = new Error('budget spent');
    const text = `Date,A,B\r\n${manyDays(5_000, () => '1').join('\r\n')}\r\n`;
    const error = await parseExport(Readable.from([Buffer.from(text)]), 'conversionCSV', {
      pauseEveryMs: 0,
      pause: () => Promise.reject(stop),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvExportError);
    expect((error as CsvExportError).cause).toBe(stop);
  });

  it('keeps a quoted cell written across lines', async () => {
    const p = await parseText('Date,A,Note\n7/1/25,1,"two\nlines"\n7/2/25,2,x\n');
    expect(p.notices).toEqual([]);
    expect(p.toRows().map((r) => r.cells)).toEqual([
      ['7/1/25', 1, 'two\nlines'],
      ['7/2/25', 2, 'x'],
    ]);
  });

  it('reads a file starting with two BOMs as one with none', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const body = '"Name","Two Boms"\n"Territory","Chile"\n"Date","A","B"\n7/1/25,1,2\n';
    const p = await parseText(Buffer.concat([bom, bom, Buffer.from(body)]));
    const plain = await parseText(body);
    expect(p.preamble).toEqual(plain.preamble);
    expect(p.preamble.appName).toBe('Two Boms');
    expect(p.headers).toEqual(['Date', 'A', 'B']);
    expect(p.toRows()).toEqual(plain.toRows());
  });

  it.each([
    ['CRLF first', 'Date,A,B\r\n7/1/25,1,2\n7/2/25,3,4\r\n7/3/25,5,6\n'],
    ['LF first', '"Name","X"\nDate,A,B\r\n7/1/25,1,2\n7/2/25,3,4\r\n7/3/25,5,6\r\n'],
    ['CR among them', 'Date,A,B\r\n7/1/25,1,2\r7/2/25,3,4\n7/3/25,5,6'],
  ])('reads mixed line breaks (%s) line by line', async (_, text) => {
    const p = await parseText(text);
    expect(p.notices).toEqual([]);
    expect(p.toRows().map((r) => r.cells)).toEqual([
      ['7/1/25', 1, 2],
      ['7/2/25', 3, 4],
      ['7/3/25', 5, 6],
    ]);
  });

  it('reads mixed line breaks when streamed, past the read-ahead', async () => {
    const rows = Array.from(
      { length: 4_000 },
      (_, i) => `${(i % 28) + 1}/${(i % 12) + 1}/25,${i},1`,
    );
    const text = `Date,A,B\r\n${rows.map((r, i) => r + (i % 2 ? '\n' : '\r\n')).join('')}`;
    const p = await parseExport(
      Readable.from([Buffer.from(text + '\n'.repeat(20_000))]),
      'conversionCSV',
      {
        maxRows: 10_000,
      },
    );
    expect(p.rowCount).toBe(4_000);
    expect(p.cell(3_999, 1)).toBe(3_999);
  });
});
