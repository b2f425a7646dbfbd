import { CsvError } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import type { TUploadField } from '@aso/contracts';
import { csvFailure, EXPORT_CSV_OPTIONS } from './export-csv.options';
import { MAX_RECORD_BYTES } from './export-limits';
import {
  HEADER_SEARCH_LINES,
  isDateHeaderCell,
  type TExportDelimiter,
} from './text-decoder.stream';

/**
 * The search for an export's header row (docs/product.md#merging-exports) among its first
 * lines, and the column names it gives.
 */

/** Text read before looking for the header row: enough for its 20 lines (characters). */
export const HEAD_MAX_CHARS = (HEADER_SEARCH_LINES + 1) * MAX_RECORD_BYTES;

/** The header row found and the lines above it. */
export interface THeaderFound {
  /** The records above the header row (the preamble). */
  preambleRows: string[][];
  /** The header row's cells as csv-parse read them. */
  headerCells: string[];
  /** 1-based line number of the header row. */
  headerLine: number;
}

/** What csv-parse says of where it is (an InfoRecord, or a CsvError's context). */
interface TCsvPosition {
  lines: number;
  empty_lines: number;
}

/**
 * The first line of each record csv-parse reads, from its `info`: csv-parse gives the line a
 * record ends on, so the next one begins below it, past the empty lines it skipped. For the
 * header search only (20 lines): on the data rows csv-parse's per-record `info` doubles its
 * parse time, so `dataRecords` counts lines itself.
 */
class RecordLines {
  private lastLine = 0;
  private lastEmpty = 0;

  /** The first line of the record that ended at `info` (call once per record, in order). */
  next(info: TCsvPosition): number {
    const from = this.start(info);
    this.lastLine = info.lines;
    this.lastEmpty = info.empty_lines;
    return from;
  }

  /** The first line of the record being read when csv-parse stopped at `info` (an error's). */
  start(info: TCsvPosition): number {
    return this.lastLine + 1 + Math.max(0, info.empty_lines - this.lastEmpty);
  }
}

function cleanHeader(cell: string): string {
  return cell.replace(/^[\s\ufeff\u200b]+|[\s\u200b]+$/g, '').replace(/\s+/g, ' ');
}

/** Header row test (docs/product.md#merging-exports): at least three cells, one exactly 'Date'. */
export function isHeaderRow(cells: readonly string[]): boolean {
  return cells.length >= 3 && cells.some(isDateHeaderCell);
}

/** Whether two records hold the same cells (a data pass meeting the header row again). */
export function sameCells(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((cell, i) => cell === b[i]);
}

/**
 * Column names of a header row: cleaned (trimmed, inner whitespace collapsed), empty ones
 * named 'Column N' (their indexes in `unnamed`), repeated ones suffixed ' (2)', ' (3)'
 * (compared case-insensitively).
 */
export function uniqueHeaders(cells: readonly string[]): {
  headers: string[];
  unnamed: Set<number>;
} {
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
 * Reads the first lines (up to the 20th) of `head` with a small csv-parse pass of its own and
 * returns the preamble rows and the header row, or null when no header row is within them.
 * The data pass then starts at the header line (`from_line`): the preamble's two-field lines
 * never set the record length the data rows are checked against (a CsvError built per data
 * row).
 *
 * @throws CsvExportError 'no_header' when csv-parse fails before any header row.
 */
export function findHeader(
  head: string,
  delimiter: TExportDelimiter,
  field: TUploadField,
): THeaderFound | null {
  const records: { record: string[]; info: { lines: number } }[] = [];
  const lines = new RecordLines();
  try {
    parseSync(head, {
      ...EXPORT_CSV_OPTIONS,
      delimiter,
      to_line: HEADER_SEARCH_LINES,
      on_record: (record: string[], info) => {
        lines.next(info);
        records.push({ record, info: { lines: info.lines } });
        return null;
      },
    });
  } catch (error) {
    // An error below a header found already is the data pass's to report.
    if (!records.some((r) => isHeaderRow(r.record))) {
      if (!(error instanceof CsvError)) throw error;
      const position = error as CsvError & { lines: number; empty_lines: number };
      throw csvFailure(field, error, false, lines.start(position));
    }
  }
  const at = records.findIndex((r) => isHeaderRow(r.record));
  if (at < 0 || records[at]!.info.lines > HEADER_SEARCH_LINES) return null;
  return {
    preambleRows: records.slice(0, at).map((r) => r.record),
    headerCells: records[at]!.record,
    headerLine: records[at]!.info.lines,
  };
}
