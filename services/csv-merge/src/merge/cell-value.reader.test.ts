import { describe, expect, it } from 'vitest';
import { parseCellValue } from '@aso/analytics';
import { createCellReader, decimalCommaToPoint } from './cell-value.reader';

const CELLS = [
  '',
  '-',
  '\u2013',
  '0',
  '00',
  '007',
  '1234',
  '1,234',
  '1,234,567',
  ',5',
  '5,',
  '1,,2',
  '999999999999999',
  '9999999999999999',
  '1,000,000,000,000,000',
  '12.5',
  '12.5%',
  '1.234',
  '1.234,5',
  '2.345,5%',
  '1,5',
  ' 42 ',
  '-12',
  '+3',
  '1e3',
  'N/A',
  'United States',
  '=1+1',
  '\u00a01\u00a0234',
];

describe('createCellReader (docs/BENCHMARKS.md)', () => {
  it("reads every cell as parseCellValue does (after decimalCommaToPoint in ';' files)", () => {
    const comma = createCellReader(',');
    const tab = createCellReader('\t');
    const semicolon = createCellReader(';');
    for (const cell of CELLS) {
      expect(comma(cell), JSON.stringify(cell)).toBe(parseCellValue(cell));
      expect(tab(cell), JSON.stringify(cell)).toBe(parseCellValue(cell));
      expect(semicolon(cell), JSON.stringify(cell)).toBe(parseCellValue(decimalCommaToPoint(cell)));
    }
  });

  it('agrees on generated digit-and-comma cells', () => {
    const read = createCellReader(',');
    const semicolon = createCellReader(';');
    for (let n = 0; n < 20_000; n++) {
      const digits = String((n * 7919) % 1_000_003);
      for (const cell of [digits, digits.replace(/\B(?=(\d{3})+(?!\d))/g, ','), `${digits},`]) {
        expect(read(cell)).toBe(parseCellValue(cell));
        expect(semicolon(cell)).toBe(parseCellValue(decimalCommaToPoint(cell)));
      }
    }
  });
});

describe('decimalCommaToPoint', () => {
  it.each([
    ['1,5', '1.5'],
    ['1.234', '1234'],
    ['1.234.567,25', '1234567.25'],
    ['12,5%', '12.5%'],
    ['abc', 'abc'],
    ['7/1/25', '7/1/25'],
  ])('%j -> %j', (input, output) => {
    expect(decimalCommaToPoint(input)).toBe(output);
  });
});
