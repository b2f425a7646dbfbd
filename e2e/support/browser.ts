/**
 * Browser helpers of the e2e tests: the system Chromium driven by playwright-core, one
 * context per test (fresh localStorage and cookies), screenshots into `artifacts/e2e/`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ARTIFACTS_DIR } from './paths';

/** The system Chromium (`apt-get install -y chromium`). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];

/** Launches the system Chromium headless. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A fresh context on the app: `baseURL` set, desktop size unless `viewport` is given;
 * `reducedMotion: 'reduce'` asks for the app's no-animation styles (what a screen is measured
 * in when only its settled state matters).
 */
export async function newAppPage(
  browser: Browser,
  baseUrl: string,
  viewport = { width: 1366, height: 900 },
  options: { reducedMotion?: 'reduce' | 'no-preference' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport,
    reducedMotion: options.reducedMotion ?? 'no-preference',
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[browser] page error:', err.message));
  page.on('console', (msg) => {
    // Store images cannot load here (no internet): expected, so not reported.
    if (msg.text().includes('ERR_NAME_NOT_RESOLVED')) return;
    if (msg.type() === 'error' || msg.type() === 'warning')
      console.warn(`[browser] console.${msg.type()}: ${msg.text()}`);
  });
  if (process.env.E2E_TRACE_API === '1') {
    page.on('request', (req) => {
      if (req.url().includes('/api/')) console.log(`[browser] -> ${req.method()} ${req.url()}`);
    });
  }
  // Failed API calls are the first clue when a flow stalls; expected refusals show up too.
  page.on('response', (res) => {
    if (res.url().includes('/api/') && res.status() >= 400) {
      void res
        .text()
        .catch(() => '')
        .then((body) =>
          console.warn(
            `[browser] ${res.request().method()} ${new URL(res.url()).pathname} -> ${res.status()} ${body.slice(0, 300)}`,
          ),
        );
    }
  });
  return { context, page };
}

/**
 * Saves a screenshot as `artifacts/e2e/<name>.png` and returns its path. Full page by default;
 * pass `fullPage: false` while a dialog is open (a full-page capture resizes the viewport,
 * which closes Radix dialogs).
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  { fullPage = true } = {},
): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/**
 * Registers an `afterEach` that saves `artifacts/e2e/FAILED-<test name>.png` of the page
 * returned by `current()` when a test fails (the first thing to look at when one does).
 */
export function screenshotOnFailure(
  afterEachHook: (
    fn: (ctx: { task: { name: string; result?: { state?: string } } }) => Promise<void>,
  ) => void,
  current: () => Page | undefined,
): void {
  afterEachHook(async ({ task }) => {
    const page = current();
    if (task.result?.state !== 'fail' || !page || page.isClosed()) return;
    const name = `FAILED-${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}`;
    await saveScreenshot(page, name).catch(() => undefined);
  });
}
