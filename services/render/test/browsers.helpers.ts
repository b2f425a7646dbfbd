import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { OWNER_SWITCH } from '../src/browser.pool';

/** The browser pool's source, for stand-in worker processes to import. */
export const POOL = fileURLToPath(new URL('../src/browser.pool.ts', import.meta.url));

/** The system Chromium the tests launch. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Pids of the processes whose command line carries `--aso-render-owner={owner}`. */
export async function browsersOf(owner: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(`${OWNER_SWITCH}=${owner}`)) found.push(Number(entry));
  }
  return found;
}
