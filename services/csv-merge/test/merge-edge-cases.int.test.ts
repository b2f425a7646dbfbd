import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  CsvExportError,
  parseAndMergeExports,
  parseExport,
  writeProcessedCsv,
} from '../src/merge/index';
import { constructedFixture } from './fixture-paths.helpers';

function file(name: string): Readable {
  return createReadStream(constructedFixture(name));
}

async function rejection(promise: Promise<unknown>): Promise<CsvExportError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CsvExportError);
  return error as CsvExportError;
}

describe('constructed exports (test/fixtures)', () => {
  it('reads UTF-16LE tab-delimited conversion data with a key/value preamble', async () => {
    const parsed = await parseExport(
      file('constructed-utf16le-tab_conversion_weather-buddy_japan.csv'),
      'conversionCSV',
    );
    expect(parsed.encoding).toBe('utf-16le');
    expect(parsed.delimiter).toBe('\t');
    expect(parsed.headerLine).toBe(5);
    expect(parsed.preamble).toEqual({
      appName: 'Weather Buddy',
      territory: 'Japan',
      dateRange: 'May 1, 2025 - May 10, 2025',
      view: null,
    });
    expect(parsed.headers).toEqual([
      'Date',
      'App Store Search First-Time Downloads',
      'App Store Search Impressions (Unique Devices)',
      'App Store Search Total Downloads',
      'Total Downloads',
    ]);
    expect(parsed.toRows()).toHaveLength(10);
    // 5/3/25: first-time 1,230, impressions 20,300, total 1,293, all-source total 1,493.
    expect(parsed.toRows()[2]).toEqual({
      date: '5/3/25',
      day: '2025-05-03',
      cells: ['5/3/25', 1230, 20300, 1293, 1493],
    });
  });

  it('merges it with UTF-16LE comma-delimited redownloads using Re-Downloads headers', async () => {
    const merged = await parseAndMergeExports({
      conversionCSV: file('constructed-utf16le-tab_conversion_weather-buddy_japan.csv'),
      redownloadsCSV: file('constructed-utf16le-comma_redownloads_weather-buddy_japan.csv'),
    });
    expect(merged.appName).toBe('Weather Buddy');
    expect(merged.territory).toBe('Japan');
    expect(merged.headers.slice(-3)).toEqual([
      'App Store Search Re-Downloads',
      'Total Re-Downloads',
      'Territory',
    ]);
    expect(merged.toRowObjects()).toHaveLength(10);
    expect(merged.dateSpan).toEqual({ start: '2025-05-01', end: '2025-05-10' });
    expect(merged.toRowObjects()[9]).toMatchObject({
      Date: '5/10/25',
      'App Store Search Re-Downloads': 70,
      'Total Re-Downloads': 210,
      Territory: 'Japan',
    });
    expect(merged.toRowObjects()[0]).toMatchObject({
      'App Store Search First-Time Downloads': 1210,
      'App Store Search Re-Downloads': 61,
    });
  });

  it('reads an unquoted preamble of five lines with blank lines and a comma in the app name', async () => {
    const parsed = await parseExport(
      file('constructed-preamble-unquoted_conversion_sunrise-alarm_canada.csv'),
      'conversionCSV',
    );
    expect(parsed.preamble).toEqual({
      appName: 'Sunrise Alarm, Sleep & Wake',
      territory: 'Canada',
      dateRange: 'Apr 1, 2025 - Apr 9, 2025',
      view: 'Conversion Rate',
    });
    expect(parsed.headerLine).toBe(7);
    expect(parsed.toRows().map((r) => r.day)).toEqual(
      Array.from({ length: 9 }, (_, i) => `2025-04-0${i + 1}`),
    );
  });

  it('reads single-cell "Key: value" preamble lines and percent cells', async () => {
    const parsed = await parseExport(
      file('constructed-preamble-colon_conversion_focus-timer_france.csv'),
      'conversionCSV',
    );
    expect(parsed.preamble).toEqual({
      appName: 'Focus Timer',
      territory: 'France',
      dateRange: '1/1/25 - 1/8/25',
      view: null,
    });
    // "5.12%" on 1/1/25 (41 / 801 = 5.1186%, written with two decimals).
    expect(parsed.toRows()[0]!.cells).toEqual(['1/1/25', 41, 801, 5.12]);
  });

  it('reads ISO dates, skips the summary row and footer, drops the empty trailing column', async () => {
    const parsed = await parseExport(
      file('constructed-iso-dates_conversion_no-name_brazil.csv'),
      'conversionCSV',
    );
    expect(parsed.headerLine).toBe(3);
    expect(parsed.preamble.dateRange).toBe('2025-05-01, 2025-05-07');
    expect(parsed.preamble.appName).toBeNull();
    expect(parsed.headers).toEqual([
      'Date',
      'Web Referrer First-Time Downloads',
      'Web Referrer Impressions (Unique Devices)',
      'Web Referrer Total Downloads',
      'Territory',
    ]);
    expect(parsed.toRows()).toHaveLength(7);
    expect(parsed.skippedRows).toBe(2);
    expect(parsed.toRows()[6]).toEqual({
      date: '2025-05-07',
      day: '2025-05-07',
      cells: ['2025-05-07', 27, 407, 32, 'Brazil'],
    });
  });

  it('joins ISO conversion dates with M/D/YY redownloads and takes the territory from the data', async () => {
    const merged = await parseAndMergeExports({
      conversionCSV: file('constructed-iso-dates_conversion_no-name_brazil.csv'),
      redownloadsCSV: file('constructed-mixed-dates_redownloads_no-name_brazil.csv'),
    });
    expect(merged.appName).toBeNull();
    expect(merged.territory).toBe('Brazil');
    // The file's own Territory column is kept; none is added.
    expect(merged.headers).toEqual([
      'Date',
      'Web Referrer First-Time Downloads',
      'Web Referrer Impressions (Unique Devices)',
      'Web Referrer Total Downloads',
      'Territory',
      'Web Referrer Redownloads',
      'Total Redownloads',
    ]);
    expect(merged.toRowObjects().map((r) => r.Date)).toEqual([
      '2025-05-01',
      '2025-05-02',
      '2025-05-03',
      '2025-05-04',
      '2025-05-05',
      '2025-05-06',
      '2025-05-07',
    ]);
    expect(merged.toRowObjects()[2]).toMatchObject({
      'Web Referrer Redownloads': null,
      'Total Redownloads': 12,
    });
    expect(merged.toRowObjects()[6]).toMatchObject({
      'Web Referrer First-Time Downloads': 27,
      Territory: 'Brazil',
      'Web Referrer Redownloads': 12,
    });
  });
});

