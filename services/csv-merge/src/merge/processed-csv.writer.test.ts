import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { parseExport } from './export.parser';
import { mergeExports } from './exports.merger';
import { writeProcessedCsv } from './processed-csv.writer';

describe('writeProcessedCsv', () => {
  it('writes headers and rows with quoting only where needed', async () => {
    const conversion = await parseExport(
      Readable.from([
        Buffer.from('Date,A,Territory\n7/20/25,"1,234","Korea, Republic of"\n7/21/25,-,=evil()\n'),
      ]),
      'conversionCSV',
    );
    const csv = writeProcessedCsv(mergeExports({ conversion }));
    expect(csv).toBe('Date,A,Territory\n7/20/25,1234,"Korea, Republic of"\n7/21/25,,\'=evil()\n');
    expect(parse(csv)).toEqual([
      ['Date', 'A', 'Territory'],
      ['7/20/25', '1234', 'Korea, Republic of'],
      ['7/21/25', '', "'=evil()"],
    ]);
  });
});
