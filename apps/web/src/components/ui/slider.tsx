import * as SliderPrimitive from '@radix-ui/react-slider';
import { useMemo, type ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** Props of {@link Slider}: Radix Slider's root props, and the words of each thumb. */
export interface TSliderProps extends ComponentProps<typeof SliderPrimitive.Root> {
  /** Accessible name of the `index`-th thumb ('First day shown'); Radix names them otherwise. */
  thumbLabel?: (index: number) => string;
  /** What the `index`-th thumb's value means in words ('Jul 20, 2025'), read by screen readers. */
  thumbValueText?: (value: number, index: number) => string;
}

/**
 * A slider of one or more thumbs (Radix Slider: `value`, `onValueChange`, `min`, `max`, `step`,
 * `minStepsBetweenThumbs`), moved by pointer or by the arrow, Page Up/Down, Home and End keys.
 */
export function Slider({
  className,
  defaultValue,
  value,
  min = 0,
  max = 100,
  thumbLabel,
  thumbValueText,
  ...props
}: TSliderProps) {
  const values = useMemo(
    () => (Array.isArray(value) ? value : Array.isArray(defaultValue) ? defaultValue : [min, max]),
    [value, defaultValue, min, max],
  );
  return (
    <SliderPrimitive.Root
      data-slot="slider"
      defaultValue={defaultValue}
      value={value}
      min={min}
      max={max}
      className={cn(
        'relative flex w-full touch-none items-center select-none data-[disabled]:opacity-50 data-[orientation=vertical]:h-full data-[orientation=vertical]:min-h-44 data-[orientation=vertical]:w-auto data-[orientation=vertical]:flex-col',
        className,
      )}
      {...props}
    >
      <SliderPrimitive.Track
        data-slot="slider-track"
        className="relative grow overflow-hidden rounded-full bg-muted data-[orientation=horizontal]:h-1.5 data-[orientation=horizontal]:w-full data-[orientation=vertical]:h-full data-[orientation=vertical]:w-1.5"
      >
        <SliderPrimitive.Range
          data-slot="slider-range"
          className="absolute bg-primary data-[orientation=horizontal]:h-full data-[orientation=vertical]:w-full"
        />
      </SliderPrimitive.Track>
      {values.map((thumbValue, index) => (
        <SliderPrimitive.Thumb
          data-slot="slider-thumb"
          // Thumbs are positional: their number never changes while the slider is shown.
          key={index}
          aria-label={thumbLabel?.(index)}
          aria-valuetext={thumbValueText?.(thumbValue, index)}
          className="block size-4 shrink-0 rounded-full border border-primary bg-background shadow-sm ring-ring/50 transition-[color,box-shadow] hover:ring-4 focus-visible:ring-4 focus-visible:outline-hidden disabled:pointer-events-none disabled:opacity-50"
        />
      ))}
    </SliderPrimitive.Root>
  );
}
