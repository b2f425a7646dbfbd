import { formatDay } from '@aso/analytics';
import type { TDateRange } from '@aso/contracts';
import { CalendarDays } from 'lucide-react';
import { useState } from 'react';
import type { DateRange } from 'react-day-picker';
import { Button } from '@/components/ui/button';
import { Calendar } from '@/components/ui/calendar';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';

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

/** Label of a range: 'Jul 20, 2025 - Aug 18, 2025'. */
export function rangeLabel(range: TDateRange): string {
  return `${formatDay(range.start)} - ${formatDay(range.end)}`;
}

/**
 * The picker's choice after a click on `day`: a blank or complete choice starts over at `day`;
 * a started one gets its end (ends swapped when `day` is before the start).
 */
export function nextDraft(prev: DateRange | undefined, day: Date): DateRange {
  if (!prev?.from || prev.to) return { from: day, to: undefined };
  return day < prev.from ? { from: day, to: prev.from } : { from: prev.from, to: day };
}

/** Props of {@link DateRangePicker}. */
export interface DateRangePickerProps {
  /** The applied range. */
  value: TDateRange;
  /** Selectable days (inclusive): the dataset's span, or 2025-01-01..2025-12-31. */
  bounds: TDateRange;
  onApply: (range: TDateRange) => void;
}

/**
 * The date-range popover (spec sections 2 and 4): a two-month range calendar limited to
 * `bounds`; Apply is enabled only when a start and an end are chosen; Cancel, Escape or a
 * click outside closes it and discards the choice.
 */
export function DateRangePicker({ value, bounds, onApply }: DateRangePickerProps) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<DateRange | undefined>(undefined);
  const min = dateFromIso(bounds.start);
  const max = dateFromIso(bounds.end);
  const end = dateFromIso(value.end);
  // Show the applied end in the second month, unless that would put the first month before the bounds.
  const firstMonth = new Date(end.getFullYear(), end.getMonth() - 1, 1);
  const defaultMonth = firstMonth < new Date(min.getFullYear(), min.getMonth(), 1) ? min : firstMonth;

  const ready = Boolean(draft?.from && draft?.to);

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        // Opening starts from a blank choice; closing by any path other than Apply discards it.
        setDraft(undefined);
      }}
    >
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" data-testid="date-range-trigger">
          <CalendarDays />
          {rangeLabel(value)}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-auto p-3" data-testid="date-range-popover">
        <p className="mb-2 text-xs text-muted-foreground">
          {draft?.from
            ? draft.to
              ? `${rangeLabel({ start: isoFromDate(draft.from), end: isoFromDate(draft.to) })}`
              : `${formatDay(isoFromDate(draft.from))} - pick an end date`
            : 'Pick a start date, then an end date.'}
        </p>
        <Calendar
          mode="range"
          numberOfMonths={2}
          selected={draft}
          // Own click logic: the first click is the start, the second the end (the same day
          // twice is a one-day range); a third click starts over. react-day-picker's default
          // would set both ends on the first click and enable Apply too early.
          onSelect={(_range, day) => setDraft((prev) => nextDraft(prev, day))}
          defaultMonth={defaultMonth}
          startMonth={min}
          endMonth={max}
          disabled={[{ before: min }, { after: max }]}
        />
        <div className="mt-3 flex justify-end gap-2 border-t pt-3">
          <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            size="sm"
            disabled={!ready}
            onClick={() => {
              if (!draft?.from || !draft.to) return;
              onApply({ start: isoFromDate(draft.from), end: isoFromDate(draft.to) });
              setOpen(false);
              setDraft(undefined);
            }}
          >
            Apply
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}
