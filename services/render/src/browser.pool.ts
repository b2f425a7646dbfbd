import type { Browser } from 'puppeteer-core';

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
      launch({ executablePath: this.executablePath, headless: true, args: CHROMIUM_ARGS }),
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
