import { useSyncExternalStore } from 'react';

/**
 * Widths below this (px) use the mobile layout: the sidebar becomes a sheet
 * (docs/product.md#limits-and-constants).
 */
export const MOBILE_BREAKPOINT = 768;

const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;

function subscribe(onChange: () => void): () => void {
  const mql = window.matchMedia(query);
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
}

/** True while the viewport is narrower than {@link MOBILE_BREAKPOINT}. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
