/**
 * kill -9 of a process holding the render worker's Chromium: no Chromium process outlives it
 * (the DevTools pipe closes and the browser quits); and the sweep at each worker start kills
 * browsers whose worker is gone.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { OWNER_SWITCH, reapOrphanBrowsers } from '../src/browser.pool';
import { browsersOf, CHROMIUM, POOL } from './browsers.helpers';

describe.skipIf(process.platform !== 'linux')('no orphaned browsers', () => {
  it('ends Chromium with the worker that launched it, whatever killed the worker', async () => {
    // A process standing in for the worker: launches the pool's browser, says so, then waits.
    const script = `
      const { BrowserPool } = await import(${JSON.stringify(POOL)});
      await new BrowserPool(${JSON.stringify(CHROMIUM)}).get();
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);
    `;
    const worker = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const owner = worker.pid!;
    await new Promise<void>((resolve, reject) => {
      worker.stdout.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
      worker.once('exit', (code) => reject(new Error(`the stand-in worker exited (${code})`)));
    });
    expect((await browsersOf(owner)).length).toBeGreaterThan(0);

    worker.kill('SIGKILL');
    await vi.waitUntil(async () => (await browsersOf(owner)).length === 0, {
      timeout: 10_000,
      interval: 100,
    });
    expect(await reapOrphanBrowsers()).toEqual([]);
  }, 30_000);

  it('kills at start the browsers of a worker that is gone, with their process group', async () => {
    // A pid that was a process and is not any more.
    const gone = spawn('true');
    await new Promise((r) => gone.once('exit', r));
    const owner = gone.pid!;
    // A browser left as puppeteer leaves one: detached, in a process group of its own.
    const leaked = spawn(
      CHROMIUM,
      [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        `${OWNER_SWITCH}=${owner}`,
        'about:blank',
      ],
      { detached: true, stdio: 'ignore' },
    );
    leaked.unref();
    await vi.waitUntil(async () => (await browsersOf(owner)).length > 0, { timeout: 10_000 });

    expect(await reapOrphanBrowsers()).toContain(leaked.pid);
    await vi.waitUntil(async () => (await browsersOf(owner)).length === 0, {
      timeout: 10_000,
      interval: 100,
    });
  }, 30_000);
});
