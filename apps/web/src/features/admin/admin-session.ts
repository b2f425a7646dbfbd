/**
 * The admin screen's unlock state (docs/product.md#states-and-transitions: "Admin: locked, then
 * unlocked after a valid admin code; kept for the browser session; logout clears it"): the verified
 * admin code in sessionStorage, which the admin calls send as `x-access-code`
 * (docs/product.md#access-and-sessions: the server checks it on every call; the browser holds no
 * fixed admin value).
 */
import { useSyncExternalStore } from 'react';
import { onLogout } from '@/features/auth/session-events';

/** sessionStorage key of the verified admin code. */
export const ADMIN_CODE_KEY = 'adminAccessCode';

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** The stored admin code, or null (also null where sessionStorage is unavailable). */
export function getAdminCode(): string | null {
  try {
    return window.sessionStorage.getItem(ADMIN_CODE_KEY);
  } catch {
    return null;
  }
}

/** Unlocks the admin screen for this browser session with a verified code. */
export function setAdminCode(code: string): void {
  window.sessionStorage.setItem(ADMIN_CODE_KEY, code);
  notify();
}

/** Locks the admin screen again. */
export function clearAdminCode(): void {
  try {
    window.sessionStorage.removeItem(ADMIN_CODE_KEY);
  } catch {
    // Storage disabled: nothing was stored either.
  }
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** React hook: the stored admin code, re-rendering on unlock and lock. */
export function useAdminCode(): string | null {
  return useSyncExternalStore(subscribe, getAdminCode, () => null);
}

onLogout(clearAdminCode);
