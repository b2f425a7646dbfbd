import Papa from 'papaparse';
import { sameCells, type THeaderFound } from './export-header.finder';
import { MAX_RECORD_BYTES } from './export-limits';
import type { TExportDelimiter } from './text-decoder.stream';

/**
 * Longest record the papaparse pass keeps (characters): a UTF-8 character is at most 4 bytes,
 * so no record csv-parse would refuse for its size ({@link MAX_RECORD_BYTES}) gets through.
 */
const FAST_MAX_RECORD_CHARS = MAX_RECORD_BYTES / 4;

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
 * empty lines and lines of one empty cell (`""`) are left out, as `dataRecords` leaves them.
 * Stops after `maxRecords` records (the caller refuses the file at that count).
 */
export function fastDataRecords(
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
      // An empty line, or one holding `""`: the csv-parse pass leaves both out.
      if (record.length === 1 && record[0] === '') return;
      records.push(record);
      if (records.length > maxRecords) parser.abort();
    },
  });
  if (!usable || records.length === 0 || !sameCells(records[0]!, found.headerCells)) return null;
  return records.slice(1);
}
