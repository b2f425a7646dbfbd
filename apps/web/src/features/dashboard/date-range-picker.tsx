import { useIsMobile } from '@/hooks/use-mobile';
import { formatDay } from '@aso/analytics';
import type { TDateRange } from '@aso/contracts';
import { CalendarDays } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import {
  dateFromIso,
  draftToRange,
  isoFromDate,
  nextDraft,
  rangeLabel,
  type TDraftRange,
} from './date-range.helpers';

// The calendar (react-day-picker with date-fns) is fetched on intent to pick a range (hover,
// focus or press of the trigger), not with the dashboard.
const loadCalendar = () => import('@/components/ui/calendar');
const Calendar = lazy(() => loadCalendar().then((m) => ({ default: m.Calendar })));
const preloadCalendar = () => void loadCalendar().catch(() => undefined);

/** The day react-day-picker keeps in the Tab order, inside `root`. */
function tabbableDay(root: HTMLElement | null): HTMLElement | null {
  return root?.querySelector<HTMLElement>('.rdp-day_button[tabindex="0"]') ?? null;
}

/**
 * Rendered after the calendar: when the calendar's code arrived after the popover opened (the
 * focus then waits on the popover itself), moves the focus to its day as an open does.
 */
function FocusDayWhenShown({ content }: { content: RefObject<HTMLDivElement | null> }) {
  useEffect(() => {
    if (content.current && document.activeElement === content.current)
      tabbableDay(content.current)?.focus();
  }, [content]);
  return null;
}

/** Props of {@link DateRangePicker}. */
export interface TDateRangePickerProps {
  /** The applied range. */
  value: TDateRange;
  /** Selectable days (inclusive): the dataset's span, or 2025-01-01..2025-12-31. */
  bounds: TDateRange;
  onApply: (range: TDateRange) => void;
}

/** How to pick a range with the keyboard, shown above the calendar (react-day-picker's keys). */
export const DATE_PICKER_KEYS_HELP =
  'Arrow keys move between days, Page Up / Page Down between months, Home / End to the start or end of the week. Enter or Space picks the start date, then the end date.';

/**
 * A day's accessible name: its number first, as the button shows it, then the month, year and
 * weekday ('1 July 2025, Tuesday'), and where it stands in the choice being made.
 */
export function dayButtonLabel(date: Date, modifiers: Record<string, boolean>): string {
  const month = date.toLocaleDateString('en-US', { month: 'long' });
  const weekday = date.toLocaleDateString('en-US', { weekday: 'long' });
  let label = `${date.getDate()} ${month} ${date.getFullYear()}, ${weekday}`;
  if (modifiers.range_start && modifiers.range_end) label += ', chosen start and end';
  else if (modifiers.range_start) label += ', chosen start';
  else if (modifiers.range_end) label += ', chosen end';
  else if (modifiers.range_middle) label += ', in the chosen range';
  if (modifiers.disabled) label += ', outside the data';
  return label;
}

/**
 * The date-range popover (docs/product.md#dashboard-tab and #states-and-transitions): a two-month
 * range calendar limited to `bounds`; Apply is enabled only when a start and an end are chosen;
 * Cancel, Escape or a click outside closes it and discards the choice. It opens with the focus on a
 * day of the calendar and the keys to use written above it; the choice so far is announced as it
 * changes.
 */
export function DateRangePicker({ value, bounds, onApply }: TDateRangePickerProps) {
  const isMobile = useIsMobile();
  const helpId = useId();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<TDraftRange | undefined>(undefined);
  const content = useRef<HTMLDivElement>(null);
  const min = dateFromIso(bounds.start);
  const max = dateFromIso(bounds.end);
  const end = dateFromIso(value.end);
  // Show the applied end in the second month, unless that puts the first month before the bounds.
  const firstMonth = new Date(end.getFullYear(), end.getMonth() - 1, 1);
  const defaultMonth =
    firstMonth < new Date(min.getFullYear(), min.getMonth(), 1) ? min : firstMonth;
  const ready = draftToRange(draft);

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
        <Button
          variant="outline"
          size="sm"
          data-testid="date-range-trigger"
          onPointerEnter={preloadCalendar}
          onPointerDown={preloadCalendar}
          onFocus={preloadCalendar}
        >
          <CalendarDays />
          {rangeLabel(value)}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        ref={content}
        align="start"
        collisionPadding={8}
        // Fits the screen: on a phone one month, and the list scrolls above Apply and Cancel.
        className="flex max-h-[var(--radix-popover-content-available-height)] w-auto max-w-[calc(100vw-1rem)] flex-col p-3"
        aria-label="Choose a date range"
        aria-describedby={helpId}
        data-testid="date-range-popover"
        onOpenAutoFocus={(event) => {
          // Straight to the calendar's day (react-day-picker keeps one day in the Tab order).
          // Without the calendar yet, the popover holds the focus until it shows (see
          // FocusDayWhenShown).
          const popover = event.currentTarget as HTMLElement | null;
          event.preventDefault();
          (tabbableDay(popover) ?? popover)?.focus();
        }}
      >
        <p
          id={helpId}
          className="mb-2 max-w-[34rem] text-xs text-muted-foreground"
          data-testid="date-picker-help"
        >
          {DATE_PICKER_KEYS_HELP}
        </p>
        <p className="mb-2 text-sm font-medium" aria-live="polite" data-testid="date-range-draft">
          {ready
            ? rangeLabel(ready)
            : draft?.from
              ? `${formatDay(isoFromDate(draft.from))} - pick an end date`
              : 'Pick a start date, then an end date.'}
        </p>
        <div className="min-h-0 overflow-y-auto">
          <Suspense fallback={<div className="h-72 w-72" aria-busy="true" />}>
            <Calendar
              mode="range"
              numberOfMonths={isMobile ? 1 : 2}
              // Two months side by side: outside days would show the same day twice.
              showOutsideDays={false}
              selected={draft}
              // Own click logic (see nextDraft): react-day-picker's default sets both ends on the
              // first click, which would enable Apply too early.
              onSelect={(_range, day) => setDraft((prev) => nextDraft(prev, day))}
              defaultMonth={defaultMonth}
              startMonth={min}
              endMonth={max}
              disabled={[{ before: min }, { after: max }]}
              // The applied range stays faintly marked while a new one is picked.
              modifiers={{ applied: { from: dateFromIso(value.start), to: end } }}
              modifiersClassNames={{ applied: 'bg-primary/5' }}
              labels={{ labelDayButton: dayButtonLabel }}
            />
            <FocusDayWhenShown content={content} />
          </Suspense>
        </div>
        <div className="mt-3 flex shrink-0 justify-end gap-2 border-t pt-3">
          <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            size="sm"
            disabled={!ready}
            onClick={() => {
              if (!ready) return;
              onApply(ready);
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
