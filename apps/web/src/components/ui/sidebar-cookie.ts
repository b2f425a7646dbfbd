/**
 * Persistence of the sidebar's state (docs/product.md#limits-and-constants: cookie kept 7 days).
 */

/** Cookie holding `true` (expanded) or `false` (collapsed). */
export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
/** Cookie lifetime: 7 days, in seconds (docs/product.md#limits-and-constants). */
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
/** Reads the remembered state from `document.cookie`; undefined when none is stored. */
export function readSidebarCookie(cookie: string): boolean | undefined {
  const match = new RegExp(`(?:^|;\\s*)${SIDEBAR_COOKIE_NAME}=(true|false)`).exec(cookie);
  return match ? match[1] === 'true' : undefined;
}
