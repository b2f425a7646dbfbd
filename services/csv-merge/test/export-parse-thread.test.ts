import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { threadedField, THREAD_MIN_BYTES } from '../src/merge.handler';
import {
  CsvExportError,
  parseAndMergeExports,
  parseExport,
  parseExportInThread,
  THREAD_IN_FLIGHT_BYTES,
  type TParsedExport,
} from '../src/merge/index';
import {
  ascFixture,
  constructedExport,
  constructedFixture,
  SAMPLE_EXPORTS,
} from './fixture-paths.helper';

/** Everything a parsed export tells, for comparing two parses of the same file. */
function describeExport(p: TParsedExport) {
  return {
    field: p.field,
    headers: p.headers,
    dateIndex: p.dateIndex,
    preamble: p.preamble,
    headerLine: p.headerLine,
    encoding: p.encoding,
    delimiter: p.delimiter,
    skippedRows: p.skippedRows,
    rows: p.toRows(),
  };
}

/** `bytes` as a stream of 64 KB pieces. */
function streamOf(bytes: Buffer): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 65_536) pieces.push(bytes.subarray(at, at + 65_536));
  return Readable.from(pieces);
}

const FILES = [
  ascFixture(SAMPLE_EXPORTS[0].conversion),
  ascFixture(SAMPLE_EXPORTS[1].redownloads),
  ascFixture(SAMPLE_EXPORTS[2].conversion),
  constructedFixture('constructed-iso-dates_conversion_no-name_brazil.csv'),
  constructedFixture('constructed-mixed-dates_redownloads_no-name_brazil.csv'),
  constructedFixture('constructed-utf16le-tab_conversion_weather-buddy_japan.csv'),
  constructedFixture('constructed-formula-cells.csv'),
];

describe('parseExportInThread (docs/BENCHMARKS.md)', () => {
  it.each(FILES)('gives what parseExport gives for %s', async (path) => {
    const here = await parseExport(createReadStream(path), 'conversionCSV');
    const there = await parseExportInThread(createReadStream(path), 'conversionCSV');
    expect(describeExport(there)).toEqual(describeExport(here));
    expect(there.rowCount).toBeGreaterThan(0);
  });

  it('takes a file of many MB in pieces and gives every row back', async () => {
    const bytes = constructedExport(110_000, [
      'Impressions',
      'Page Views',
      'Downloads',
      'Sessions',
    ]);
    expect(bytes.length).toBeGreaterThan(2 * THREAD_IN_FLIGHT_BYTES);
    // Above the row cap of real exports: this checks the hand-over, not the cap.
    const options = { maxRows: 1_000_000 };
    const here = await parseExport(streamOf(bytes), 'redownloadsCSV', options);
    const there = await parseExportInThread(streamOf(bytes), 'redownloadsCSV', options);
    expect(there.rowCount).toBe(110_000);
    expect(there.preamble.territory).toBe('Canada');
    expect(there.cell(1000, 1)).toBe('n/a');
    expect(there.cell(7, 2)).toBeNull();
    expect(there.cell(1, 1)).toBe(31 % 50_000);
    expect(describeExport(there)).toEqual(describeExport(here));
  }, 60_000);

  it.each([
    ['constructed-no-date-column.csv', 'no_header'],
    ['constructed-binary.csv', 'binary'],
    ['constructed-header-too-late.csv', 'no_header'],
  ])('refuses %s as parseExport does (%s)', async (name, reason) => {
    const path = constructedFixture(name);
    const here = await parseExport(createReadStream(path), 'redownloadsCSV').catch(
      (e: unknown) => e,
    );
    const there = await parseExportInThread(createReadStream(path), 'redownloadsCSV').catch(
      (e: unknown) => e,
    );
    expect(there).toBeInstanceOf(CsvExportError);
    expect(here).toBeInstanceOf(CsvExportError);
    expect((there as CsvExportError).reason).toBe(reason);
    expect((there as CsvExportError).field).toBe('redownloadsCSV');
    expect((there as CsvExportError).message).toBe((here as CsvExportError).message);
  });

  it('passes maxRows to the thread', async () => {
    const error = await parseExportInThread(
      createReadStream(ascFixture(SAMPLE_EXPORTS[0].conversion)),
      'conversionCSV',
      { maxRows: 10 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvExportError);
    expect((error as CsvExportError).reason).toBe('too_many_rows');
    expect((error as CsvExportError).message).toMatch(
      /^conversionCSV: the file has more than 10 data rows/,
    );
  });

  it('parses on the calling thread when the thread cannot be built', async () => {
    const path = ascFixture(SAMPLE_EXPORTS[0].redownloads);
    const here = await parseExport(createReadStream(path), 'redownloadsCSV');
    const fallback = await parseExportInThread(createReadStream(path), 'redownloadsCSV', {}, () =>
      Promise.reject(new Error('esbuild is not installed')),
    );
    expect(describeExport(fallback)).toEqual(describeExport(here));
    expect(fallback.rowCount).toBe(SAMPLE_EXPORTS[0].days);
  });

  it('fails with read_failed, naming the cause, when the upload stream fails', async () => {
    const bytes = constructedExport(50_000, ['Impressions', 'Downloads']);
    async function* failing() {
      yield bytes.subarray(0, 300_000);
      throw new Error('connection to PostgreSQL lost');
    }
    const error = await parseExportInThread(Readable.from(failing()), 'conversionCSV').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CsvExportError);
    expect((error as CsvExportError).reason).toBe('read_failed');
    expect(((error as CsvExportError).cause as Error).message).toBe(
      'connection to PostgreSQL lost',
    );
  });
});

