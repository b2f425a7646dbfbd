import * as PopoverPrimitive from '@radix-ui/react-popover';
import type { ComponentProps } from 'react';
import { useReturnFocus } from '@/hooks/use-focus';
import { cn } from '@/lib/utils';

/** A floating panel anchored to its trigger (Escape and outside click close it). */
export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;

/**
 * The floating panel (`role="dialog"`: name it with `aria-label` or `aria-labelledby`).
 * Closing it gives the focus back to its trigger unless the user moved it elsewhere.
 */
export function PopoverContent({
  className,
  align = 'center',
  sideOffset = 4,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof PopoverPrimitive.Content>) {
  const returnFocus = useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus });
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        data-slot="popover-content"
        align={align}
        sideOffset={sideOffset}
        className={cn(
          'z-50 w-72 rounded-md border bg-popover p-4 text-popover-foreground shadow-md outline-hidden motion-safe:data-[state=open]:animate-fade-in',
          className,
        )}
        {...props}
        {...returnFocus}
      />
    </PopoverPrimitive.Portal>
  );
}
