/**
 * The render worker's Chromium at shutdown: a SIGTERM leaves the browser to the worker (which
 * finishes its renders, then closes it), and closing while the browser is still launching
 * returns and leaves no browser behind.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { browsersOf, CHROMIUM, POOL } from './browsers.helpers';

/**
 * Runs `body` (an ES module's statements, with `BrowserPool` and `CHROMIUM` in scope) in a
 * process standing in for the worker; resolves with it and the lines it prints, as they come.
 */
function standIn(body: string) {
  const script = `
    const { BrowserPool } = await import(${JSON.stringify(POOL)});
    const CHROMIUM = ${JSON.stringify(CHROMIUM)};
    ${body}
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  child.stdout.on('data', (b: Buffer) => lines.push(...b.toString().split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, lines, exited };
}

describe.skipIf(process.platform !== 'linux')('the browser at shutdown', () => {
  it('keeps Chromium through a SIGTERM: the worker renders on, then closes it', async () => {
    const { child, lines, exited } = standIn(`
      const pool = new BrowserPool(CHROMIUM);
      const browser = await pool.get();
      process.once('SIGTERM', async () => {
        try {
          const page = await browser.newPage();
          await page.setContent('<p>rendered after the signal</p>');
          const pdf = await page.pdf();
          process.stdout.write('pdf ' + Buffer.from(pdf.subarray(0, 5)).toString() + '\\n');
        } catch (err) {
          process.stdout.write('failed ' + err.message + '\\n');
        }
        await pool.close();
        process.exit(0);
      });
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);
    `);
    await vi.waitUntil(() => lines.includes('ready'), { timeout: 20_000, interval: 50 });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines).toEqual(['ready', 'pdf %PDF-']);
  }, 40_000);

  it('closes while Chromium is still launching: close returns, and no browser is left', async () => {
    const { child, lines, exited } = standIn(`
      const pool = new BrowserPool(CHROMIUM);
      const launching = pool.get();
      await pool.close();
      process.stdout.write('closed\\n');
      const launched = await launching.then(() => 'launched', () => 'launch failed');
      process.stdout.write(launched + '\\n');
      setInterval(() => {}, 1000);
    `);
    try {
      await vi.waitUntil(() => lines.length === 2, { timeout: 30_000, interval: 50 });
      expect(lines[0]).toBe('closed');
      // The process is still alive (its pipe open): only the pool can have ended the browser.
      await vi.waitUntil(async () => (await browsersOf(child.pid!)).length === 0, {
        timeout: 10_000,
        interval: 100,
      });
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  }, 40_000);
});
