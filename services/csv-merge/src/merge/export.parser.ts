import { Readable, pipeline } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import { parseCellValue, parseDate } from '@aso/analytics';
import type { TChartCell, TUploadField } from '@aso/contracts';
import { CsvExportError } from './csv-export.error';
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

/** Date cells of summary rows that some exports append ('Total', 'Totals', 'Grand Total', 'Sum'). */
const SUMMARY_ROW = /^(?:grand\s+)?(?:total|totals|sum)$/i;

/**
 * Semicolon-delimited files come from spreadsheets in locales that write decimal commas
 * ('1.234,5'); their numbers are rewritten to '1234.5' before reading. Other text is kept.
 */
export function decimalCommaToPoint(raw: string): string {
  const text = raw.trim();
  if (/^[+-]?\d{1,3}(?:\.\d{3})+(?:,\d+)?\s*%?$/.test(text)) {
    return text.replace(/\./g, '').replace(',', '.');
  }
  if (/^[+-]?\d+,\d+\s*%?$/.test(text)) return text.replace(',', '.');
  return raw;
}

/** One data row of an export. */
export interface TExportRow {
  /** The date cell as written, trimmed (e.g. '7/20/25'). */
  date: string;
  /** The parsed day `YYYY-MM-DD`, or null when the date does not parse. */
  day: string | null;
  /** One value per header (the date column's value is the raw date text). */
  cells: TChartCell[];
}

/** A parsed App Store Connect export. */
export interface TParsedExport {
  field: TUploadField;
  /** Column names, cleaned and unique; includes the date column. */
  headers: string[];
  /** Index of the date column in `headers`. */
  dateIndex: number;
  rows: TExportRow[];
  preamble: TPreamble;
  /** 1-based line number of the header row. */
  headerLine: number;
  encoding: TExportEncoding;
  delimiter: TExportDelimiter;
  /** Rows dropped: no date, a repeated header, or a footer line without numbers. */
  skippedRows: number;
}

function cleanHeader(cell: string): string {
  return cell.replace(/^[\s\ufeff\u200b]+|[\s\u200b]+$/g, '').replace(/\s+/g, ' ');
}

/** Header row test (issue 6 point 2): at least three cells, one exactly 'Date'. */
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

/**
 * Stream-parses one App Store Connect export (issue 6 point 2) with csv-parse, never holding
 * the file as one string.
 *
 * - Text: UTF-8 with or without BOM, UTF-16 with BOM, LF or CRLF; ',', tab or ';' delimited
 *   (see `openExportText`).
 * - Preamble: the lines above the header row; app name, territory, date range and view are
 *   read from them (see `parsePreamble`).
 * - Header row: the first row within the first 20 lines with at least three cells one of which
 *   is exactly 'Date' (trimmed, case-insensitive; 'Date Range' is not one). That cell's column
 *   is the date column. Empty header cells are named 'Column N' and dropped when their column
 *   is empty throughout; repeated names get ' (2)', ' (3)'.
 * - Data: dates as written ('M/D/YY' or ISO, parsed to `day`); other cells via
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
 *   'malformed' (csv-parse could not read it), 'read_failed'.
 */
export async function parseExport(input: Readable, field: TUploadField): Promise<TParsedExport> {
  const text = await openExportText(input, field);
  const parser = parse({
    delimiter: text.delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_BYTES,
    info: true,
  });
  pipeline(Readable.from(text.chunks), parser, () => {
    // Errors reach the loop below through the parser; an early stop is not an error here.
  });

  const preambleRows: string[][] = [];
  let headers: string[] | null = null;
  let unnamed = new Set<number>();
  let dateIndex = -1;
  let headerLine = 0;
  const rows: TExportRow[] = [];
  let skippedRows = 0;
  const readCell =
    text.delimiter === ';'
      ? (raw: string) => parseCellValue(decimalCommaToPoint(raw))
      : parseCellValue;

  try {
    for await (const item of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      const { record, info } = item;
      if (headers === null) {
        if (isHeaderRow(record)) {
          if (info.lines > HEADER_SEARCH_LINES) break;
          ({ headers, unnamed } = uniqueHeaders(record));
          dateIndex = record.findIndex(isDateHeaderCell);
          headerLine = info.lines;
          continue;
        }
        if (info.lines >= HEADER_SEARCH_LINES) break;
        preambleRows.push(record);
        continue;
      }
      const date = (record[dateIndex] ?? '').trim();
      if (date === '' || isDateHeaderCell(date) || SUMMARY_ROW.test(date)) {
        skippedRows++;
        continue;
      }
      const cells: TChartCell[] = headers.map((_, i) =>
        i === dateIndex ? date : readCell(record[i] ?? ''),
      );
      const day = parseDate(date);
      if (day === null && !cells.some((c) => typeof c === 'number')) {
        skippedRows++;
        continue;
      }
      rows.push({ date, day, cells });
    }
  } catch (error) {
    if (error instanceof CsvExportError) throw error;
    if (error instanceof CsvError) {
      const why =
        error.code === 'CSV_MAX_RECORD_SIZE'
          ? `a line is longer than ${MAX_RECORD_BYTES} bytes`
          : `the CSV could not be read: ${error.message}`;
      const detail =
        headers === null
          ? `no header row with a Date column found in the first ${HEADER_SEARCH_LINES} lines (${why})`
          : `${why}; expected one CSV record per day below the header row`;
      throw new CsvExportError(field, headers === null ? 'no_header' : 'malformed', detail, {
        cause: error,
      });
    }
    throw new CsvExportError(field, 'read_failed', 'the file could not be read', { cause: error });
  } finally {
    parser.destroy();
  }

  if (headers === null) {
    throw new CsvExportError(
      field,
      'no_header',
      `no header row with a Date column found in the first ${HEADER_SEARCH_LINES} lines`,
    );
  }
  if (rows.length === 0) {
    throw new CsvExportError(
      field,
      'no_rows',
      `no data rows with a date below the header row (line ${headerLine})`,
    );
  }

  // Trailing delimiters make unnamed, empty columns; they carry nothing.
  const drop = new Set([...unnamed].filter((i) => rows.every((r) => r.cells[i] === null)));
  if (drop.size > 0) {
    const keep = headers.map((_, i) => i).filter((i) => !drop.has(i));
    headers = keep.map((i) => headers![i]!);
    for (const row of rows) row.cells = keep.map((i) => row.cells[i]!);
    dateIndex = keep.indexOf(dateIndex);
  }

  return {
    field,
    headers,
    dateIndex,
    rows,
    preamble: parsePreamble(preambleRows),
    headerLine,
    encoding: text.encoding,
    delimiter: text.delimiter,
    skippedRows,
  };
}
