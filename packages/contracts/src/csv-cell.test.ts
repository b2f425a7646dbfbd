import { describe, expect, it } from 'vitest';
import { csvCellText, escapeFormulaText } from './csv-cell';

describe('escapeFormulaText (docs/product.md#validation-rules)', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['=HYPERLINK("x")', `'=HYPERLINK("x")`],
    ['+1', '+1'],
    ['+A1', "'+A1"],
    ['+1+2', "'+1+2"],
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
  it('writes numbers plainly, missing values and non-finite numbers empty, text escaped', () => {
    expect(csvCellText(-5)).toBe('-5');
    expect(csvCellText(1234)).toBe('1234');
    expect(csvCellText(12.5)).toBe('12.5');
    expect(csvCellText(null)).toBe('');
    expect(csvCellText(undefined)).toBe('');
    expect(csvCellText(Number.NaN)).toBe('');
    expect(csvCellText(Number.POSITIVE_INFINITY)).toBe('');
    expect(csvCellText('@x')).toBe("'@x");
  });
});
