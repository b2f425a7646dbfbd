import type { Readable } from 'node:stream';
import { CsvError } from 'csv-parse';
import type { TUploadField } from '@aso/contracts';
import { createCellReader } from './cell-value.reader';
import { CsvExportError } from './csv-export.error';
import {
  csvFailure,
  linesText,
  type TUnreadableLines,
  unreadableNotice,
  unreadableReason,
} from './export-csv.options';
import { fastDataRecords } from './export-fast.reader';
import { ExportRowCollector } from './export-rows.collector';
import {
  findHeader,
  HEAD_MAX_CHARS,
  type THeaderFound,
  uniqueHeaders,
} from './export-header.finder';
import {
  FAST_PARSE_MAX_CHARS,
  MAX_EXPORT_COLUMNS,
  MAX_LINE_NOTICES,
  MAX_EXPORT_ROWS,
  nextTurn,
  PAUSE_EVERY_MS,
  RECORDS_PER_ROW,
  type TParseOptions,
} from './export-limits';
import { ParsedExport } from './export-result';
import { SLOT_LABEL } from './exports.crosscheck';
import { dataRecords } from './export-stream.reader';
import { parsePreamble } from './preamble.parser';
import {
  countLineEnds,
  HEADER_SEARCH_LINES,
  isDateHeaderCell,
  openExportText,
} from './text-decoder.stream';

/**
 * Parses one App Store Connect export (docs/product.md#merging-exports) into a compact {@link
 * ParsedExport}: a file of at most {@link FAST_PARSE_MAX_CHARS} is read whole and split by
 * papaparse when it has nothing unusual (see `fastDataRecords`); any other is streamed through
 * csv-parse, never held as one string.
 *
 * - Text: UTF-8 with or without BOM (any number of BOMs at the start are dropped), UTF-16 with
 *   BOM; CRLF, LF or CR line breaks, mixed in one file or not; ',', tab or ';' delimited (see
 *   `openExportText`).
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
 *   dashboard leaves them out of every date range, docs/product.md#merging-exports).
 *
 * - Unreadable lines: a quote that is never closed, or that runs over the lines below it
 *   (see `dataRecords`), makes the record csv-parse read from it unusable; its lines are left
 *   out and the result's `notices` name them and the line the quote opened on (at most
 *   `MAX_LINE_NOTICES`, then a count). A file left with no rows is refused ('no_rows', naming
 *   the lines).
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
  const readCell = createCellReader(text.delimiter);
  const newRows = () => new ExportRowCollector({ field, maxRows, width, dateColumn, readCell });
  let rows = newRows();

  // Pauses at most every 1,024 records, once `pauseEveryMs` have passed since the last.
  let lastPause = performance.now();
  let pauseCheckedAt = 0;
  const pauseIfDue = (): Promise<void> | null => {
    if (rows.records >> 10 === pauseCheckedAt >> 10) return null;
    pauseCheckedAt = rows.records;
    if (performance.now() - lastPause < pauseEveryMs) return null;
    return pause().then(() => {
      lastPause = performance.now();
    });
  };

  // A file small enough is read whole and split by papaparse when it can (see
  // fastDataRecords); any other streams through csv-parse. Reading ahead stops once the lines
  // read pass the row cap, so a file of countless short lines is refused by csv-parse's count
  // before the rest of it is read.
  const maxRecords = maxRows * RECORDS_PER_ROW;
  /** Lines csv-parse could not read as rows, left out (the first MAX_LINE_NOTICES). */
  const unreadable: TUnreadableLines[] = [];
  let moreUnreadable = 0;
  await readAhead(
    () => headChars <= FAST_PARSE_MAX_CHARS && lineEnds <= maxRecords + found.headerLine,
  );
  try {
    const fast =
      ended &&
      (await fastDataRecords(
        head.join(''),
        text.delimiter,
        found,
        (record) => rows.add(record),
        pauseIfDue,
      ));
    if (!fast) {
      // What the papaparse pass read before it gave up is read again by csv-parse.
      rows = newRows();
      pauseCheckedAt = 0;
      const batches = dataRecords(head, ended ? null : chunks, text.delimiter, found, (lines) => {
        if (unreadable.length < MAX_LINE_NOTICES) unreadable.push(lines);
        else moreUnreadable++;
      });
      try {
        for await (const batch of batches) {
          for (const record of batch) {
            rows.add(record);
            if ((rows.records & 1023) === 0) await pauseIfDue();
          }
        }
      } finally {
        await batches.return();
      }
    }
  } catch (error) {
    if (error instanceof CsvExportError) throw error;
    if (error instanceof CsvError) throw csvFailure(field, error, true);
    throw new CsvExportError(field, 'read_failed', 'the file could not be read', { cause: error });
  }
  const { table, dates, filled, skippedRows } = rows;

  if (dates.length === 0) {
    const first = unreadable[0];
    const why = first ? `; ${linesText(first)} could not be read (${unreadableReason(first)})` : '';
    throw new CsvExportError(
      field,
      'no_rows',
      `no data rows with a date below the header row (line ${found.headerLine})${why}`,
    );
  }
  const label = SLOT_LABEL[field];
  const notices = unreadable.map((lines) => unreadableNotice(label, lines));
  if (moreUnreadable > 0) {
    notices.push(
      `The ${label} file: ${moreUnreadable} more places could not be read as CSV rows and were left out.`,
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
    notices,
    table,
    columns,
    dates,
  );
}
