import { useIsMobile } from '@/hooks/use-mobile';
import { ChevronDown, Search } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { lineColor } from './chart.options';
import { filterMetrics, selectAllFiltered, toggleMetric } from './dataset.helpers';

/** Props of {@link MetricSelector}. */
export interface TMetricSelectorProps {
  metrics: readonly string[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
}

/**
 * The metric selector of the chart card (docs/product.md#dashboard-sections): 'select metrics to
 * display:', a search box 'search metrics...', 'select all (N)' over the filtered list, 'clear all'
 * and 'no metrics found'. A Radix popover, so Escape and a click outside close it.
 */
export function MetricSelector({ metrics, selected, onChange }: TMetricSelectorProps) {
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const searchId = useId();
  const listId = useId();
  const filtered = useMemo(() => filterMetrics(metrics, query), [metrics, query]);
  const selectedSet = new Set(selected);

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setQuery('');
      }}
    >
      <PopoverTrigger asChild>
        <Button
          variant="outline"
          size="sm"
          className="min-w-44 justify-between"
          data-testid="metric-selector-trigger"
        >
          <span>
            {selected.length === 0
              ? 'No metric selected'
              : selected.length === 1
                ? selected[0]
                : `${selected.length} metrics selected`}
          </span>
          <ChevronDown className="opacity-60" />
        </Button>
      </PopoverTrigger>
      <PopoverContent
        align="end"
        collisionPadding={8}
        className="w-80 max-w-[calc(100vw-1rem)] p-0"
        aria-label="Select metrics"
        data-testid="metric-selector"
        // Radix focuses the first field on open: on a phone that would open the keyboard over
        // the list, so the panel itself takes the focus (Tab then reaches the search and rows).
        onOpenAutoFocus={(event) => {
          if (!isMobile) return;
          event.preventDefault();
          (event.currentTarget as HTMLElement | null)?.focus();
        }}
      >
        <div className="flex flex-col gap-2 border-b p-3">
          <label htmlFor={searchId} className="text-xs font-medium text-muted-foreground">
            select metrics to display:
          </label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              id={searchId}
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder="search metrics..."
              className="h-8 pl-8"
              // On a phone focus would open the keyboard over the list.
              autoFocus={!isMobile}
            />
          </div>
          <div className="flex items-center justify-between gap-2">
            <Button
              variant="ghost"
              size="sm"
              className="h-7 px-2 text-xs"
              disabled={filtered.length === 0}
              onClick={() => onChange(selectAllFiltered(metrics, selected, filtered))}
            >
              select all ({filtered.length})
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="h-7 px-2 text-xs"
              disabled={selected.length === 0}
              onClick={() => onChange([])}
            >
              clear all
            </Button>
          </div>
        </div>
        {filtered.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-muted-foreground" role="status">
            no metrics found
          </p>
        ) : (
          // One checkbox per row, labelled by the metric's name: a plain list of checkboxes
          // (Tab / Shift+Tab between them, Space toggles).
          <ul className="max-h-72 overflow-y-auto p-1" aria-label="metrics">
            {filtered.map((metric, index) => {
              const checked = selectedSet.has(metric);
              const colorIndex = selected.indexOf(metric);
              const checkboxId = `${listId}-${index}`;
              return (
                <li key={metric}>
                  <label
                    htmlFor={checkboxId}
                    className="flex cursor-pointer items-center gap-2.5 rounded-md px-2 py-1.5 text-sm hover:bg-accent has-focus-visible:bg-accent"
                  >
                    <Checkbox
                      id={checkboxId}
                      checked={checked}
                      onCheckedChange={() => onChange(toggleMetric(metrics, selected, metric))}
                    />
                    <span className="min-w-0 flex-1 truncate" title={metric}>
                      {metric}
                    </span>
                    {checked && (
                      <span
                        className="size-2.5 shrink-0 rounded-full"
                        style={{ backgroundColor: lineColor(colorIndex) }}
                        aria-hidden
                      />
                    )}
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </PopoverContent>
    </Popover>
  );
}
