/**
 * The zoom control under the dashboard's line chart (docs/product.md#dashboard-sections): a
 * two-thumb slider choosing the first and last day the chart shows, by pointer or keyboard.
 */
import { useId } from 'react';
import { Slider } from '@/components/ui/slider';
import { dayText, type TDayWindow } from './chart.options';

/** Accessible names of the two thumbs. */
export const ZOOM_THUMB_LABELS = ['First day shown', 'Last day shown'] as const;

/** Props of {@link ChartZoom}. */
export interface TChartZoomProps {
  /** Every day of the chart's range in order (`YYYY-MM-DD`, or a row's raw date text). */
  days: readonly string[];
  value: TDayWindow;
  onChange: (value: TDayWindow) => void;
}

/**
 * The days shown ('Jul 20, 2025 to Aug 18, 2025, 30 of 62 days') above a range slider over
 * `days`; each thumb names its day for screen readers.
 */
export function ChartZoom({ days, value, onChange }: TChartZoomProps) {
  const id = useId();
  const [first, last] = value;
  const at = (index: number) => dayText(days[index] ?? '');
  return (
    <div className="flex flex-col gap-2 px-2" data-testid="chart-zoom">
      <p id={id} className="text-xs text-muted-foreground">
        Days shown: <span className="text-foreground">{at(first)}</span> to{' '}
        <span className="text-foreground">{at(last)}</span> ({last - first + 1} of {days.length}{' '}
        days)
      </p>
      <Slider
        role="group"
        aria-labelledby={id}
        min={0}
        max={days.length - 1}
        step={1}
        minStepsBetweenThumbs={1}
        value={[first, last]}
        onValueChange={(next) => {
          const [a, b] = next;
          if (a !== undefined && b !== undefined) onChange([a, b]);
        }}
        thumbLabel={(index) => ZOOM_THUMB_LABELS[index] ?? 'Day shown'}
        thumbValueText={(day) => at(day)}
        className="py-2"
      />
    </div>
  );
}
