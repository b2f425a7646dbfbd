import { Readable, pipeline } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { EXPORT_CSV_OPTIONS, hasRunawayQuote, type TUnreadableLines } from './export-csv.options';
import { sameCells, type THeaderFound } from './export-header.finder';
import { countLineEnds, HEADER_SEARCH_LINES, type TExportDelimiter } from './text-decoder.stream';

/** Records given at a time by {@link dataRecords}. */
export const BATCH_RECORDS = 1024;

/** Line breaks inside a record's cells (quoted cells written across lines), 0 for most. */
function breaksInside(record: readonly string[]): number {
  let breaks = 0;
  for (const cell of record) {
    if (cell.includes('\n') || cell.includes('\r')) breaks += countLineEnds(cell);
  }
  return breaks;
}

/**
 * The records below the header row, in batches of {@link BATCH_RECORDS}, by csv-parse over
 * the text from the header line on (`from_line`), the header row left out: the preamble's
 * two-field lines never set the record length csv-parse checks the data rows against (a
 * CsvError built per data row). `head` is the text read already, `rest` the chunks after it
 * (null when `head` is the whole file); returning the generator early closes `rest`. Empty
 * lines, and lines of one empty cell (`""`), are left out.
 *
 * A record csv-parse cannot read as CSV is left out and given to `onUnreadable` with its lines,
 * never kept with wrong cells: a quote that runs over the lines below it (see
 * `hasRunawayQuote`), and one never closed, which csv-parse reports as CSV_QUOTE_NOT_CLOSED at
 * the end of the file (skipped through its `skip_records_with_error`, so the rows above it
 * are all kept). Lines are counted here, from the header line and the line breaks of each
 * record, rather than read from csv-parse's per-record `info`, which doubles its parse time.
 *
 * @throws CsvError when csv-parse cannot read the text otherwise (e.g. CSV_MAX_RECORD_SIZE).
 */
export async function* dataRecords(
  head: readonly string[],
  rest: AsyncGenerator<string, void, undefined> | null,
  delimiter: TExportDelimiter,
  found: THeaderFound,
  onUnreadable: (lines: TUnreadableLines) => void,
): AsyncGenerator<string[][], void, undefined> {
  async function* replay(): AsyncGenerator<string, void, undefined> {
    yield* head;
    // Returning this generator (the parse stopped early) returns `rest`, which closes the upload.
    if (rest) yield* rest;
  }
  let unclosedQuote = false;
  const parser = parse({
    ...EXPORT_CSV_OPTIONS,
    // Empty lines come through as records so that every line is counted.
    skip_empty_lines: false,
    delimiter,
    from_line: found.headerLine,
    skip_records_with_error: true,
    on_skip: (error: CsvError | undefined) => {
      // Only an unclosed quote is skipped; any other error stops the parse as before.
      if (error?.code !== 'CSV_QUOTE_NOT_CLOSED') {
        throw error ?? new Error('csv-parse skipped a record without an error');
      }
      unclosedQuote = true;
      return undefined;
    },
  });
  pipeline(Readable.from(replay()), parser, () => {
    // Errors reach the loop below through the parser; an early stop is not an error here.
  });
  let awaitingHeader = true;
  let skipped = 0;
  /** The last line of the last record read. */
  let line = found.headerLine - 1;
  try {
    let batch: string[][] = [];
    for await (const record of parser as AsyncIterable<string[]>) {
      const from = line + 1;
      const breaks = breaksInside(record);
      line = from + breaks;
      if (awaitingHeader) {
        // The first record is the header row found before (csv-parse counts the lines the
        // same way in both passes).
        if (sameCells(record, found.headerCells)) awaitingHeader = false;
        else if (++skipped > HEADER_SEARCH_LINES) break;
        continue;
      }
      if (record.length === 1 && record[0] === '') continue;
      if (breaks > 0 && hasRunawayQuote(record)) {
        onUnreadable({ from, to: line });
        continue;
      }
      batch.push(record);
      if (batch.length >= BATCH_RECORDS) {
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
  // csv-parse reports it once the text has ended, after every record above it.
  if (unclosedQuote) onUnreadable({ from: line + 1, to: null });
}
