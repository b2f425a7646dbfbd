import type { Readable } from 'node:stream';
import type { TUploadField } from '@aso/contracts';
import { CsvExportError } from './csv-export.error';

/** Text encodings an export may come in. */
export type TExportEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
/** Field delimiters an export may use. */
export type TExportDelimiter = ',' | '\t' | ';';

/** An export opened as text. */
export interface TOpenedText {
  encoding: TExportEncoding;
  /** Whether the file started with a byte order mark. */
  bom: boolean;
  delimiter: TExportDelimiter;
  /** The decoded text in pieces, BOM removed; read it once. */
  chunks: AsyncGenerator<string, void, undefined>;
}

const BINARY_DETAIL =
  'the file is binary, not CSV text; expected a CSV export (UTF-8 or UTF-16 text) with a Date column';

/** Byte order marks (U+FEFF) at the start of the decoded text. */
const LEADING_BOMS = /^\ufeff+/;

/** Bytes read before deciding encoding, binary content and delimiter. */
export const SNIFF_BYTES = 64 * 1024;
/**
 * Lines within which the header row must appear (docs/product.md#error-catalogue error message).
 */
export const HEADER_SEARCH_LINES = 20;

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof Uint8Array)
    return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('the upload stream must yield bytes');
}

function detectBom(sample: Buffer): { encoding: TExportEncoding; bom: boolean } | null {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf)
    return { encoding: 'utf-8', bom: true };
  if (sample[0] === 0xff && sample[1] === 0xfe) return { encoding: 'utf-16le', bom: true };
  if (sample[0] === 0xfe && sample[1] === 0xff) return { encoding: 'utf-16be', bom: true };
  return null;
}

/** UTF-16 without BOM: ASCII text has a zero in every other byte. */
function detectBomlessUtf16(sample: Buffer): TExportEncoding | null {
  const pairs = Math.floor(sample.length / 2);
  if (pairs < 2) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (sample[i] === 0) evenZeros++;
    if (sample[i + 1] === 0) oddZeros++;
  }
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return null;
}

function isValidUtf8(sample: Buffer): boolean {
  try {
    // stream: true tolerates a character cut at the end of the sample.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Control characters other than tab, line feed, form feed, carriage return and escape, and
 * U+FFFD (bytes the decoder could not read): they do not occur in CSV text.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is its purpose
const NOT_CSV_TEXT = /[\x00-\x08\x0e-\x1a\x1c-\x1f\ufffd]/g;

function looksBinary(text: string): boolean {
  // Native scans (a regular expression, `includes`): the sample is read once per file, too
  // few times for a JavaScript loop over it to be optimised.
  if (text.includes('\0')) return true;
  const controls = text.match(NOT_CSV_TEXT)?.length ?? 0;
  return controls > Math.max(2, text.length * 0.01);
}

/** Splits one line into cells, honouring double quotes (for sniffing only). */
function splitLine(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') {
      if (quoted && line[i + 1] === '"') {
        current += '"';
        i++;
      } else quoted = !quoted;
    } else if (ch === delimiter && !quoted) {
      cells.push(current);
      current = '';
    } else current += ch;
  }
  cells.push(current);
  return cells;
}

/** Number of line ends (CRLF, LF or CR) in `text`. */
export function countLineEnds(text: string): number {
  // `indexOf` is a native scan: each file's first pieces are counted once, too few times for
  // a loop over their characters to be optimised.
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) !== 10) count++;
  }
  return count;
}

/** A header cell naming the date column: exactly 'Date', trimmed, case-insensitive. */
export function isDateHeaderCell(cell: string): boolean {
  return cell.replace(/^[\s\ufeff\u200b]+|[\s\u200b]+$/g, '').toLowerCase() === 'date';
}

/**
 * The delimiter of the header row: the first of ',', tab, ';' that splits one of the first 20
 * lines into at least three cells, one of them 'Date'. ',' when none does (the parser then
 * reports the missing header).
 */
export function sniffDelimiter(text: string): TExportDelimiter {
  const lines = text.split(/\r\n|\n|\r/, HEADER_SEARCH_LINES);
  for (const line of lines) {
    for (const delimiter of [',', '\t', ';'] as const) {
      if (!line.includes(delimiter)) continue;
      const cells = splitLine(line, delimiter);
      if (cells.length >= 3 && cells.some(isDateHeaderCell)) return delimiter;
    }
  }
  return ',';
}

/**
 * Opens an uploaded export as text without reading it whole (docs/product.md#merging-exports):
 * reads up to the first 64 KB to decide the encoding (UTF-8 with or without BOM, UTF-16LE/BE with
 * BOM or recognisably without, else Windows-1252 when the bytes are not UTF-8), drops every byte
 * order mark at the start (one or more), rejects binary content, and finds the delimiter; the
 * rest is decoded chunk by chunk as it is read.
 *
 * @throws CsvExportError 'empty' for a file without bytes, 'binary' for non-text content,
 *   'read_failed' when the stream fails while sniffing.
 */
export async function openExportText(input: Readable, field: TUploadField): Promise<TOpenedText> {
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  try {
    while (headBytes < SNIFF_BYTES) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      const buffer = toBuffer(next.value);
      head.push(buffer);
      headBytes += buffer.length;
    }
  } catch (error) {
    input.destroy();
    throw new CsvExportError(field, 'read_failed', 'the file could not be read', { cause: error });
  }
  const fail = (reason: 'empty' | 'binary', detail: string): never => {
    input.destroy();
    throw new CsvExportError(field, reason, detail);
  };
  const sample = Buffer.concat(head);
  if (sample.length === 0)
    fail('empty', 'the file is empty; expected a CSV export with a Date column');

  const withBom = detectBom(sample);
  let encoding: TExportEncoding;
  if (withBom) encoding = withBom.encoding;
  else if (sample.includes(0)) {
    encoding = detectBomlessUtf16(sample) ?? fail('binary', BINARY_DETAIL);
  } else encoding = isValidUtf8(sample) ? 'utf-8' : 'windows-1252';

  // The default (ignoreBOM: false) strips a leading BOM of the matching encoding; a file saved
  // twice by an editor that adds one each time starts with more, which would stick to the
  // first cell (a preamble key or 'Date' no longer recognised), so all of them go.
  const decoder = new TextDecoder(encoding);
  const sampleText = decoder.decode(sample, { stream: !ended }).replace(LEADING_BOMS, '');
  if (looksBinary(sampleText)) {
    fail('binary', BINARY_DETAIL);
  }
  const delimiter = sniffDelimiter(sampleText);

  async function* chunks(): AsyncGenerator<string, void, undefined> {
    try {
      if (sampleText) yield sampleText;
      if (ended) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        const text = decoder.decode(toBuffer(next.value), { stream: true });
        if (text) yield text;
      }
      const rest = decoder.decode();
      if (rest) yield rest;
    } finally {
      // Stopping early (a bad header) must not leave the upload stream open.
      if (!input.destroyed) input.destroy();
    }
  }

  return { encoding, bom: withBom?.bom ?? false, delimiter, chunks: chunks() };
}
