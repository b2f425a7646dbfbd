/**
 * Logout hooks: features that keep their own per-session browser state (e.g. the admin
 * screen's unlocked code in sessionStorage, docs/product.md#states-and-transitions)
 * register a cleanup here; {@link runLogoutCleanups} runs them on every logout, also when
 * the logout call fails.
 */
const cleanups = new Set<() => void>();

/** Registers `fn` to run on logout; returns a function that unregisters it. */
export function onLogout(fn: () => void): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Runs every registered cleanup (errors in one do not stop the others). */
export function runLogoutCleanups(): void {
  for (const fn of cleanups) {
    try {
      fn();
    } catch (err) {
      console.error('logout cleanup failed', err);
    }
  }
}