describe('parseAndMergeExports with a parse thread', () => {
  it.each(SAMPLE_EXPORTS)('merges $appName as the sequential parse does', async (sample) => {
    const files = () => ({
      conversionCSV: createReadStream(ascFixture(sample.conversion)),
      redownloadsCSV: createReadStream(ascFixture(sample.redownloads)),
    });
    const sequential = await parseAndMergeExports(files());
    const threaded = await parseAndMergeExports(files(), { thread: 'redownloadsCSV' });
    const other = await parseAndMergeExports(files(), { thread: 'conversionCSV' });
    for (const merged of [threaded, other]) {
      expect(merged.headers).toEqual(sequential.headers);
      expect(merged.appName).toBe(sequential.appName);
      expect(merged.territory).toBe(sequential.territory);
      expect(merged.dateSpan).toEqual(sequential.dateSpan);
      expect(merged.toRowObjects()).toEqual(sequential.toRowObjects());
    }
    expect(threaded.rowCount).toBe(sample.days);
  });

  it('throws the first unusable file and leaves no stream open', async () => {
    const conversionCSV = createReadStream(constructedFixture('constructed-no-date-column.csv'));
    const redownloadsCSV = streamOf(constructedExport(40_000, ['Redownloads', 'Total Downloads']));
    const error = await parseAndMergeExports(
      { conversionCSV, redownloadsCSV },
      { thread: 'redownloadsCSV' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvExportError);
    expect((error as Error).message).toBe(
      'conversionCSV: no header row with a Date column found in the first 20 lines',
    );
    expect(conversionCSV.destroyed).toBe(true);
    expect(redownloadsCSV.destroyed).toBe(true);
  });
});

describe('threadedField', () => {
  it('threads the larger of two files when the smaller has THREAD_MIN_BYTES', () => {
    const big = THREAD_MIN_BYTES;
    expect(threadedField({ conversionCSV: big, redownloadsCSV: big * 3 })).toBe('redownloadsCSV');
    expect(threadedField({ conversionCSV: big * 2, redownloadsCSV: big })).toBe('conversionCSV');
    expect(threadedField({ conversionCSV: big - 1, redownloadsCSV: big * 10 })).toBeNull();
    expect(threadedField({ conversionCSV: big * 10 })).toBeNull();
    expect(threadedField({ redownloadsCSV: big * 10 })).toBeNull();
  });
});
