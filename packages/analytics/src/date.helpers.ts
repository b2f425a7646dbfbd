import type { TDateRange } from '@aso/contracts';

const MS_PER_DAY = 86_400_000;
const MONTH_NAMES = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

/**
 * The dashboard's default range when the data gives none (docs/product.md#dashboard-computation:
 * default date range 2025-07-20 to 2025-08-18).
 */
export const SPEC_DEFAULT_RANGE: Readonly<TDateRange> = Object.freeze({
  start: '2025-07-20',
  end: '2025-08-18',
});

/** Length of the default range taken from the data ("the last 30 days"). */
export const DEFAULT_RANGE_DAYS = 30;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function buildIsoDay(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  const probe = new Date(Date.UTC(2000, month - 1, day));
  // Checking the day against the real month length rejects 2/30 and 4/31; the probe uses a
  // leap year, so February 29 needs the real year's check below.
  if (probe.getUTCMonth() !== month - 1) return null;
  if (month === 2 && day === 29 && !isLeapYear(year)) return null;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * Parses a dashboard date into a calendar day `YYYY-MM-DD` (docs/product.md#entities: Chart data;
 * docs/product.md#dashboard-computation: "A date with a part count other than three is invalid").
 *
 * Accepted: `M/D/YY` and `M/D/YYYY` as App Store Connect exports them (a two-digit year below 50
 * means 20xx, otherwise 19xx, docs/product.md#entities), and ISO `YYYY-MM-DD`. Surrounding spaces
 * are ignored. Anything else, a part count other than three, or a day that does not exist (2/30/25)
 * gives `null`; the function never throws.
 */
export function parseDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text.includes('/')) {
    const parts = text.split('/');
    if (parts.length !== 3) return null;
    const [m, d, y] = parts as [string, string, string];
    if (!/^\d{1,2}$/.test(m) || !/^\d{1,2}$/.test(d) || !/^(\d{1,2}|\d{4})$/.test(y)) return null;
    let year = Number(y);
    if (y.length <= 2) year = year < 50 ? 2000 + year : 1900 + year;
    return buildIsoDay(year, Number(m), Number(d));
  }
  if (text.includes('-')) {
    const parts = text.split('-');
    if (parts.length !== 3) return null;
    const [y, m, d] = parts as [string, string, string];
    if (!/^\d{4}$/.test(y) || !/^\d{1,2}$/.test(m) || !/^\d{1,2}$/.test(d)) return null;
    return buildIsoDay(Number(y), Number(m), Number(d));
  }
  return null;
}

/** Days since 1970-01-01 of a valid `YYYY-MM-DD` day. Throws a RangeError on other input. */
export function dayNumber(isoDay: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  if (!match || buildIsoDay(Number(match[1]), Number(match[2]), Number(match[3])) === null) {
    throw new RangeError(`expected a calendar day YYYY-MM-DD, got '${isoDay}'`);
  }
  return Math.round(
    Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / MS_PER_DAY,
  );
}

/** Inverse of {@link dayNumber}. */
export function isoFromDayNumber(day: number): string {
  const date = new Date(day * MS_PER_DAY);
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}

/** `isoDay` moved by `days` (negative moves back). */
export function addDays(isoDay: string, days: number): string {
  return isoFromDayNumber(dayNumber(isoDay) + days);
}

/** Number of days of an inclusive range (a one-day range has length 1). */
export function rangeLengthDays(range: TDateRange): number {
  return dayNumber(range.end) - dayNumber(range.start) + 1;
}

/**
 * Checks a range: both bounds real `YYYY-MM-DD` days and `start` <= `end`.
 * Throws a RangeError naming the bad bound otherwise.
 */
export function assertDateRange(range: TDateRange): void {
  dayNumber(range.start);
  dayNumber(range.end);
  if (range.start > range.end) {
    throw new RangeError(`range start ${range.start} is after its end ${range.end}`);
  }
}

/**
 * The previous period: the same number of days immediately before the applied range
 * (docs/product.md#dashboard-computation). For 2025-07-20..2025-08-18 (30 days) it is
 * 2025-06-20..2025-07-19.
 */
export function previousPeriod(range: TDateRange): TDateRange {
  const length = rangeLengthDays(range);
  return { start: addDays(range.start, -length), end: addDays(range.start, -1) };
}

/** True when `isoDay` lies in the inclusive range. */
export function isInRange(isoDay: string, range: TDateRange): boolean {
  return isoDay >= range.start && isoDay <= range.end;
}

/**
 * Default range of a dataset (docs/product.md#dashboard-computation): its last 30 days, i.e. from
 * 29 days before the latest parsed day to that day, or the whole span when the data covers fewer
 * days. When no day parses it is the documented default 2025-07-20..2025-08-18
 * (docs/product.md#dashboard-computation).
 *
 * @param days - parsed days `YYYY-MM-DD`, in any order (nulls are ignored).
 */
export function defaultDateRange(days: Iterable<string | null>): TDateRange {
  let min: string | null = null;
  let max: string | null = null;
  for (const day of days) {
    if (day === null) continue;
    if (min === null || day < min) min = day;
    if (max === null || day > max) max = day;
  }
  if (min === null || max === null) return { ...SPEC_DEFAULT_RANGE };
  const start = addDays(max, -(DEFAULT_RANGE_DAYS - 1));
  return { start: start > min ? start : min, end: max };
}

/** Display form of a day: `2025-07-20` -> 'Jul 20, 2025' (fixed English, deterministic). */
export function formatDay(isoDay: string): string {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number];
  return `${MONTH_NAMES[m - 1] ?? '?'} ${d}, ${y}`;
}

/** Calendar month key `YYYY-MM` of a day. */
export function monthKey(isoDay: string): string {
  return isoDay.slice(0, 7);
}

/** Display form of a month key: `2025-07` -> 'Jul 2025'. */
export function formatMonth(key: string): string {
  const [y, m] = key.split('-').map(Number) as [number, number];
  return `${MONTH_NAMES[m - 1] ?? '?'} ${y}`;
}
