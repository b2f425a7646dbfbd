/**
 * Export dates as day numbers (days since 1970-01-01), the merge's join and sort key. The rules are
 * those of `parseDate` of @aso/analytics (docs/product.md#entities and #dashboard-computation),
 * which the dashboard applies to the same text: `M/D/YY` (a two-digit year below 50 is 20xx,
 * otherwise 19xx), `M/D/YYYY` and ISO `YYYY-MM-DD`, years 1-9999, real calendar days only. Written
 * without regular expressions, `Date` or strings because it runs once per exported row (a 20 MB
 * export has 600,000); `export-day.parser.test.ts` checks it against `parseDate`.
 */

/** The day number of a date that does not parse. */
export const NO_DAY = -2_147_483_648;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** How a date cell is written, when formatting its day gives it back (see {@link ExportDates}). */
type TDateStyle = 0 | 1 | 2 | 3;
/** Written some other way (leading zeros, a one-digit year, ...): the text is kept. */
const STYLE_TEXT = 0;
/** M/D/YY without leading zeros (App Store Connect's exports). */
const STYLE_SHORT = 1;
/** M/D/YYYY without leading zeros, years from 1000. */
const STYLE_LONG = 2;
/** YYYY-MM-DD. */
const STYLE_ISO = 3;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The number written by `text[from..to)` when it is 1 to `maxDigits` ASCII digits, else -1. */
function digitsValue(text: string, from: number, to: number, maxDigits: number): number {
  const length = to - from;
  if (length < 1 || length > maxDigits) return -1;
  let value = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return -1;
    value = value * 10 + (code - 48);
  }
  return value;
}

function dayOf(year: number, month: number, day: number): number {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return NO_DAY;
  const length = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  return day > length ? NO_DAY : daysFromCivil(year, month, day);
}

/** Whether `text[from..to)` is a number written without a leading zero. */
function noLeadingZero(text: string, from: number, to: number): boolean {
  return to - from === 1 || text.charCodeAt(from) !== 48;
}

/** The style found by the last {@link readDate} (module scratch: no object per row). */
let lastStyle: TDateStyle = STYLE_TEXT;

/** {@link parseExportDay} of a trimmed text, also setting {@link lastStyle}. */
function readDate(text: string): number {
  lastStyle = STYLE_TEXT;
  const slash = text.indexOf('/');
  if (slash >= 0) {
    const second = text.indexOf('/', slash + 1);
    if (second < 0 || text.indexOf('/', second + 1) >= 0) return NO_DAY;
    const month = digitsValue(text, 0, slash, 2);
    const day = digitsValue(text, slash + 1, second, 2);
    const yearDigits = text.length - second - 1;
    if (month < 0 || day < 0 || yearDigits === 3) return NO_DAY;
    let year = digitsValue(text, second + 1, text.length, 4);
    if (year < 0) return NO_DAY;
    if (yearDigits <= 2) year = year < 50 ? 2000 + year : 1900 + year;
    const result = dayOf(year, month, day);
    if (
      result !== NO_DAY &&
      noLeadingZero(text, 0, slash) &&
      noLeadingZero(text, slash + 1, second)
    ) {
      if (yearDigits === 2) lastStyle = STYLE_SHORT;
      else if (yearDigits === 4 && year >= 1000) lastStyle = STYLE_LONG;
    }
    return result;
  }
  const dash = text.indexOf('-');
  if (dash < 0) return NO_DAY;
  const second = text.indexOf('-', dash + 1);
  if (second < 0 || text.indexOf('-', second + 1) >= 0 || dash !== 4) return NO_DAY;
  const year = digitsValue(text, 0, dash, 4);
  const month = digitsValue(text, dash + 1, second, 2);
  const day = digitsValue(text, second + 1, text.length, 2);
  if (year < 0 || month < 0 || day < 0) return NO_DAY;
  const result = dayOf(year, month, day);
  if (result !== NO_DAY && second === 7 && text.length === 10) lastStyle = STYLE_ISO;
  return result;
}

/**
 * The day number of an export date cell, or {@link NO_DAY} when it does not parse: exactly
 * when `parseDate` of @aso/analytics gives null; otherwise `isoFromDayNumber` of the result
 * equals `parseDate`'s answer. Surrounding whitespace is ignored.
 */
export function parseExportDay(raw: string): number {
  return readDate(raw.trim());
}

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

