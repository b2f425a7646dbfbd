import { describe, expect, it } from 'vitest';
import { generateExport } from '../data/asc-export.generator';
import { headerLine } from './csv-merge.bench';

describe('headerLine', () => {
  it('finds the header row below the preamble of a generated export, and line 1 without one', () => {
    const g = generateExport({
      kind: 'redownloads',
      appName: 'A',
      territory: 'United States',
      startDay: '2025-01-01',
      rows: 3,
    });
    expect(headerLine(g.bytes.toString('utf8'))).toBe(6);
    expect(headerLine('Date,App Store Search Redownloads\r\n1/1/25,3\r\n')).toBe(1);
    expect(headerLine('no header here')).toBe(1);
  });
});
