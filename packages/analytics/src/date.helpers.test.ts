import { describe, expect, it } from 'vitest';
import {
  addDays,
  assertDateRange,
  dayNumber,
  defaultDateRange,
  formatDay,
  formatMonth,
  isInRange,
  parseDate,
  previousPeriod,
  rangeLengthDays,
  SPEC_DEFAULT_RANGE,
} from './date.helpers';

describe('parseDate (docs/product.md#entities and #dashboard-computation)', () => {
  it.each([
    ['7/20/25', '2025-07-20'],
    ['07/05/25', '2025-07-05'],
    [' 8/18/25 ', '2025-08-18'],
    ['1/5/49', '2049-01-05'],
    ['1/5/50', '1950-01-05'],
    ['12/31/99', '1999-12-31'],
    ['1/1/00', '2000-01-01'],
    ['3/4/7', '2007-03-04'],
    ['7/20/2025', '2025-07-20'],
    ['2/29/24', '2024-02-29'],
    ['2025-07-20', '2025-07-20'],
    ['2025-7-5', '2025-07-05'],
    ['2000-02-29', '2000-02-29'],
  ])('reads %j as %s', (input, expected) => {
    expect(parseDate(input)).toBe(expected);
  });

  it.each([
    ['7/20', 'two parts'],
    ['7/20/25/1', 'four parts'],
    ['2025-07', 'two ISO parts'],
    ['2025-07-20-01', 'four ISO parts'],
    ['2/29/25', 'no leap day in 2025'],
    ['1900-02-29', 'no leap day in 1900'],
    ['2/30/25', 'day 30 of February'],
    ['4/31/25', 'day 31 of April'],
    ['13/1/25', 'month 13'],
    ['0/1/25', 'month 0'],
    ['1/0/25', 'day 0'],
    ['7/20/025', 'three-digit year'],
    ['20-07-2025', 'day-first with dashes'],
    ['Jul 20, 2025', 'month name'],
    ['', 'empty'],
    ['-', 'missing mark'],
    ['a/b/c', 'letters'],
  ])('rejects %j (%s)', (input) => {
    expect(parseDate(input)).toBeNull();
  });

  it('rejects non-strings', () => {
    expect(parseDate(45000)).toBeNull();
    expect(parseDate(null)).toBeNull();
    expect(parseDate(undefined)).toBeNull();
  });
});

describe('day arithmetic', () => {
  it('counts days since 1970 and back', () => {
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  });

  it('rejects malformed days', () => {
    expect(() => dayNumber('2025-02-30')).toThrow(RangeError);
    expect(() => dayNumber('7/20/25')).toThrow(/YYYY-MM-DD/);
  });

  it('measures inclusive ranges', () => {
    expect(rangeLengthDays({ start: '2025-07-20', end: '2025-08-18' })).toBe(30);
    expect(rangeLengthDays({ start: '2025-07-20', end: '2025-07-20' })).toBe(1);
    expect(isInRange('2025-07-20', { start: '2025-07-20', end: '2025-07-21' })).toBe(true);
    expect(isInRange('2025-07-22', { start: '2025-07-20', end: '2025-07-21' })).toBe(false);
  });

  it('checks range bounds', () => {
    expect(() => assertDateRange({ start: '2025-08-02', end: '2025-08-01' })).toThrow(
      /after its end/,
    );
    expect(() => assertDateRange({ start: '2025-13-01', end: '2025-08-01' })).toThrow(RangeError);
    expect(() => assertDateRange({ start: '2025-08-01', end: '2025-08-01' })).not.toThrow();
  });
});

describe('previousPeriod (docs/product.md#dashboard-computation)', () => {
  it('has the same length and ends the day before the range', () => {
    expect(previousPeriod({ start: '2025-07-20', end: '2025-08-18' })).toEqual({
      start: '2025-06-20',
      end: '2025-07-19',
    });
    expect(previousPeriod({ start: '2025-03-01', end: '2025-03-01' })).toEqual({
      start: '2025-02-28',
      end: '2025-02-28',
    });
    // 7 days crossing a leap day.
    expect(previousPeriod({ start: '2024-03-04', end: '2024-03-10' })).toEqual({
      start: '2024-02-26',
      end: '2024-03-03',
    });
  });
});

describe('defaultDateRange (docs/product.md#dashboard-computation)', () => {
  it('is the last 30 days of a longer dataset', () => {
    const days = Array.from({ length: 92 }, (_, i) => addDays('2025-06-01', i));
    expect(defaultDateRange(days)).toEqual({ start: '2025-08-02', end: '2025-08-31' });
  });

  it('is the whole span of a shorter dataset, in any order, ignoring nulls', () => {
    expect(defaultDateRange(['2025-03-14', null, '2025-03-01', '2025-03-07'])).toEqual({
      start: '2025-03-01',
      end: '2025-03-14',
    });
  });

  it('is exactly 30 days when the data spans exactly 30 days', () => {
    expect(defaultDateRange(['2025-07-20', '2025-08-18'])).toEqual({
      start: '2025-07-20',
      end: '2025-08-18',
    });
  });

  it('falls back to the documented default when no date parses', () => {
    expect(defaultDateRange([null, null])).toEqual({ start: '2025-07-20', end: '2025-08-18' });
    expect(defaultDateRange([])).toEqual(SPEC_DEFAULT_RANGE);
  });
});

describe('display', () => {
  it('writes days and months in fixed English', () => {
    expect(formatDay('2025-07-20')).toBe('Jul 20, 2025');
    expect(formatDay('2025-01-05')).toBe('Jan 5, 2025');
    expect(formatMonth('2025-12')).toBe('Dec 2025');
  });
});
