/**
 * Focus that follows the work (WCAG 2.1 2.4.3 Focus Order): a screen that replaces the one the
 * user acted on takes the focus to its heading, and an overlay that closes gives it back to
 * what opened it.
 */
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { MAIN_CONTENT_ID } from '@/components/ui/skip-link';

/**
 * Returns a ref whose element (give it `tabIndex={-1}` unless it is focusable) receives the
 * focus once when it mounts, while `when` is true. The page is scrolled so the element shows.
 */
export function useFocusOnMount<T extends HTMLElement>(when = true): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (when) ref.current?.focus();
  }, [when]);
  return ref;
}

/**
 * The element focus goes to when the element that had it is gone (the opener of an overlay,
 * a deleted row): the screen's first visible focusable `h1`, else its `main`.
 */
export function screenHeading(): HTMLElement | null {
  const main = document.getElementById(MAIN_CONTENT_ID);
  if (!main) return null;
  // The first heading that shows (a hidden tab keeps its own heading in the DOM).
  const headings = [...main.querySelectorAll<HTMLElement>('h1[tabindex]')];
  return headings.find((h) => h.getClientRects().length > 0) ?? main;
}

/** Event handlers of {@link useReturnFocus}, for a Radix Dialog, AlertDialog or Popover content. */
export interface TReturnFocusHandlers {
  onOpenAutoFocus: (event: Event) => void;
  onCloseAutoFocus: (event: Event) => void;
}

/**
 * Gives the focus back to the element that had it when the overlay opened (its trigger, or
 * the button that opened a dialog without a Radix trigger), once the overlay closes:
 * - if something else took the focus meanwhile (a click outside on a field, a screen that
 *   focused its heading), it stays there;
 * - if the opener is gone (a deleted list row, the sign-up form), the screen's `h1` or `main`.
 * `own` are the caller's handlers, run first; calling `preventDefault()` there opts out.
 */
export function useReturnFocus(own: Partial<TReturnFocusHandlers> = {}): TReturnFocusHandlers {
  const opener = useRef<HTMLElement | null>(null);
  const { onOpenAutoFocus, onCloseAutoFocus } = own;
  const onOpen = useCallback(
    (event: Event) => {
      // Radix fires this before it moves the focus in: the active element is the opener.
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      onOpenAutoFocus?.(event);
    },
    [onOpenAutoFocus],
  );
  const onClose = useCallback(
    (event: Event) => {
      onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      const active = document.activeElement;
      const target = opener.current;
      opener.current = null;
      if (active && active !== document.body) {
        event.preventDefault();
        return;
      }
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
        return;
      }
      // No opener seen (a field inside took the focus on open) or it is gone: Radix's own
      // default (its trigger, if it has one), and the screen's heading if that left none.
      setTimeout(() => {
        if (document.activeElement === document.body) screenHeading()?.focus();
      }, 0);
    },
    [onCloseAutoFocus],
  );
  return { onOpenAutoFocus: onOpen, onCloseAutoFocus: onClose };
}
