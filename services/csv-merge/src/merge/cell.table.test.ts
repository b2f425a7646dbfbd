import { describe, expect, it } from 'vitest';
import { CellTable, ownString } from './cell.table';

describe('CellTable', () => {
  it('keeps numbers, texts and missing values over several blocks', () => {
    const table = new CellTable(3);
    const rows = 20_000;
    for (let i = 0; i < rows; i++) {
      const row = table.addRow();
      expect(row).toBe(i);
      table.set(row, 0, i);
      if (i % 3 === 0) table.set(row, 1, `note ${i % 5}`);
      if (i % 7 !== 0) table.set(row, 2, -i);
    }
    expect(table.length).toBe(rows);
    for (const i of [0, 1, 8191, 8192, 8193, 16_383, 19_999]) {
      expect(table.get(i, 0)).toBe(i);
      expect(table.get(i, 1)).toBe(i % 3 === 0 ? `note ${i % 5}` : null);
      expect(table.get(i, 2)).toBe(i % 7 !== 0 ? -i : null);
    }
  });

  it('widens a column to 64-bit floats when a value is not a 32-bit integer', () => {
    const table = new CellTable(2);
    for (let i = 0; i < 10_000; i++) {
      const row = table.addRow();
      table.set(row, 0, i);
      if (i % 2 === 0) table.set(row, 1, i);
    }
    table.set(9_999, 1, 12.5);
    const after = table.addRow();
    table.set(after, 1, 3_000_000_000);
    table.set(after, 0, -2_147_483_648);
    expect(table.get(0, 1)).toBe(0);
    expect(table.get(1, 1)).toBeNull();
    expect(table.get(9_998, 1)).toBe(9_998);
    expect(table.get(9_999, 1)).toBe(12.5);
    expect(table.get(after, 1)).toBe(3_000_000_000);
    expect(table.get(after, 0)).toBe(-2_147_483_648);
    expect(table.get(5, 0)).toBe(5);
  });

  it('forgets the last row on removeLastRow', () => {
    const table = new CellTable(2);
    table.set(table.addRow(), 0, 1);
    const last = table.addRow();
    table.set(last, 0, 2);
    table.set(last, 1, 'x');
    table.removeLastRow();
    expect(table.length).toBe(1);
    const again = table.addRow();
    expect([table.get(again, 0), table.get(again, 1)]).toEqual([null, null]);
  });

  it('refuses a width below 1', () => {
    expect(() => new CellTable(0)).toThrow(RangeError);
  });
});

describe('ownString', () => {
  it('gives the same text', () => {
    const long = 'x'.repeat(100).slice(3, 40);
    expect(ownString(long)).toBe(long);
    expect(ownString('short')).toBe('short');
  });
});
