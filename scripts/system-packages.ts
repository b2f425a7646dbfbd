/**
 * Makes sure the Debian packages the tests need are installed before `pnpm test` runs them:
 * Chromium (the browser tests drive the system Chromium; no browser is downloaded) and wrk (the
 * load generator of the reads benchmark's smoke run). On a machine where this process may
 * install system packages (root, apt-get present) it installs the missing ones; otherwise it
 * stops at once with the exact command to run. Exit code 0 when everything is there.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A program the tests need and the Debian package that installs it. */
export interface TSystemPackage {
  bin: string;
  pkg: string;
  /** What it is for, shown when it is missing. */
  why: string;
}

/** What the tests need from the system. */
export const TEST_SYSTEM_PACKAGES: TSystemPackage[] = [
  { bin: 'chromium', pkg: 'chromium', why: 'browser tests' },
  { bin: 'wrk', pkg: 'wrk', why: "the reads benchmark's load generator" },
];

/** What to do about the missing packages. */
export type TSystemPackagesPlan =
  | { action: 'none' }
  | { action: 'install'; packages: string[] }
  | { action: 'stop'; packages: string[]; command: string };

/**
 * Decides from what is missing and what this process may do: nothing missing, install (root
 * with apt-get), or stop with the command for the user to run (`sudo` unless root).
 */
export function planSystemPackages(
  missing: TSystemPackage[],
  can: { root: boolean; apt: boolean },
): TSystemPackagesPlan {
  if (missing.length === 0) return { action: 'none' };
  const packages = missing.map((m) => m.pkg);
  if (can.root && can.apt) return { action: 'install', packages };
  const sudo = can.root ? '' : 'sudo ';
  return {
    action: 'stop',
    packages,
    command: `${sudo}apt-get update && ${sudo}apt-get install -y ${packages.join(' ')}`,
  };
}

/** True when `bin` is an executable file in one of the `PATH` folders. */
export function onPath(bin: string, path = process.env.PATH ?? ''): boolean {
  return path.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, bin), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function main(): void {
  const missing = TEST_SYSTEM_PACKAGES.filter((p) => !onPath(p.bin));
  const plan = planSystemPackages(missing, {
    root: process.getuid?.() === 0,
    apt: onPath('apt-get'),
  });
  if (plan.action === 'none') return;
  const what = missing.map((m) => `${m.bin} (${m.why})`).join(', ');
  if (plan.action === 'stop') {
    console.error(`The tests need ${what}. Install with:\n  ${plan.command}`);
    process.exit(1);
  }
  console.log(`The tests need ${what}: installing ${plan.packages.join(' ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...plan.packages], { stdio: 'inherit', env });
  const still = missing.filter((m) => !onPath(m.bin));
  if (still.length > 0) {
    console.error(`apt-get did not install ${still.map((m) => m.bin).join(', ')}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
