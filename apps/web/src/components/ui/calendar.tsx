import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { ComponentProps } from 'react';
import { DayPicker, getDefaultClassNames } from 'react-day-picker';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/**
 * A month calendar on react-day-picker 9, styled in the shadcn/ui manner. Takes every DayPicker
 * prop (`mode="range"`, `numberOfMonths`, `startMonth`/`endMonth`, `disabled` ...).
 */
export function Calendar({
  className,
  classNames,
  showOutsideDays = true,
  ...props
}: ComponentProps<typeof DayPicker>) {
  const defaults = getDefaultClassNames();
  return (
    <DayPicker
      showOutsideDays={showOutsideDays}
      className={cn('p-1 select-none', className)}
      classNames={{
        root: cn('w-fit', defaults.root),
        months: cn('relative flex flex-col gap-6 sm:flex-row', defaults.months),
        month: cn('flex w-full flex-col gap-3', defaults.month),
        nav: cn(
          'absolute inset-x-0 top-0 flex w-full items-center justify-between gap-1',
          defaults.nav,
        ),
        button_previous: cn(
          buttonVariants({ variant: 'ghost', size: 'icon' }),
          'size-8 p-0 aria-disabled:opacity-40',
          defaults.button_previous,
        ),
        button_next: cn(
          buttonVariants({ variant: 'ghost', size: 'icon' }),
          'size-8 p-0 aria-disabled:opacity-40',
          defaults.button_next,
        ),
        month_caption: cn(
          'flex h-8 w-full items-center justify-center px-8',
          defaults.month_caption,
        ),
        caption_label: cn('text-sm font-medium', defaults.caption_label),
        month_grid: cn('w-full border-collapse', defaults.month_grid),
        weekdays: cn('flex', defaults.weekdays),
        weekday: cn(
          'w-9 flex-1 text-[0.75rem] font-normal text-muted-foreground',
          defaults.weekday,
        ),
        week: cn('mt-1 flex w-full', defaults.week),
        day: cn('relative aspect-square h-9 w-9 p-0 text-center text-sm', defaults.day),
        day_button: cn(
          'inline-flex size-9 items-center justify-center rounded-md text-sm font-normal transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring/50 focus-visible:outline-none',
          defaults.day_button,
        ),
        range_start: cn(
          'rounded-l-md bg-accent [&>button]:bg-primary [&>button]:text-primary-foreground [&>button]:hover:bg-primary',
          defaults.range_start,
        ),
        range_middle: cn(
          'rounded-none bg-accent [&>button]:text-accent-foreground [&>button]:rounded-none',
          defaults.range_middle,
        ),
        range_end: cn(
          'rounded-r-md bg-accent [&>button]:bg-primary [&>button]:text-primary-foreground [&>button]:hover:bg-primary',
          defaults.range_end,
        ),
        selected: cn('font-medium', defaults.selected),
        today: cn('[&>button]:ring-1 [&>button]:ring-primary/40', defaults.today),
        outside: cn(
          'text-muted-foreground/60 aria-selected:text-muted-foreground',
          defaults.outside,
        ),
        disabled: cn(
          'text-muted-foreground opacity-40 [&>button]:cursor-not-allowed [&>button]:hover:bg-transparent',
          defaults.disabled,
        ),
        hidden: cn('invisible', defaults.hidden),
        ...classNames,
      }}
      components={{
        Chevron: ({ orientation, className: chevronClass, disabled }) =>
          orientation === 'left' ? (
            <ChevronLeft className={cn('size-4', disabled && 'opacity-40', chevronClass)} />
          ) : (
            <ChevronRight className={cn('size-4', disabled && 'opacity-40', chevronClass)} />
          ),
      }}
      {...props}
    />
  );
}
