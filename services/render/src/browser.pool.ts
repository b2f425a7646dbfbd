import { readdir, readFile } from 'node:fs/promises';
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

/**
 * One headless Chromium per process, launched on first use (puppeteer-core is imported then,
 * not at start) and launched again when it died; every render gets its own browser context.
 */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;

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
      }),
    );
    this.browser = launching;
    launching.catch(() => {
      if (this.browser === launching) this.browser = null;
    });
    return launching;
  }

  /** Closes the browser, if one runs. */
  async close(): Promise<void> {
    const running = await this.browser?.catch(() => null);
    this.browser = null;
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
