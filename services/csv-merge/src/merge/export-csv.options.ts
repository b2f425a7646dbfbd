import type { CsvError } from 'csv-parse';
import type { TUploadField } from '@aso/contracts';
import { CsvExportError } from './csv-export.error';
import { MAX_RECORD_BYTES } from './export-limits';
import { HEADER_SEARCH_LINES } from './text-decoder.stream';

/**
 * Line breaks csv-parse splits records at, longest first: CRLF, LF and CR are all read
 * wherever they are. Left to itself csv-parse takes the first break it meets as the only one,
 * so a file mixing CRLF and LF lines (an export edited by hand) would read as one long line
 * (docs/product.md#merging-exports).
 */
const RECORD_DELIMITERS = ['\r\n', '\n', '\r'];

/**
 * csv-parse options shared by the header search and the data pass
 * (docs/product.md#merging-exports): rows may be short or long (`relax_column_count`), a quote
 * inside an unquoted cell is kept as text (`relax_quotes`), empty lines are skipped, any line
 * break ends a record, and no record may pass {@link MAX_RECORD_BYTES}.
 */
export const EXPORT_CSV_OPTIONS = {
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  record_delimiter: RECORD_DELIMITERS,
  max_record_size: MAX_RECORD_BYTES,
};

/** Lines of an export that could not be read as CSV rows and were left out (1-based). */
export interface TUnreadableLines {
  /** The line the record began on: where its quote opened. */
  from: number;
  /** The last line left out, or null when the quote is never closed (to the end of the file). */
  to: number | null;
}

/**
 * Whether csv-parse's relaxed quoting hid a broken quote in `record`: a quoted cell whose
 * closing quote is not followed by a delimiter is given back with its opening quote, so a cell
 * starting with a quote and holding a line break is a quote that ran over the lines below it
 * (taking their rows as its text), not a cell written across lines.
 */
export function hasRunawayQuote(record: readonly string[]): boolean {
  for (const cell of record) {
    if (cell.charCodeAt(0) === 34 && (cell.includes('\n') || cell.includes('\r'))) return true;
  }
  return false;
}

/** 'line 3', 'lines 3 to 5' or 'lines 3 to the end of the file'. */
export function linesText(lines: TUnreadableLines): string {
  if (lines.to === null) return `lines ${lines.from} to the end of the file`;
  return lines.to === lines.from ? `line ${lines.from}` : `lines ${lines.from} to ${lines.to}`;
}

/** Why `lines` could not be read, naming the line its quote opened on. */
export function unreadableReason(lines: TUnreadableLines): string {
  return lines.to === null
    ? `the quote opened on line ${lines.from} is never closed`
    : `the quote opened on line ${lines.from} is not closed before the next delimiter`;
}

/**
 * The notice for the user of lines left out of an export (docs/product.md#merging-exports),
 * naming the file by its slot, the lines and the line the quote opened on.
 */
export function unreadableNotice(fileLabel: string, lines: TUnreadableLines): string {
  const one = lines.to === lines.from;
  return `The ${fileLabel} file: ${linesText(lines)} ${one ? 'was' : 'were'} left out, unreadable as CSV rows (${unreadableReason(lines)}), so the days written there have no values; fix the quote and upload again.`;
}

/**
 * The CsvExportError for a csv-parse failure: 'malformed' below the header row, 'no_header'
 * when it stopped the header search; the detail names the line limit, the line an unclosed
 * quote opened on (`quoteLine`, when known) or csv-parse's message.
 */
export function csvFailure(
  field: TUploadField,
  error: CsvError,
  headerFound: boolean,
  quoteLine?: number,
): CsvExportError {
  let why = `the CSV could not be read: ${error.message}`;
  if (error.code === 'CSV_MAX_RECORD_SIZE') why = `a line is longer than ${MAX_RECORD_BYTES} bytes`;
  else if (error.code === 'CSV_QUOTE_NOT_CLOSED' && quoteLine !== undefined) {
    why = `the quote opened on line ${quoteLine} is never closed`;
  }
  const detail = headerFound
    ? `${why}; expected one CSV record per day below the header row`
    : `no header row with a Date column found in the first ${HEADER_SEARCH_LINES} lines (${why})`;
  return new CsvExportError(field, headerFound ? 'malformed' : 'no_header', detail, {
    cause: error,
  });
}
