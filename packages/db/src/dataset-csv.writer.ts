import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';
import { csvCellText, escapeFormulaText } from '@aso/contracts';
import type { TDatasetCell } from './schema';

/**
 * The processed CSV of a merged dataset (docs/product.md#validation-rules), shared by the csv-merge
 * worker (its tests) and the api's `GET /api/download-merged/{id}` so both write the same
 * bytes: a header row, then one line per row in dataset order; numbers plain (1234, -5, 12.5),
 * missing values empty, text cells and header names escaped against formula injection
 * (`csvCellText` and `escapeFormulaText` of @aso/contracts, which the web app's export uses too). UTF-8 without BOM, LF line ends, quotes only where needed
 * (csv-stringify's defaults).
 */

function csvRecord(width: number, row: readonly TDatasetCell[]): string[] {
  const record = new Array<string>(width);
  for (let i = 0; i < width; i++) record[i] = csvCellText(row[i]);
  return record;
}

/**
 * The processed CSV of `rows` (arrays aligned with `headers`) as one string. For small
 * datasets and tests; the download streams with {@link datasetCsvStream}.
 */
export function writeDatasetCsv(
  headers: readonly string[],
  rows: Iterable<readonly TDatasetCell[]>,
): string {
  const records: string[][] = [headers.map(escapeFormulaText)];
  for (const row of rows) records.push(csvRecord(headers.length, row));
  return stringifySync(records);
}

/**
 * The processed CSV of `rows` as a byte stream, written with csv-stringify as the rows arrive
 * (the same bytes as {@link writeDatasetCsv}); `rows` is read only as fast as the stream is
 * consumed. An error of `rows` destroys the stream with that error (a truncated download is
 * never passed off as a whole one).
 */
export function datasetCsvStream(
  headers: readonly string[],
  rows: AsyncIterable<readonly TDatasetCell[]> | Iterable<readonly TDatasetCell[]>,
): Readable {
  async function* records(): AsyncGenerator<string[], void, undefined> {
    yield headers.map(escapeFormulaText);
    for await (const row of rows) yield csvRecord(headers.length, row);
  }
  return pipeline(Readable.from(records()), stringify(), () => {
    // Errors reach the consumer through the returned stream, which pipeline destroys.
  });
}
