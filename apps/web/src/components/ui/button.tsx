import { Slot } from '@radix-ui/react-slot';
import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** Button styles: `variant` (look) and `size`. */
export const buttonVariants = cva(
  "inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4",
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary/90',
        destructive: 'bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive/90',
        outline: 'border bg-card shadow-xs hover:bg-accent hover:text-accent-foreground',
        secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary/80',
        ghost: 'hover:bg-accent hover:text-accent-foreground',
        link: 'text-primary underline-offset-4 hover:underline',
      },
      size: {
        default: 'h-9 px-4 py-2',
        sm: 'h-8 gap-1.5 rounded-md px-3 text-xs',
        lg: 'h-11 rounded-md px-6 text-base',
        icon: 'size-9',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

/**
 * A button; `asChild` renders the child element (e.g. a link) with button styles.
 *
 * `focusableWhenDisabled`: while `disabled`, the button stays in the Tab order and keeps the
 * focus (`aria-disabled`, clicks and form submission refused) instead of the native `disabled`,
 * which drops the focus to the page when the button is disabled under it (WCAG 2.1 2.4.3
 * Focus Order). For buttons that disable themselves when pressed (busy, saved).
 */
export function Button({
  className,
  variant,
  size,
  asChild = false,
  focusableWhenDisabled = false,
  disabled,
  onClick,
  ...props
}: ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & { asChild?: boolean; focusableWhenDisabled?: boolean }) {
  const Comp = asChild ? Slot : 'button';
  const soft = focusableWhenDisabled && disabled === true;
  return (
    <Comp
      data-slot="button"
      className={cn(buttonVariants({ variant, size, className }))}
      disabled={soft ? undefined : disabled}
      aria-disabled={soft ? true : undefined}
      // Refusing the click also refuses the form submission it would start (Enter in a field).
      onClick={soft ? (event) => event.preventDefault() : onClick}
      {...props}
    />
  );
}
