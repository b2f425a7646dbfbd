import * as ToastPrimitives from '@radix-ui/react-toast';
import { cva, type VariantProps } from 'class-variance-authority';
import { XIcon } from 'lucide-react';
import { useEffect, useRef, type ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/**
 * How long a toast that is not an error stays (ms, docs/product.md#limits-and-constants); an
 * error stays until dismissed.
 */
export const TOAST_DURATION_MS = 5000;
/**
 * Swipe distance (px) to the right that dismisses a toast (docs/product.md#limits-and-constants).
 */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** Key that moves focus to the notification area (docs/product.md#limits-and-constants). */
export const TOAST_HOTKEY = ['F8'];

/** Toast context with the documented duration, swipe direction and threshold. */
export function ToastProvider(props: ComponentProps<typeof ToastPrimitives.Provider>) {
  return (
    <ToastPrimitives.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      {...props}
    />
  );
}

/**
 * The notification area (F8 focuses it). When its last toast closes while it has the focus
 * (F8, then the close button or Escape), the focus goes back to where it was before F8
 * instead of staying on the empty area (WCAG 2.1 2.4.3 Focus Order).
 */
export function ToastViewport({
  className,
  ...props
}: ComponentProps<typeof ToastPrimitives.Viewport>) {
  const viewport = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const area = viewport.current;
    if (!area) return;
    let before: HTMLElement | null = null;
    const onFocusIn = (event: FocusEvent) => {
      const from = event.relatedTarget;
      if (from instanceof HTMLElement && !area.contains(from)) before = from;
    };
    const observer = new MutationObserver(() => {
      if (area.childElementCount > 0 || document.activeElement !== area) return;
      if (before?.isConnected) before.focus();
      before = null;
    });
    area.addEventListener('focusin', onFocusIn);
    observer.observe(area, { childList: true });
    return () => {
      area.removeEventListener('focusin', onFocusIn);
      observer.disconnect();
    };
  }, []);
  return (
    <ToastPrimitives.Viewport
      ref={viewport}
      hotkey={TOAST_HOTKEY}
      className={cn(
        // At the bottom on every size: an error stays until dismissed, and on a phone the top
        // holds the header (the sidebar button) it would cover.
        'fixed bottom-0 z-[100] flex max-h-screen w-full flex-col p-4 sm:right-0 md:max-w-[420px]',
        className,
      )}
      {...props}
    />
  );
}

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-center justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-8 shadow-lg transition-all outline-none focus-visible:ring-[3px] focus-visible:ring-ring/70 motion-safe:data-[state=open]:animate-slide-in-bottom motion-safe:data-[state=closed]:animate-fade-out data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-(--radix-toast-swipe-end-x) motion-safe:data-[swipe=end]:animate-slide-out-right data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=move]:transition-none',
  {
    variants: {
      variant: {
        default: 'border bg-card text-foreground',
        destructive: 'destructive border-destructive bg-destructive text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

/** One toast. */
export function Toast({
  className,
  variant,
  ...props
}: ComponentProps<typeof ToastPrimitives.Root> & VariantProps<typeof toastVariants>) {
  return <ToastPrimitives.Root className={cn(toastVariants({ variant }), className)} {...props} />;
}

/** The toast's close button: named for screen readers, with a visible focus ring. */
export function ToastClose({ className, ...props }: ComponentProps<typeof ToastPrimitives.Close>) {
  return (
    <ToastPrimitives.Close
      className={cn(
        'absolute top-2 right-2 rounded-md p-1 outline-none hover:bg-foreground/10 focus-visible:ring-2 focus-visible:ring-ring group-[.destructive]:hover:bg-destructive-foreground/15 group-[.destructive]:focus-visible:ring-destructive-foreground',
        className,
      )}
      aria-label="Close notification"
      toast-close=""
      {...props}
    >
      <XIcon className="size-4" aria-hidden />
    </ToastPrimitives.Close>
  );
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitives.Title>) {
  return <ToastPrimitives.Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({
  className,
  ...props
}: ComponentProps<typeof ToastPrimitives.Description>) {
  return <ToastPrimitives.Description className={cn('text-sm', className)} {...props} />;
}
