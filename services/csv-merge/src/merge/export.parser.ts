import { Readable, pipeline } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import Papa from 'papaparse';
import type { TChartCell, TUploadField } from '@aso/contracts';
import { CellTable, type TCellTableData } from './cell.table';
import { createCellReader } from './cell-value.reader';
import { CsvExportError } from './csv-export.error';
import { ExportDates, isoFromDayNumber, NO_DAY, type TExportDatesData } from './export-day.parser';
import { parsePreamble, type TPreamble } from './preamble.parser';
import {
  HEADER_SEARCH_LINES,
  isDateHeaderCell,
  openExportText,
  type TExportDelimiter,
  type TExportEncoding,
} from './text-decoder.stream';

/**
 * Longest record accepted, in bytes (an export row is well under 2 KB); a binary file or a
 * file without line breaks stops here instead of being buffered whole.
 */
export const MAX_RECORD_BYTES = 64 * 1024;

/**
 * Most data rows read from one export. A real export has one row per day: ten years of daily
 * data are 3,653 rows, so 5,000 (13.7 years) leaves room for any real file and refuses, in
 * milliseconds, a file of millions of short lines that would hold the merge worker for
 * minutes. Counted while streaming; above it the file is refused with a message naming the
 * limit. The worker takes it from `MERGE_MAX_ROWS`.
 */
export const MAX_EXPORT_ROWS = 5_000;

/**
 * Most columns of an export's header row. A conversion export has a date column and three
 * per source type (seven types) plus totals: about 25; 100 leaves room for sources Apple adds.
 * The worker takes it from `MERGE_MAX_COLUMNS`.
 */
export const MAX_EXPORT_COLUMNS = 100;

/**
 * Most records read below the header row, for each data row allowed: rows skipped (no date,
 * repeated headers, footers) count too, so a file of empty-dated lines is refused as fast as
 * one of dated rows.
 */
export const RECORDS_PER_ROW = 2;

/** How long parsing runs before it lets the event loop turn (ms): see `TParseOptions.pause`. */
export const PAUSE_EVERY_MS = 50;

/** Date cells of summary rows that some exports append ('Total', 'Totals', 'Grand Total', 'Sum'). */
const SUMMARY_ROW = /^(?:grand\s+)?(?:total|totals|sum)$/i;

/**
 * Largest file (characters of text) read whole and split by papaparse first (see
 * {@link fastDataRecords}): real exports are under 1 MB (5,000 rows); larger files stream
 * through csv-parse.
 */
export const FAST_PARSE_MAX_CHARS = 2 * 1024 * 1024;

/**
 * Longest record the papaparse pass keeps (characters): a UTF-8 character is at most 4 bytes,
 * so no record csv-parse would refuse for its size ({@link MAX_RECORD_BYTES}) gets through.
 */
const FAST_MAX_RECORD_CHARS = MAX_RECORD_BYTES / 4;

/** Text read before looking for the header row: enough for its 20 lines (characters). */
const HEAD_MAX_CHARS = (HEADER_SEARCH_LINES + 1) * MAX_RECORD_BYTES;

/** One data row of an export, as an object (see {@link ParsedExport.toRows}). */
export interface TExportRow {
  /** The date cell as written, trimmed (e.g. '7/20/25'). */
  date: string;
  /** The parsed day `YYYY-MM-DD`, or null when the date does not parse. */
  day: string | null;
  /** One value per header (the date column's value is the raw date text). */
  cells: TChartCell[];
}

/** Options of {@link parseExport}. */
export interface TParseOptions {
  /**
   * Awaited about every {@link PAUSE_EVERY_MS} of parsing, so a long parse never holds the
   * event loop (BullMQ's lock renewal runs on timers). Default: one turn of the event loop.
   */
  pause?: () => Promise<void>;
  /** Most data rows accepted (default {@link MAX_EXPORT_ROWS}). */
  maxRows?: number;
  /** Most columns of the header row (default {@link MAX_EXPORT_COLUMNS}). */
  maxColumns?: number;
  /** Parsing time between pauses (ms, default {@link PAUSE_EVERY_MS}; checked every 1,024 rows). */
  pauseEveryMs?: number;
}

