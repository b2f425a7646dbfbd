/**
 * Pure helpers of the date-range picker (docs/product.md#dashboard-tab and #states-and-transitions:
 * "the user chooses a start and an end; Apply is enabled only when both are chosen"; badge
 * 'Applied: start - end').
 */
import { formatDay } from '@aso/analytics';
import type { TDateRange } from '@aso/contracts';

/** A choice in progress: a start, and an end once chosen (react-day-picker's `DateRange` shape). */
export interface TDraftRange {
  from: Date | undefined;
  to?: Date | undefined;
}

/** A `YYYY-MM-DD` day as a local-midnight Date (what react-day-picker works with). */
export function dateFromIso(isoDay: string): Date {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** A local Date as `YYYY-MM-DD`. */
export function isoFromDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Label of a range: 'Jul 20, 2025 - Aug 18, 2025' (the badge reads 'Applied: ' + this). */
export function rangeLabel(range: TDateRange): string {
  return `${formatDay(range.start)} - ${formatDay(range.end)}`;
}

/**
 * The picker's choice after a click on `day`: a blank or complete choice starts over at `day`
 * (no end yet, so Apply stays disabled); a started one gets its end, the two swapped when `day`
 * is before the start; the same day twice is a one-day range.
 */
export function nextDraft(prev: TDraftRange | undefined, day: Date): TDraftRange {
  if (!prev?.from || prev.to) return { from: day, to: undefined };
  return day < prev.from ? { from: day, to: prev.from } : { from: prev.from, to: day };
}

/** The range to apply, or null while either end is missing (Apply disabled). */
export function draftToRange(draft: TDraftRange | undefined): TDateRange | null {
  if (!draft?.from || !draft.to) return null;
  return { start: isoFromDate(draft.from), end: isoFromDate(draft.to) };
}
