import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { Browser } from 'puppeteer-core';

/**
 * Switch put on every Chromium this worker launches, naming the worker's pid: Chromium ignores
 * switches it does not know, and {@link reapOrphanBrowsers} finds the browsers of a worker
 * that is gone by it.
 */
export const OWNER_SWITCH = '--aso-render-owner';

/** Chromium flags for rendering in a container or CI (no sandbox user namespace, no GPU). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--font-render-hinting=none',
];

/** Longest a launch may take until Chromium answers over its pipe (ms; puppeteer's `timeout`). */
export const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * How long {@link BrowserPool.close} waits for a launch still under way (ms). Past it the
 * launch is left to finish on its own and its browser is closed when it does; a process that
 * exits meanwhile takes its Chromium with it (the pipe closes).
 */
export const CLOSE_LAUNCH_WAIT_MS = 2_000;

/**
 * One headless Chromium per process, launched on first use (puppeteer-core is imported then,
 * not at start) and launched again when it died; every render gets its own browser context.
 */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;
  /** Set by {@link close}: a browser whose launch ends after it is closed at once. */
  private closed = false;

  constructor(private readonly executablePath: string) {}

  /** The running browser (launched when there is none or it disconnected). */
  async get(): Promise<Browser> {
    if (this.browser) {
      const current = await this.browser.catch(() => null);
      if (current?.connected) return current;
    }
    const launching = import('puppeteer-core').then(({ launch }) =>
      launch({
        executablePath: this.executablePath,
        headless: true,
        args: [...CHROMIUM_ARGS, `${OWNER_SWITCH}=${process.pid}`],
        // DevTools over a pipe (fds 3 and 4) rather than a WebSocket: when this process dies,
        // whatever kills it, the pipe closes and Chromium quits on its own.
        pipe: true,
        timeout: LAUNCH_TIMEOUT_MS,
        // The worker handles its signals: it finishes the renders in flight, then closes the
        // browser. Puppeteer's own handlers would kill Chromium at the signal, under those
        // renders, and a launch under way when they fire could be left never settling.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      }),
    );
    this.browser = launching;
    launching.then(
      (browser) => {
        if (this.closed) void browser.close().catch(() => undefined);
      },
      () => {
        if (this.browser === launching) this.browser = null;
      },
    );
    return launching;
  }

  /**
   * Closes the browser, if one runs. A launch still under way is waited for at most
   * {@link CLOSE_LAUNCH_WAIT_MS}; its browser is closed whenever the launch ends.
   */
  async close(): Promise<void> {
    this.closed = true;
    const pending = this.browser;
    this.browser = null;
    if (!pending) return;
    // Unref'd: once the launch has ended, the rest of the wait keeps nothing alive.
    const gaveUp = delay(CLOSE_LAUNCH_WAIT_MS, null, { ref: false });
    const running = await Promise.race([pending.catch(() => null), gaveUp]);
    await running?.close().catch(() => undefined);
  }
}

/** True when a process with this pid exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but is someone else's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Kills the Chromium processes launched by render workers that are gone (found by
 * {@link OWNER_SWITCH} in `/proc/{pid}/cmdline`; Linux only, elsewhere nothing is done), with
 * their process group: puppeteer starts Chromium detached, so when a worker is killed its
 * browser is re-parented to init instead of dying with it. The pipe ({@link BrowserPool})
 * normally ends such a browser within a second; this sweep, run at every worker start, is
 * the backstop. Returns the pids killed.
 */
export async function reapOrphanBrowsers(): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const killed: number[] = [];
  const prefix = `${OWNER_SWITCH}=`;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    let cmdline: string;
    try {
      cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // gone meanwhile, or not readable
    }
    const owner = cmdline
      .split('\0')
      .find((arg) => arg.startsWith(prefix))
      ?.slice(prefix.length);
    if (!owner || !/^\d+$/.test(owner) || alive(Number(owner))) continue;
    try {
      // The whole group (the browser leads it): renderers, GPU and zygote processes too.
      process.kill(-pid, 'SIGKILL');
    } catch {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        continue;
      }
    }
    killed.push(pid);
  }
  return killed;
}
