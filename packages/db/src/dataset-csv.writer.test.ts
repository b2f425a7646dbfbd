import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { datasetCsvStream, writeDatasetCsv } from './dataset-csv.writer';
import type { TDatasetCell } from './schema';

const HEADERS = ['Date', '=Total', 'Note', 'Territory'];
const ROWS: TDatasetCell[][] = [
  ['7/20/25', 1234, 'Korea, Republic of', 'X'],
  ['7/21/25', null, '=evil()', '-2+3'],
  ['7/22/25', -12.5, 'say "hi"', null],
  // A short row: the missing cells are empty.
  ['7/23/25', 0],
];
const EXPECTED =
  "Date,'=Total,Note,Territory\n" +
  '7/20/25,1234,"Korea, Republic of",X\n' +
  "7/21/25,,'=evil(),'-2+3\n" +
  '7/22/25,-12.5,"say ""hi""",\n' +
  '7/23/25,0,,\n';

describe('the processed CSV (docs/product.md#validation-rules)', () => {
  it('escapes formulas, writes numbers plainly and quotes only where needed', () => {
    expect(writeDatasetCsv(HEADERS, ROWS)).toBe(EXPECTED);
  });

  it('streams the same bytes, from sync and async rows', async () => {
    expect(await text(datasetCsvStream(HEADERS, ROWS))).toBe(EXPECTED);
    async function* slowly(): AsyncGenerator<TDatasetCell[], void, undefined> {
      for (const row of ROWS) {
        await new Promise((resolve) => setImmediate(resolve));
        yield row;
      }
    }
    expect(await text(datasetCsvStream(HEADERS, slowly()))).toBe(EXPECTED);
    expect(await text(datasetCsvStream(HEADERS, []))).toBe(writeDatasetCsv(HEADERS, []));
  });

  it('fails the stream when the rows fail, after what was written', async () => {
    async function* broken(): AsyncGenerator<TDatasetCell[], void, undefined> {
      yield ROWS[0]!;
      throw new Error('dataset gone');
    }
    await expect(text(datasetCsvStream(HEADERS, broken()))).rejects.toThrow('dataset gone');
  });
});