/** One turn of the event loop (timers and I/O run). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A {@link ParsedExport} as plain data for `postMessage` (see `ParsedExport.toData`). */
export interface TParsedExportData {
  field: TUploadField;
  headers: string[];
  dateIndex: number;
  preamble: TPreamble;
  headerLine: number;
  encoding: TExportEncoding;
  delimiter: TExportDelimiter;
  skippedRows: number;
  table: TCellTableData;
  columns: number[];
  dates: TExportDatesData;
}

/**
 * A parsed App Store Connect export. The rows are held compactly (a {@link CellTable}, the
 * date texts and day numbers), never as an object per row; read them by index.
 */
export class ParsedExport {
  constructor(
    /** The multipart field of the file. */
    readonly field: TUploadField,
    /** Column names, cleaned and unique; includes the date column. */
    readonly headers: string[],
    /** Index of the date column in `headers`. */
    readonly dateIndex: number,
    readonly preamble: TPreamble,
    /** 1-based line number of the header row. */
    readonly headerLine: number,
    readonly encoding: TExportEncoding,
    readonly delimiter: TExportDelimiter,
    /** Rows dropped: no date, a repeated header, or a footer line without numbers. */
    readonly skippedRows: number,
    private readonly table: CellTable,
    /** Column of the table of each header. */
    private readonly columns: readonly number[],
    private readonly dates: ExportDates,
  ) {}

  /**
   * The export as plain data and the ArrayBuffers to transfer with it, so a worker thread can
   * hand it over without copying its rows (this object is unusable after the transfer).
   */
  toData(): { data: TParsedExportData; buffers: ArrayBuffer[] } {
    const table = this.table.toData();
    const dates = this.dates.toData();
    return {
      data: {
        field: this.field,
        headers: this.headers,
        dateIndex: this.dateIndex,
        preamble: this.preamble,
        headerLine: this.headerLine,
        encoding: this.encoding,
        delimiter: this.delimiter,
        skippedRows: this.skippedRows,
        table: table.data,
        columns: [...this.columns],
        dates: dates.data,
      },
      buffers: [...table.buffers, ...dates.buffers],
    };
  }

  /** The export {@link ParsedExport.toData} described (its arrays are used, not copied). */
  static fromData(data: TParsedExportData): ParsedExport {
    return new ParsedExport(
      data.field,
      data.headers,
      data.dateIndex,
      data.preamble,
      data.headerLine,
      data.encoding,
      data.delimiter,
      data.skippedRows,
      CellTable.fromData(data.table),
      data.columns,
      ExportDates.fromData(data.dates),
    );
  }

  /** Number of data rows. */
  get rowCount(): number {
    return this.dates.length;
  }

  /** The date cell of row `row` as written, trimmed. */
  date(row: number): string {
    return this.dates.text(row);
  }

  /** Day number (days since 1970-01-01) of row `row`'s date, or `NO_DAY` when it does not parse. */
  dayNumber(row: number): number {
    return this.dates.dayNumber(row);
  }

  /** Cell `col` (an index of `headers`) of row `row`; the date column gives the date text. */
  cell(row: number, col: number): TChartCell {
    if (col === this.dateIndex) return this.dates.text(row);
    return this.table.get(row, this.columns[col]!);
  }

  /** Every row as an object (allocates one per row: for tests and small files). */
  toRows(): TExportRow[] {
    return Array.from({ length: this.rowCount }, (_, row) => {
      const day = this.dayNumber(row);
      return {
        date: this.date(row),
        day: day === NO_DAY ? null : isoFromDayNumber(day),
        cells: this.headers.map((_, col) => this.cell(row, col)),
      };
    });
  }
}

/** A parsed export (see {@link ParsedExport}). */
export type TParsedExport = ParsedExport;

function cleanHeader(cell: string): string {
  return cell.replace(/^[\s\ufeff\u200b]+|[\s\u200b]+$/g, '').replace(/\s+/g, ' ');
}

