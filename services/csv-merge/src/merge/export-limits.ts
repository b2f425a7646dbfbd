import type { TUploadField } from '@aso/contracts';
import { CsvExportError } from './csv-export.error';

/**
 * The limits of one export's parse (docs/product.md#merging-exports) and the options
 * that set them: each bounds the time or memory one uploaded file can take.
 */

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

/**
 * Most notices one export adds about lines it could not read (see `parseExport`); past them
 * one more notice gives the count of the rest, so a file of broken lines cannot fill the
 * upload answer.
 */
export const MAX_LINE_NOTICES = 5;

/** How long parsing runs before it lets the event loop turn (ms): see `TParseOptions.pause`. */
export const PAUSE_EVERY_MS = 50;

/**
 * Largest file (characters of text) read whole and split by papaparse first (see
 * `fastDataRecords`): real exports are under 1 MB (5,000 rows); larger files stream through
 * csv-parse.
 */
export const FAST_PARSE_MAX_CHARS = 2 * 1024 * 1024;

/** Options of `parseExport`. */
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

/**
 * The refusal of a file with more than `maxRows` rows (see {@link MAX_EXPORT_ROWS}): a
 * CsvExportError 'too_many_rows' naming the limit.
 */
export function tooManyRows(field: TUploadField, maxRows: number): CsvExportError {
  return new CsvExportError(
    field,
    'too_many_rows',
    `the file has more than ${maxRows.toLocaleString('en-US')} data rows, the most one export may have (a daily export of ten years has 3,653); export a shorter date range`,
  );
}