describe('rejected exports', () => {
  it('names the field when no column is called Date', async () => {
    const error = await rejection(
      parseExport(file('constructed-no-date-column.csv'), 'redownloadsCSV'),
    );
    expect(error.message).toBe(
      'redownloadsCSV: no header row with a Date column found in the first 20 lines',
    );
    expect(error.reason).toBe('no_header');
  });

  it('rejects a binary file with a message, not a crash', async () => {
    const error = await rejection(parseExport(file('constructed-binary.csv'), 'conversionCSV'));
    expect(error.reason).toBe('binary');
    expect(error.message).toMatch(
      /^conversionCSV: the file is binary, not CSV text; expected a CSV export/,
    );
  });

  it('rejects a header row after line 20', async () => {
    const error = await rejection(
      parseExport(file('constructed-header-too-late.csv'), 'conversionCSV'),
    );
    expect(error.message).toBe(
      'conversionCSV: no header row with a Date column found in the first 20 lines',
    );
  });

  it('rejects an empty file and a header without rows', async () => {
    const empty = await rejection(parseExport(Readable.from([]), 'conversionCSV'));
    expect(empty.message).toBe(
      'conversionCSV: the file is empty; expected a CSV export with a Date column',
    );
    const noRows = await rejection(
      parseExport(Readable.from([Buffer.from('"Date","A","B"\n\n')]), 'redownloadsCSV'),
    );
    expect(noRows.message).toBe(
      'redownloadsCSV: no data rows with a date below the header row (line 1)',
    );
  });

  it('stops at the first bad file and names it', async () => {
    const error = await rejection(
      parseAndMergeExports({
        conversionCSV: file('constructed-utf16le-tab_conversion_weather-buddy_japan.csv'),
        redownloadsCSV: file('constructed-no-date-column.csv'),
      }),
    );
    expect(error.field).toBe('redownloadsCSV');
  });
});

describe('processed CSV against formula injection (docs/product.md#reading-datasets)', () => {
  it('escapes formula cells and keeps negative numbers as numbers', async () => {
    const merged = await parseAndMergeExports({
      conversionCSV: file('constructed-formula-cells.csv'),
    });
    const csv = writeProcessedCsv(merged);
    const records: string[][] = parse(csv, { relax_quotes: true });
    expect(records[0]).toEqual(['Date', "'=cmd|' /C calc'!A0", 'Note', 'Delta', 'Territory']);
    expect(records.slice(1).map((r) => [r[2], r[3]])).toEqual([
      ['\'=HYPERLINK("http://x.invalid","x")', '-5'],
      ["'@SUM(A1:A2)", '-12.5'],
      ["'+1+2", '0'],
      ["'-2+3", '7'],
      ['indent', ''],
    ]);
    // The source file itself is unchanged text with the formulas.
    expect(readFileSync(constructedFixture('constructed-formula-cells.csv'), 'utf8')).toContain(
      '=HYPERLINK',
    );
  });
});
