import { useIsMobile } from '@/hooks/use-mobile';
import { formatDay } from '@aso/analytics';
import type { TDateRange } from '@aso/contracts';
import { CalendarDays } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Calendar } from '@/components/ui/calendar';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import {
  dateFromIso,
  draftToRange,
  isoFromDate,
  nextDraft,
  rangeLabel,
  type TDraftRange,
} from './date-range.rules';

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
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<TDraftRange | undefined>(undefined);
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
        <Button variant="outline" size="sm" data-testid="date-range-trigger">
          <CalendarDays />
          {rangeLabel(value)}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        align="start"
        collisionPadding={8}
        // Fits the screen: on a phone one month, and the list scrolls above Apply and Cancel.
        className="flex max-h-[var(--radix-popover-content-available-height)] w-auto max-w-[calc(100vw-1rem)] flex-col p-3"
        data-testid="date-range-popover"
      >
        <p className="mb-2 text-xs text-muted-foreground">
          {ready
            ? rangeLabel(ready)
            : draft?.from
              ? `${formatDay(isoFromDate(draft.from))} - pick an end date`
              : 'Pick a start date, then an end date.'}
        </p>
        <div className="min-h-0 overflow-y-auto">
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
          />
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
