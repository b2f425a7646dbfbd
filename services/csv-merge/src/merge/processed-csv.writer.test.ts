import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { parseExport } from './export.parser';
import { mergeExports } from './exports.merger';
import { csvCellText, escapeFormulaText, writeProcessedCsv } from './processed-csv.writer';

describe('escapeFormulaText (spec section 5)', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', '+1'],
    ['+A1', "'+A1"],
    ['-A1', "'-A1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['-5', '-5'],
    ['-12.5', '-12.5'],
    ['-1e3', '-1e3'],
    ['Calm Notes', 'Calm Notes'],
    ['7/20/25', '7/20/25'],
    ['', ''],
  ])('%j -> %j', (input, output) => {
    expect(escapeFormulaText(input)).toBe(output);
  });
});

describe('csvCellText', () => {
  it('writes numbers plainly, missing values empty', () => {
    expect(csvCellText(-5)).toBe('-5');
    expect(csvCellText(1234)).toBe('1234');
    expect(csvCellText(12.5)).toBe('12.5');
    expect(csvCellText(null)).toBe('');
    expect(csvCellText(undefined)).toBe('');
    expect(csvCellText(Number.NaN)).toBe('');
  });
});

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