// Year, month and day of the last `civil` call (module scratch: no object per row).
let civilYear = 0;
let civilMonth = 0;
let civilDay = 0;

/** Sets civilYear/civilMonth/civilDay from a day number (H. Hinnant's civil_from_days). */
function civil(dayNumber: number): void {
  const z = dayNumber + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  civilDay = doy - Math.floor((153 * mp + 2) / 5) + 1;
  civilMonth = mp < 10 ? mp + 3 : mp - 9;
  civilYear = yoe + era * 400 + (civilMonth <= 2 ? 1 : 0);
}

/** `YYYY-MM-DD` of a day number given by {@link parseExportDay}. */
export function isoFromDayNumber(dayNumber: number): string {
  civil(dayNumber);
  return `${String(civilYear).padStart(4, '0')}-${pad2(civilMonth)}-${pad2(civilDay)}`;
}

function formatDay(dayNumber: number, style: TDateStyle): string {
  if (style === STYLE_ISO) return isoFromDayNumber(dayNumber);
  civil(dayNumber);
  return style === STYLE_SHORT
    ? `${civilMonth}/${civilDay}/${pad2(civilYear % 100)}`
    : `${civilMonth}/${civilDay}/${civilYear}`;
}

/** {@link ExportDates} as plain data for `postMessage` (see `ExportDates.toData`). */
export interface TExportDatesData {
  count: number;
  days: Int32Array<ArrayBuffer>;
  styles: Uint8Array<ArrayBuffer>;
  /** Dates kept as written, as [row, text]. */
  texts: [number, string][];
}

/**
 * The date cells and day numbers of an export's rows, compactly (docs/BENCHMARKS.md): 4 bytes for
 * the day number and 1 for how the date is written (M/D/YY, M/D/YYYY or YYYY-MM-DD, given back
 * exactly by formatting the day); only dates written otherwise are kept as text.
 */
export class ExportDates {
  private days = new Int32Array(1024);
  private styles = new Uint8Array(1024);
  private readonly texts = new Map<number, string>();
  private count = 0;

  /** Rows added so far. */
  get length(): number {
    return this.count;
  }

  /**
   * Parses a row's date cell (trimmed), adds it and returns its day number, or
   * {@link NO_DAY} when it does not parse (see {@link parseExportDay}).
   */
  push(text: string): number {
    if (this.count === this.days.length) {
      const days = new Int32Array(this.count * 2);
      days.set(this.days);
      this.days = days;
      const styles = new Uint8Array(this.count * 2);
      styles.set(this.styles);
      this.styles = styles;
    }
    const dayNumber = readDate(text);
    this.days[this.count] = dayNumber;
    this.styles[this.count] = lastStyle;
    // A copy of its own: a slice would keep the text it was cut from.
    if (lastStyle === STYLE_TEXT) this.texts.set(this.count, (text + ' ').slice(0, -1));
    this.count++;
    return dayNumber;
  }

  /** Removes the last row added. */
  pop(): void {
    if (this.count === 0) return;
    this.count--;
    this.texts.delete(this.count);
  }

  /**
   * The dates as plain data and the ArrayBuffers to transfer with them (after a transfer this
   * object's arrays are detached: do not use it again).
   */
  toData(): { data: TExportDatesData; buffers: ArrayBuffer[] } {
    return {
      data: { count: this.count, days: this.days, styles: this.styles, texts: [...this.texts] },
      buffers: [this.days.buffer, this.styles.buffer],
    };
  }

  /**
   * Dates from {@link ExportDates.toData}'s data (its arrays are used, not copied).
   *
   * @throws RangeError when the arrays are shorter than `count`.
   */
  static fromData(data: TExportDatesData): ExportDates {
    if (data.days.length < data.count || data.styles.length < data.count) {
      throw new RangeError(`date arrays shorter than their ${data.count} rows`);
    }
    const dates = new ExportDates();
    dates.days = data.days;
    dates.styles = data.styles;
    dates.count = data.count;
    for (const [row, text] of data.texts) dates.texts.set(row, text);
    return dates;
  }

  /** Day number of row `row`, or {@link NO_DAY}. */
  dayNumber(row: number): number {
    return this.days[row]!;
  }

  /** The date cell of row `row` as written. */
  text(row: number): string {
    const style = this.styles[row]! as TDateStyle;
    return style === STYLE_TEXT ? this.texts.get(row)! : formatDay(this.days[row]!, style);
  }
}
