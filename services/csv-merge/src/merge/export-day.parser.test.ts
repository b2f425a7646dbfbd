import { describe, expect, it } from 'vitest';
import { parseDate } from '@aso/analytics';
import { ExportDates, isoFromDayNumber, NO_DAY, parseExportDay } from './export-day.parser';

/** Date-like texts: every shape parseDate looks at, valid or not. */
function samples(): string[] {
  const out = [
    '7/20/25',
    '07/20/25',
    '7/20/2025',
    '2/29/24',
    '2/29/25',
    '2/29/00',
    '2/29/1900',
    '2/29/2000',
    '12/31/49',
    '1/1/50',
    '1/1/5',
    '1/1/005',
    '1/1/0000',
    '1/1/0001',
    '12/31/9999',
    '13/1/25',
    '0/1/25',
    '1/0/25',
    '4/31/25',
    '1//25',
    '1/2/3/4',
    '1/2',
    ' 7/20/25 ',
    '2025-07-20',
    '2025-7-2',
    '0001-01-01',
    '9999-12-31',
    '0000-01-01',
    '2025-02-29',
    '2024-02-29',
    '25-07-20',
    '-2025-07-20',
    '2025-07-20-',
    '2025/07-20',
    'Total',
    'Date',
    'week 1',
    '',
    '１/2/25',
    '1/2/2５',
  ];
  // Every day of a few years, both ways round.
  for (const year of [1500, 1900, 1999, 2000, 2024, 2025, 2100]) {
    for (let month = 1; month <= 12; month++) {
      for (let day = 1; day <= 31; day++) {
        out.push(
          `${month}/${day}/${year}`,
          `${month}/${day}/${String(year % 100).padStart(2, '0')}`,
        );
        out.push(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
      }
    }
  }
  return out;
}

describe('parseExportDay', () => {
  it('agrees with parseDate of @aso/analytics on every sample', () => {
    for (const text of samples()) {
      const day = parseExportDay(text);
      const expected = parseDate(text);
      expect(day === NO_DAY ? null : isoFromDayNumber(day), JSON.stringify(text)).toBe(expected);
    }
  });

  it('counts days from 1970-01-01 in both directions', () => {
    expect(parseExportDay('1970-01-01')).toBe(0);
    expect(parseExportDay('1/2/70')).toBe(1);
    expect(parseExportDay('12/31/1969')).toBe(-1);
    expect(parseExportDay('0001-01-01')).toBe(-719_162);
    expect(isoFromDayNumber(-719_162)).toBe('0001-01-01');
  });
});

describe('ExportDates', () => {
  it('gives back every date cell exactly as written, with its day number', () => {
    const dates = new ExportDates();
    const texts = samples();
    const days = texts.map((text) => dates.push(text.trim()));
    expect(dates.length).toBe(texts.length);
    texts.forEach((text, row) => {
      expect(dates.text(row)).toBe(text.trim());
      expect(dates.dayNumber(row)).toBe(days[row]);
      expect(days[row]).toBe(parseExportDay(text));
    });
  });

  it('forgets the last row on pop', () => {
    const dates = new ExportDates();
    dates.push('7/1/25');
    dates.push('Total');
    dates.pop();
    expect(dates.length).toBe(1);
    dates.push('07/02/25');
    expect([dates.text(0), dates.text(1)]).toEqual(['7/1/25', '07/02/25']);
  });
});
