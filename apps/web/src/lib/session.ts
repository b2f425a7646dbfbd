/**
 * The browser side of a session (docs/product.md#entities):
 * the bearer token lives in localStorage under `sessionToken`.
 */

/** localStorage key of the session token (docs/product.md#limits-and-constants). */
export const SESSION_TOKEN_KEY = 'sessionToken';

/** The stored session token, or null (also null where localStorage is unavailable). */
export function getSessionToken(): string | null {
  try {
    return window.localStorage.getItem(SESSION_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Stores the token returned by login or register. */
export function setSessionToken(token: string): void {
  window.localStorage.setItem(SESSION_TOKEN_KEY, token);
}

/** Removes the token (logout, failed logout, or a check-access answer saying "not a user"). */
export function clearSessionToken(): void {
  try {
    window.localStorage.removeItem(SESSION_TOKEN_KEY);
  } catch {
    // Storage disabled: nothing was stored either.
  }
}
