/**
 * Makes sure the system programs the tests need are installed before `pnpm test` runs them:
 * Chromium (the browser tests drive the system Chromium; no browser is downloaded), wrk (the
 * load generator of the reads benchmark's smoke run) and kubectl or kustomize (the manifest
 * test renders the Kubernetes overlays). On a machine where this process may install system
 * packages (root, apt-get present) it installs the missing Debian packages; otherwise, or for
 * a program Debian has no usable package of, it stops at once saying what to run or install.
 * Exit code 0 when everything is there.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A program the tests need and what installs it. */
export interface TSystemPackage {
  bin: string;
  /** Programs that do as well: any one of `bin` and these on PATH is enough. */
  or?: string[];
  /**
   * The Debian package that installs it, or, where Debian's package will not do (too old),
   * how to install it by hand.
   */
  pkg: string | { manual: string };
  /** What it is for, shown when it is missing. */
  why: string;
}

/** What the tests need from the system. */
export const TEST_SYSTEM_PACKAGES: TSystemPackage[] = [
  { bin: 'chromium', pkg: 'chromium', why: 'browser tests' },
  { bin: 'wrk', pkg: 'wrk', why: "the reads benchmark's load generator" },
  {
    bin: 'kubectl',
    or: ['kustomize'],
    // bookworm's kubernetes-client is kubectl 1.20, whose kustomize 2 cannot read the overlays.
    pkg: {
      manual:
        'kubectl 1.27 or newer (https://kubernetes.io/docs/tasks/tools/) or a standalone kustomize 5 (https://kubectl.docs.kubernetes.io/installation/kustomize/)',
    },
    why: 'the manifest test renders the Kubernetes overlays with kustomize 5',
  },
];

/** What to do about the missing packages. */
export type TSystemPackagesPlan =
  | { action: 'none' }
  | { action: 'install'; packages: string[] }
  | { action: 'stop'; packages: string[]; command: string | null; manual: string[] };

/**
 * Decides from what is missing and what this process may do: nothing missing, install (root
 * with apt-get, every missing one a Debian package), or stop with the command for the user to
 * run (`sudo` unless root) and what to install by hand.
 */
export function planSystemPackages(
  missing: TSystemPackage[],
  can: { root: boolean; apt: boolean },
): TSystemPackagesPlan {
  if (missing.length === 0) return { action: 'none' };
  const packages = missing.flatMap((m) => (typeof m.pkg === 'string' ? [m.pkg] : []));
  const manual = missing.flatMap((m) => (typeof m.pkg === 'string' ? [] : [m.pkg.manual]));
  if (can.root && can.apt && manual.length === 0) return { action: 'install', packages };
  const sudo = can.root ? '' : 'sudo ';
  return {
    action: 'stop',
    packages,
    command:
      packages.length > 0
        ? `${sudo}apt-get update && ${sudo}apt-get install -y ${packages.join(' ')}`
        : null,
    manual,
  };
}

/** True when the program `p` needs, or one that does as well, is on PATH. */
export function present(p: TSystemPackage, path = process.env.PATH ?? ''): boolean {
  return [p.bin, ...(p.or ?? [])].some((bin) => onPath(bin, path));
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
  const missing = TEST_SYSTEM_PACKAGES.filter((p) => !present(p));
  const plan = planSystemPackages(missing, {
    root: process.getuid?.() === 0,
    apt: onPath('apt-get'),
  });
  if (plan.action === 'none') return;
  const what = missing.map((m) => `${[m.bin, ...(m.or ?? [])].join(' or ')} (${m.why})`).join(', ');
  if (plan.action === 'stop') {
    const steps = [
      ...(plan.command ? [plan.command] : []),
      ...plan.manual.map((m) => `install ${m}`),
    ];
    console.error(`The tests need ${what}. Install with:\n  ${steps.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`The tests need ${what}: installing ${plan.packages.join(' ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...plan.packages], { stdio: 'inherit', env });
  const still = missing.filter((m) => !present(m));
  if (still.length > 0) {
    console.error(`apt-get did not install ${still.map((m) => m.bin).join(', ')}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
