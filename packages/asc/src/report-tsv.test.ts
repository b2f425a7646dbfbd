import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  ASC_REPORTS,
  AscReportError,
  gunzipSegments,
  isProvisional,
  readReportTsv,
} from './report-tsv';

const engagement = ASC_REPORTS.find((r) => r.kind === 'engagement')!;
const downloads = ASC_REPORTS.find((r) => r.kind === 'downloads')!;

const tsv = (rows: string[][]) => `${rows.map((r) => r.join('\t')).join('\n')}\n`;

describe('reading report text by header name', () => {
  it('reads columns in any order with extra columns, summing Counts over other columns', () => {
    const text = tsv([
      [
        'Counts',
        'Territory',
        'Unique Counts',
        'Page Type',
        'Device',
        'Event',
        'Source Type',
        'Date',
        'App Apple Identifier',
        'New Column',
      ],
      [
        '10',
        'US',
        '8',
        'Product page',
        'iPhone',
        'Impression',
        'App Store search',
        '2026-01-02',
        '123',
        'x',
      ],
      [
        '5',
        'US',
        '5',
        'Store sheet',
        'iPhone',
        'Impression',
        'App Store search',
        '2026-01-02',
        '123',
        'y',
      ],
      [
        '7',
        'GB',
        '6',
        'Product page',
        'iPad',
        'Page view',
        'App referrer',
        '2026-01-02',
        '123',
        '',
      ],
      [
        '99',
        'GB',
        '6',
        'Product page',
        'iPad',
        'Page view',
        'App referrer',
        '2026-01-02',
        '999',
        '',
      ],
    ]);
    expect(readReportTsv(engagement, [text], '123', 100)).toEqual([
      {
        date: '2026-01-02',
        measure: 'impression',
        sourceType: 'App Store search',
        territory: 'US',
        device: 'iPhone',
        counts: 15,
      },
      {
        date: '2026-01-02',
        measure: 'pageview',
        sourceType: 'App referrer',
        territory: 'GB',
        device: 'iPad',
        counts: 7,
      },
    ]);
  });

  it('fails a segment that lacks a required column, naming it', () => {
    const text = tsv([
      ['Date', 'App Apple Identifier', 'Download Type', 'Source Type', 'Territory', 'Device'],
      ['2026-01-02', '123', 'Redownload', 'Web referrer', 'US', 'iPhone'],
    ]);
    expect(() => readReportTsv(downloads, [text], '123', 100)).toThrow(AscReportError);
    expect(() => readReportTsv(downloads, [text], '123', 100)).toThrow(
      /App Downloads Standard: segment lacks the column "Counts"/,
    );
  });

  it('keeps a quoted value holding a tab in its column', () => {
    const text =
      'Date\tApp Apple Identifier\tDownload Type\tSource Type\tSource Info\tTerritory\tDevice\tCounts\n' +
      '2026-01-02\t123\tFirst-time download\tWeb referrer\t"a\tb ""c"""\tUS\tiPhone\t4\n';
    expect(readReportTsv(downloads, [text], '123', 100)).toEqual([
      {
        date: '2026-01-02',
        measure: 'firsttimedownload',
        sourceType: 'Web referrer',
        territory: 'US',
        device: 'iPhone',
        counts: 4,
      },
    ]);
  });

  it('keeps a stray quote inside a value as text instead of failing the instance', () => {
    const header =
      'Date\tApp Name\tApp Apple Identifier\tDownload Type\tSource Type\tTerritory\tDevice\tCounts\n';
    const row = (name: string, counts: number) =>
      `2026-01-02\t${name}\t123\tRedownload\tApp referrer\tUS\tiPhone\t${counts}\n`;
    const figure = (counts: number) => [
      {
        date: '2026-01-02',
        measure: 'redownload',
        sourceType: 'App referrer',
        territory: 'US',
        device: 'iPhone',
        counts,
      },
    ];
    // Inside a value, and a quote opening a value that closes before its end.
    expect(
      readReportTsv(
        downloads,
        [header + row('Calm "Notes" Pro', 2) + row('"Best" 12" app', 3)],
        '123',
        100,
      ),
    ).toEqual(figure(5));
    // A quote opening a value that is never closed would swallow every later line.
    expect(
      readReportTsv(downloads, [header + row('"Calm Notes', 2) + row('Calm Notes', 4)], '123', 100),
    ).toEqual(figure(6));
  });

  it('reads segments that are gzip files of their own, or one gzip stream split across segments', () => {
    const header = [
      'Date',
      'App Apple Identifier',
      'Download Type',
      'Source Type',
      'Territory',
      'Device',
      'Counts',
    ];
    const a = tsv([
      header,
      ['2026-01-02', '123', 'Redownload', 'Unavailable', 'US', 'iPhone', '3'],
    ]);
    const b = tsv([
      header,
      ['2026-01-02', '123', 'Redownload', 'Unavailable', 'US', 'iPhone', '4'],
    ]);
    const own = gunzipSegments([gzipSync(a), gzipSync(b)]);
    expect(readReportTsv(downloads, own, '123', 100)[0]!.counts).toBe(7);
    const whole = gzipSync(
      a + tsv([['2026-01-03', '123', 'Redownload', 'Unavailable', 'US', 'iPhone', '9']]),
    );
    const cut = Math.floor(whole.length / 2);
    const split = gunzipSegments([whole.subarray(0, cut), whole.subarray(cut)]);
    expect(readReportTsv(downloads, split, '123', 100).map((f) => [f.date, f.counts])).toEqual([
      ['2026-01-02', 3],
      ['2026-01-03', 9],
    ]);
    expect(() => gunzipSegments([Buffer.from('not gzip')])).toThrow(/not gzip/);
  });

  it('refuses a bad Date or Counts, naming the row, and too many rows', () => {
    const header = [
      'Date',
      'App Apple Identifier',
      'Download Type',
      'Source Type',
      'Territory',
      'Device',
      'Counts',
    ];
    expect(() =>
      readReportTsv(
        downloads,
        [tsv([header, ['02/01/2026', '123', 'Redownload', 'U', 'US', 'iPhone', '1']])],
        '123',
        10,
      ),
    ).toThrow(/row 2 has the Date/);
    expect(() =>
      readReportTsv(
        downloads,
        [tsv([header, ['2026-01-02', '123', 'Redownload', 'U', 'US', 'iPhone', 'many']])],
        '123',
        10,
      ),
    ).toThrow(/Counts "many"/);
    const rows = [
      header,
      ...Array.from({ length: 3 }, () => [
        '2026-01-02',
        '123',
        'Redownload',
        'U',
        'US',
        'iPhone',
        '1',
      ]),
    ];
    expect(() => readReportTsv(downloads, [tsv(rows)], '123', 2)).toThrow(/more than 2 rows/);
  });
});

describe('provisional window', () => {
  it('marks a Date provisional until an instance processed three days after it carries it', () => {
    expect(isProvisional('2026-01-10', '2026-01-11', 3)).toBe(true);
    expect(isProvisional('2026-01-10', '2026-01-12', 3)).toBe(true);
    expect(isProvisional('2026-01-10', '2026-01-13', 3)).toBe(false);
    expect(isProvisional('2026-01-10', '2026-01-20', 3)).toBe(false);
  });
});