/** Header row test (spec section 5): at least three cells, one exactly 'Date'. */
export function isHeaderRow(cells: readonly string[]): boolean {
  return cells.length >= 3 && cells.some(isDateHeaderCell);
}

function uniqueHeaders(cells: readonly string[]): { headers: string[]; unnamed: Set<number> } {
  const seen = new Map<string, number>();
  const unnamed = new Set<number>();
  const headers = cells.map((cell, i) => {
    let name = cleanHeader(cell);
    if (name === '') {
      unnamed.add(i);
      name = `Column ${i + 1}`;
    }
    const key = name.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count === 1 ? name : `${name} (${count})`;
  });
  return { headers, unnamed };
}

function csvFailure(field: TUploadField, error: CsvError, headerFound: boolean): CsvExportError {
  const why =
    error.code === 'CSV_MAX_RECORD_SIZE'
      ? `a line is longer than ${MAX_RECORD_BYTES} bytes`
      : `the CSV could not be read: ${error.message}`;
  const detail = headerFound
    ? `${why}; expected one CSV record per day below the header row`
    : `no header row with a Date column found in the first ${HEADER_SEARCH_LINES} lines (${why})`;
  return new CsvExportError(field, headerFound ? 'malformed' : 'no_header', detail, {
    cause: error,
  });
}

/** Number of line ends (CRLF, LF or CR) in `text`. */
function countLineEnds(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) count++;
    else if (code === 13 && text.charCodeAt(i + 1) !== 10) count++;
  }
  return count;
}

interface THeaderFound {
  preambleRows: string[][];
  headerCells: string[];
  headerLine: number;
}

/**
 * Reads the first lines (up to the 20th) with a small csv-parse pass of its own and returns
 * the preamble rows and the header row, or null when no header row is within them. The
 * data pass then starts at the header line (`from_line`): the preamble's two-field lines
 * never set the record length the data rows are checked against (a CsvError built
 * per data row).
 */
function findHeader(head: string, delimiter: TExportDelimiter, field: TUploadField) {
  const records: { record: string[]; info: { lines: number } }[] = [];
  try {
    parseSync(head, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_BYTES,
      to_line: HEADER_SEARCH_LINES,
      on_record: (record: string[], info) => {
        records.push({ record, info: { lines: info.lines } });
        return null;
      },
    });
  } catch (error) {
    // An error below a header found already is the data pass's to report.
    if (!records.some((r) => isHeaderRow(r.record))) {
      if (error instanceof CsvError) throw csvFailure(field, error, false);
      throw error;
    }
  }
  const at = records.findIndex((r) => isHeaderRow(r.record));
  if (at < 0 || records[at]!.info.lines > HEADER_SEARCH_LINES) return null;
  return {
    preambleRows: records.slice(0, at).map((r) => r.record),
    headerCells: records[at]!.record,
    headerLine: records[at]!.info.lines,
  } satisfies THeaderFound;
}

/** The refusal of a file with more than `maxRows` rows (see {@link MAX_EXPORT_ROWS}). */
function tooManyRows(field: TUploadField, maxRows: number): CsvExportError {
  return new CsvExportError(
    field,
    'too_many_rows',
    `the file has more than ${maxRows.toLocaleString('en-US')} data rows, the most one export may have (a daily export of ten years has 3,653); export a shorter date range`,
  );
}

function sameCells(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((cell, i) => cell === b[i]);
}

/** csv-parse options of the data rows (`relax_column_count`: rows may be short or long). */
const DATA_CSV_OPTIONS = {
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  max_record_size: MAX_RECORD_BYTES,
};

/** `records` in batches of 1,024, as {@link dataRecords} gives them. */
async function* inBatches(records: string[][]): AsyncGenerator<string[][], void, undefined> {
  for (let at = 0; at < records.length; at += 1024) yield records.slice(at, at + 1024);
}

