import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CsvExportError,
  ExportParsePool,
  parseAndMergeExports,
  parseExport,
  THREAD_IN_FLIGHT_BYTES,
  type TParsedExport,
} from '../src/merge/index';
import {
  ascFixture,
  constructedExport,
  constructedFixture,
  SAMPLE_EXPORTS,
} from './fixture-paths.helpers';

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
  return Readable.from(streamOfPieces(bytes));
}

function streamOfPieces(bytes: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 65_536) pieces.push(bytes.subarray(at, at + 65_536));
  return pieces;
}

/** `bytes` in 64 KB pieces, and then no end: the stream stays open until it is destroyed. */
function openStreamOf(bytes: Buffer): Readable {
  const pieces = [...streamOfPieces(bytes)];
  return new Readable({
    read() {
      const next = pieces.shift();
      if (next) this.push(next);
    },
  });
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

// One thread: parses of both files of a merge queue behind each other in it.
const pool = new ExportParsePool({ threads: 1 });
afterAll(() => pool.close());
const parseExportInThread = (...args: Parameters<ExportParsePool['parse']>) => pool.parse(...args);

describe('ExportParsePool (docs/BENCHMARKS.md)', () => {
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
    const broken = new ExportParsePool({
      threads: 1,
      loadScript: () => Promise.reject(new Error('esbuild is not installed')),
    });
    const fallback = await broken.parse(createReadStream(path), 'redownloadsCSV');
    expect(await broken.threads()).toBe(0);
    expect(describeExport(fallback)).toEqual(describeExport(here));
    expect(fallback.rowCount).toBe(SAMPLE_EXPORTS[0].days);
    await broken.close();
  });

  it('keeps its thread for the next file after a parse stopped early', async () => {
    // A stream destroyed mid-file (the merge stopped) fails that parse only.
    const bytes = constructedExport(60_000, ['Impressions', 'Downloads']);
    const input = streamOf(bytes);
    const stopped = pool.parse(input, 'conversionCSV', { maxRows: 1_000_000 });
    input.once('data', () => input.destroy());
    expect(await stopped.catch((e: unknown) => e)).toBeInstanceOf(CsvExportError);
    const path = ascFixture(SAMPLE_EXPORTS[1].redownloads);
    const next = await pool.parse(createReadStream(path), 'redownloadsCSV');
    expect(next.rowCount).toBe(SAMPLE_EXPORTS[1].days);
    expect(await pool.threads()).toBe(1);
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

describe('parseAndMergeExports with the parse threads', () => {
  it.each(SAMPLE_EXPORTS)('merges $appName as the sequential parse does', async (sample) => {
    const files = () => ({
      conversionCSV: createReadStream(ascFixture(sample.conversion)),
      redownloadsCSV: createReadStream(ascFixture(sample.redownloads)),
    });
    const sequential = await parseAndMergeExports(files());
    const threaded = await parseAndMergeExports(files(), { pool });
    expect(threaded.headers).toEqual(sequential.headers);
    expect(threaded.appName).toBe(sequential.appName);
    expect(threaded.territory).toBe(sequential.territory);
    expect(threaded.dateSpan).toEqual(sequential.dateSpan);
    expect(threaded.toRowObjects()).toEqual(sequential.toRowObjects());
    expect(threaded.rowCount).toBe(sample.days);
  });

  it('throws the first unusable file and leaves no stream open', async () => {
    const conversionCSV = createReadStream(constructedFixture('constructed-no-date-column.csv'));
    const redownloadsCSV = streamOf(constructedExport(40_000, ['Redownloads', 'Total Downloads']));
    const error = await parseAndMergeExports(
      { conversionCSV, redownloadsCSV },
      { pool, maxRows: 1_000_000 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvExportError);
    expect((error as Error).message).toBe(
      'conversionCSV: no header row with a Date column found in the first 20 lines',
    );
    expect(conversionCSV.destroyed).toBe(true);
    expect(redownloadsCSV.destroyed).toBe(true);
  });

  it('stops both parses when its pause throws (the merge budget or a cancel)', async () => {
    const stop = new Error('upload: cancelled');
    // The first upload never ends (a client still sending): only the pause can end the merge,
    // however fast or slow the thread is.
    const conversionCSV = openStreamOf(constructedExport(20_000, ['Impressions', 'Downloads']));
    const redownloadsCSV = streamOf(constructedExport(20_000, ['Redownloads', 'Total Downloads']));
    const error = await parseAndMergeExports(
      { conversionCSV, redownloadsCSV },
      { pool, maxRows: 1_000_000, pause: () => Promise.reject(stop) },
    ).catch((e: unknown) => e);
    expect(error).toBe(stop);
    expect(conversionCSV.destroyed).toBe(true);
    expect(redownloadsCSV.destroyed).toBe(true);
    // The thread is free again: the next parse is answered.
    const path = ascFixture(SAMPLE_EXPORTS[2].conversion);
    expect((await pool.parse(createReadStream(path), 'conversionCSV')).rowCount).toBe(
      SAMPLE_EXPORTS[2].days,
    );
  });
});
