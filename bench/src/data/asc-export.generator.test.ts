import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { EXPORT_SOURCES, exportHeaders, generateExport } from './asc-export.generator';

const num = (cell: string) => Number(cell.replace(/,/g, ''));

describe('generateExport', () => {
  const spec = {
    appName: 'Bench App',
    territory: 'United States',
    startDay: '2025-06-01',
    rows: 14,
  } as const;
  const conversion = generateExport({ ...spec, kind: 'conversion' });
  const redownloads = generateExport({ ...spec, kind: 'redownloads' });

  it('writes the samples’ layout: BOM, CRLF, quoted preamble, blank line, quoted header', () => {
    const text = conversion.bytes.toString('utf8');
    expect(
      text.startsWith('\ufeff"Name","Bench App"\r\n"Date Range","Jun 1, 2025 - Jun 14, 2025"\r\n'),
    ).toBe(true);
    expect(text).toContain(
      '"Territory","United States"\r\n"View","Conversion Rate"\r\n\r\n"Date","App Store Search First-Time Downloads",',
    );
    expect(text.includes('\n') && !/[^\r]\n/.test(text)).toBe(true);
    expect(redownloads.bytes.toString('utf8')).toContain(
      '"View","Redownloads"\r\n\r\n"Date","App Store Search Redownloads",',
    );
  });

  it('gives one row per day with M/D/YY dates and thousands separators in quoted numbers', () => {
    const records = parse(conversion.bytes, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
    });
    expect(records[4]).toEqual(exportHeaders('conversion'));
    const rows = records.slice(5);
    expect(rows).toHaveLength(14);
    expect(rows[0]![0]).toBe('6/1/25');
    expect(rows[13]![0]).toBe('6/14/25');
    expect(conversion).toMatchObject({ rows: 14, firstDay: '2025-06-01', lastDay: '2025-06-14' });
    expect(conversion.bytes.toString('utf8')).toMatch(/,"\d{1,3},\d{3}",/);
  });

  it('keeps Total Downloads = First-Time Downloads + Redownloads per source across the two files', () => {
    const conv = parse(conversion.bytes, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }).slice(5);
    const re = parse(redownloads.bytes, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }).slice(5);
    for (let d = 0; d < 14; d++) {
      EXPORT_SOURCES.forEach((_, s) => {
        expect(num(conv[d]![1 + s * 3 + 2]!)).toBe(num(conv[d]![1 + s * 3]!) + num(re[d]![1 + s]!));
      });
      const totalRe = re[d]!.slice(1, 8).reduce((a, c) => a + num(c), 0);
      expect(num(re[d]![8]!)).toBe(totalRe);
    }
  });

  it('fills up to targetBytes without passing it, with 4-digit years over long spans', () => {
    const big = generateExport({
      ...spec,
      rows: undefined,
      targetBytes: 50_000,
      kind: 'redownloads',
      startDay: '1800-01-01',
      yearDigits: 4,
    });
    expect(big.bytes.length).toBeLessThanOrEqual(50_000);
    expect(big.bytes.length).toBeGreaterThan(49_000);
    expect(big.bytes.toString('utf8')).toContain('\r\n1/1/1800,');
  });

  it('refuses a 2-digit year outside 1950-2049 and a spec without a size', () => {
    expect(() => generateExport({ ...spec, kind: 'conversion', startDay: '1900-01-01' })).toThrow(
      'cannot be written with 2 digits',
    );
    expect(() => generateExport({ ...spec, rows: undefined, kind: 'conversion' })).toThrow(
      'give rows or targetBytes',
    );
  });
});