/**
 * The records below the header row, in batches of 1,024, by csv-parse over the text from the
 * header line on (`from_line`), the header row left out: the preamble's two-field lines never
 * set the record length csv-parse checks the data rows against (a CsvError built
 * per data row).
 */
async function* dataRecords(
  head: readonly string[],
  rest: AsyncGenerator<string, void, undefined> | null,
  delimiter: TExportDelimiter,
  found: THeaderFound,
): AsyncGenerator<string[][], void, undefined> {
  async function* replay(): AsyncGenerator<string, void, undefined> {
    yield* head;
    // Returning this generator (the parse stopped early) returns `rest`, which closes the upload.
    if (rest) yield* rest;
  }
  const parser = parse({ ...DATA_CSV_OPTIONS, delimiter, from_line: found.headerLine });
  pipeline(Readable.from(replay()), parser, () => {
    // Errors reach the loop below through the parser; an early stop is not an error here.
  });
  let awaitingHeader = true;
  let skipped = 0;
  try {
    let batch: string[][] = [];
    for await (const record of parser as AsyncIterable<string[]>) {
      if (awaitingHeader) {
        // The first record is the header row found before (csv-parse counts the lines the
        // same way in both passes).
        if (sameCells(record, found.headerCells)) awaitingHeader = false;
        else if (++skipped > HEADER_SEARCH_LINES) break;
        continue;
      }
      batch.push(record);
      if (batch.length >= 1024) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    parser.destroy();
  }
  if (awaitingHeader) {
    throw new Error(`the data pass did not find the header row of line ${found.headerLine}`);
  }
}

/** The record delimiter csv-parse detects in `text` (the first line break), or null. */
function firstLineBreak(text: string): '\r\n' | '\n' | '\r' | null {
  const at = text.search(/[\r\n]/);
  if (at < 0) return null;
  if (text[at] === '\n') return '\n';
  return text[at + 1] === '\n' ? '\r\n' : '\r';
}

/** Line breaks other than `newline` (csv-parse keeps them in cells; papaparse may not). */
const OTHER_BREAKS = {
  '\r\n': /\r(?!\n)|(?<!\r)\n/,
  '\n': /\r/,
  '\r': /\n/,
} as const;

/**
 * The records below the header row of a whole file's `text`, split by papaparse, which is
 * about 3.5 times as fast as csv-parse on real exports (the merge's largest cost), or null
 * when csv-parse is to read the file instead: whenever papaparse reports anything (an odd
 * quote, an unclosed one: csv-parse's relaxed rules keep such rows), a record is long enough
 * to reach csv-parse's size limit, the file mixes line breaks, or the first record is not the
 * header row found before. On the rows it keeps the two agree (RFC 4180 quoting, ragged rows);
 * empty lines are skipped as csv-parse skips them (a line holding `""` is a record).
 * Stops after `maxRecords` records (the caller refuses the file at that count).
 */
function fastDataRecords(
  text: string,
  delimiter: TExportDelimiter,
  found: THeaderFound,
  maxRecords: number,
): string[][] | null {
  const newline = firstLineBreak(text);
  if (!newline || OTHER_BREAKS[newline].test(text)) return null;
  // From the header line on, as csv-parse's `from_line` (lines counted by the same break).
  let start = 0;
  for (let line = 1; line < found.headerLine; line++) {
    const at = text.indexOf(newline, start);
    if (at < 0) return null;
    start = at + newline.length;
  }
  const records: string[][] = [];
  let usable = true;
  let cursor = 0;
  Papa.parse<string[]>(text.slice(start), {
    delimiter,
    newline,
    quoteChar: '"',
    escapeChar: '"',
    skipEmptyLines: false,
    step: (row, parser) => {
      const span = row.meta.cursor - cursor;
      cursor = row.meta.cursor;
      if (row.errors.length > 0 || span > FAST_MAX_RECORD_CHARS) {
        usable = false;
        parser.abort();
        return;
      }
      const record = row.data;
      // An empty line (only its break, or nothing at the end): csv-parse skips it.
      if (record.length === 1 && record[0] === '' && span <= newline.length) return;
      records.push(record);
      if (records.length > maxRecords) parser.abort();
    },
  });
  if (!usable || records.length === 0 || !sameCells(records[0]!, found.headerCells)) return null;
  return records.slice(1);
}

/**
 * Parses one App Store Connect export (spec section 5) into a compact {@link ParsedExport}:
 * a file of at most {@link FAST_PARSE_MAX_CHARS} is read whole and split by papaparse when it
 * has nothing unusual (see `fastDataRecords`); any other is streamed through csv-parse, never
 * held as one string.
 *
 * - Text: UTF-8 with or without BOM, UTF-16 with BOM, LF or CRLF; ',', tab or ';' delimited
 *   (see `openExportText`).
 * - Preamble: the lines above the header row; app name, territory, date range and view are
 *   read from them (see `parsePreamble`).
 * - Header row: the first row within the first 20 lines with at least three cells one of which
 *   is exactly 'Date' (trimmed, case-insensitive; 'Date Range' is not one). That cell's column
 *   is the date column. Empty header cells are named 'Column N' and dropped when their column
 *   is empty throughout; repeated names get ' (2)', ' (3)'.
 * - Data: dates as written ('M/D/YY' or ISO, parsed to a day number); other cells via
 *   `parseCellValue`: numbers ('1,234' -> 1234, '12.5%' -> 12.5; in ';'-delimited files
 *   '1.234,5' -> 1234.5, see `decimalCommaToPoint`) as numbers, '-' or empty as
 *   null, other text kept. Rows with an empty date cell, repeated header rows, summary rows
 *   ('Total', 'Grand Total', 'Sum') and rows whose date does not parse and that hold no number
 *   (footers) are skipped and counted; other rows with an unparseable date are kept (the
 *   dashboard leaves them out of every date range, spec section 5).
 *
 * @param input - the file's bytes (from PostgreSQL, a file, a multipart part).
 * @param field - the upload field, named in every error message.
 * @throws CsvExportError naming the field and what was expected: 'empty', 'binary',
 *   'no_header' ('no header row with a Date column found in the first 20 lines'), 'no_rows',
 *   'too_many_rows' (more than `maxRows` data rows, or `RECORDS_PER_ROW` times as many lines
 *   below the header), 'too_many_columns' (a header row wider than `maxColumns`), 'malformed' (csv-parse could not read
 *   it), 'read_failed'.
 */
export async function parseExport(
  input: Readable,
  field: TUploadField,
  options: TParseOptions = {},
): Promise<ParsedExport> {
  const pause = options.pause ?? nextTurn;
  const maxRows = options.maxRows ?? MAX_EXPORT_ROWS;
  const pauseEveryMs = options.pauseEveryMs ?? PAUSE_EVERY_MS;
  const text = await openExportText(input, field);
  const chunks = text.chunks;

  // The first lines, for the header search; replayed into the data pass below.
  const head: string[] = [];
  let headChars = 0;
  let lineEnds = 0;
  let ended = false;
  /** Reads chunks into `head` while `more()` holds and the file has more. */
  const readAhead = async (more: () => boolean): Promise<void> => {
    try {
      while (!ended && more()) {
        const next = await chunks.next();
        if (next.done) ended = true;
        else {
          head.push(next.value);
          headChars += next.value.length;
          lineEnds += countLineEnds(next.value);
        }
      }
    } catch (error) {
      await chunks.return();
      throw new CsvExportError(field, 'read_failed', 'the file could not be read', {
        cause: error,
      });
    }
  };
  await readAhead(() => lineEnds <= HEADER_SEARCH_LINES && headChars < HEAD_MAX_CHARS);
  let found: THeaderFound | null;
  try {
    found = findHeader(head.join(''), text.delimiter, field);
  } catch (error) {
    await chunks.return();
    throw error;
  }
  if (!found) {
    await chunks.return();
    throw new CsvExportError(
      field,
      'no_header',
      `no header row with a Date column found in the first ${HEADER_SEARCH_LINES} lines`,
    );
  }

  const maxColumns = options.maxColumns ?? MAX_EXPORT_COLUMNS;
  if (found.headerCells.length > maxColumns) {
    await chunks.return();
    throw new CsvExportError(
      field,
      'too_many_columns',
      `the header row has ${found.headerCells.length} columns, more than the ${maxColumns} an export may have`,
    );
  }
  const { headers: allHeaders, unnamed } = uniqueHeaders(found.headerCells);
  const width = found.headerCells.length;
  const dateColumn = found.headerCells.findIndex(isDateHeaderCell);
  const table = new CellTable(width);
  const dates = new ExportDates();
  /** Columns holding a value in a kept row (unnamed columns without any are dropped). */
  const filled = new Uint8Array(width);
  const textColumns: number[] = [];
  const readCell = createCellReader(text.delimiter);
  let skippedRows = 0;

  // A file small enough is read whole and split by papaparse when it can (see
  // fastDataRecords); any other streams through csv-parse. Reading ahead stops once the lines
  // read pass the row cap, so a file of countless short lines is refused by csv-parse's count
  // before the rest of it is read.
  const maxRecords = maxRows * RECORDS_PER_ROW;
  let fast: string[][] | null = null;
  await readAhead(
    () => headChars <= FAST_PARSE_MAX_CHARS && lineEnds <= maxRecords + found.headerLine,
  );
  if (ended) {
    fast = fastDataRecords(head.join(''), text.delimiter, found, maxRecords + 1);
  }
  const batches = fast
    ? inBatches(fast)
    : dataRecords(head, ended ? null : chunks, text.delimiter, found);
  let records = 0;
  let lastPause = performance.now();
  try {
    for await (const batch of batches) {
      for (const record of batch) {
        if ((++records & 1023) === 0 && performance.now() - lastPause >= pauseEveryMs) {
          await pause();
          lastPause = performance.now();
        }
        if (records > maxRows * RECORDS_PER_ROW) throw tooManyRows(field, maxRows);
        const date = (record[dateColumn] ?? '').trim();
        if (date === '') {
          skippedRows++;
          continue;
        }
        const day = dates.push(date);
        // A repeated header or a summary row ('Total') has no date that parses.
        if (day === NO_DAY && (isDateHeaderCell(date) || SUMMARY_ROW.test(date))) {
          dates.pop();
          skippedRows++;
          continue;
        }
        if (dates.length > maxRows) throw tooManyRows(field, maxRows);
        const row = table.addRow();
        let hasNumber = false;
        textColumns.length = 0;
        const cells = Math.min(record.length, width);
        for (let col = 0; col < cells; col++) {
          if (col === dateColumn) continue;
          const value = readCell(record[col]!);
          if (value === null) continue;
          if (typeof value === 'number') {
            hasNumber = true;
            filled[col] = 1;
          } else textColumns.push(col);
          table.set(row, col, value);
        }
        if (day === NO_DAY && !hasNumber) {
          table.removeLastRow();
          dates.pop();
          skippedRows++;
          continue;
        }
        for (const col of textColumns) filled[col] = 1;
      }
    }
  } catch (error) {
    if (error instanceof CsvExportError) throw error;
    if (error instanceof CsvError) throw csvFailure(field, error, true);
    throw new CsvExportError(field, 'read_failed', 'the file could not be read', { cause: error });
  } finally {
    await batches.return();
  }

  if (dates.length === 0) {
    throw new CsvExportError(
      field,
      'no_rows',
      `no data rows with a date below the header row (line ${found.headerLine})`,
    );
  }

  // Trailing delimiters make unnamed, empty columns; they carry nothing.
  const columns = allHeaders.map((_, i) => i).filter((i) => !unnamed.has(i) || filled[i] === 1);
  return new ParsedExport(
    field,
    columns.map((i) => allHeaders[i]!),
    columns.indexOf(dateColumn),
    parsePreamble(found.preambleRows),
    found.headerLine,
    text.encoding,
    text.delimiter,
    skippedRows,
    table,
    columns,
    dates,
  );
}
