/**
 * The browser tests' own production build of the web app, one folder per version of the
 * sources: `.tmp/e2e-web/<hash>` (git-ignored). Keyed by content, so concurrent test runs of
 * different engineers never build into a folder another run is serving, and an unchanged tree
 * reuses its build. `apps/web/dist` is left alone (others rebuild it at any time).
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { execa } from 'execa';
import { REPO_ROOT, WEB_DIR } from './paths';

/** Where the builds live. */
export const E2E_WEB_BUILDS_DIR = join(REPO_ROOT, '.tmp', 'e2e-web');

/** Sources whose content defines a build: the app and the workspace packages it bundles. */
const WEB_SOURCES = [
  join(WEB_DIR, 'src'),
  join(WEB_DIR, 'index.html'),
  join(WEB_DIR, 'vite.config.ts'),
  join(WEB_DIR, 'build-plugins.ts'),
  join(WEB_DIR, 'package.json'),
  ...['contracts', 'api-client', 'appstore', 'aso-rules', 'analytics'].map((p) =>
    join(REPO_ROOT, 'packages', p, 'src'),
  ),
];

function listFiles(path: string, out: string[]): void {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    out.push(path);
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === 'node_modules' || entry === 'dist' || entry.endsWith('.test.ts')) continue;
    listFiles(join(path, entry), out);
  }
}

/** SHA-256 (first 16 hex digits) over the sources' paths and contents. */
export function webSourcesHash(): string {
  const files: string[] = [];
  for (const source of WEB_SOURCES) listFiles(source, files);
  const hash = createHash('sha256');
  for (const file of files)
    hash.update(relative(REPO_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * Returns the folder of a production build of the current sources, building it first when
 * none exists (about a minute or two). With `E2E_SKIP_BUILD=1` the newest existing build is
 * used whatever the sources (for re-running tests quickly); throws if there is none.
 */
export async function ensureWebBuild(): Promise<string> {
  if (process.env.E2E_SKIP_BUILD === '1') {
    const builds = existsSync(E2E_WEB_BUILDS_DIR)
      ? readdirSync(E2E_WEB_BUILDS_DIR)
          .filter(
            (d) =>
              !d.includes('.partial-') && existsSync(join(E2E_WEB_BUILDS_DIR, d, 'index.html')),
          )
          .map((d) => join(E2E_WEB_BUILDS_DIR, d))
          .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
      : [];
    if (!builds[0]) throw new Error('E2E_SKIP_BUILD=1 but no web build exists under .tmp/e2e-web');
    return builds[0];
  }
  const dir = join(E2E_WEB_BUILDS_DIR, webSourcesHash());
  if (existsSync(join(dir, 'index.html'))) return dir;

  const partial = `${dir}.partial-${process.pid}`;
  mkdirSync(E2E_WEB_BUILDS_DIR, { recursive: true });
  console.log(`[e2e] building the web app into ${relative(REPO_ROOT, dir)}`);
  await execa(
    'pnpm',
    ['--filter', '@aso/web', 'exec', 'vite', 'build', '--outDir', partial, '--emptyOutDir'],
    {
      cwd: REPO_ROOT,
      // vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
      env: { NODE_ENV: 'production' },
      stdio: 'inherit',
      timeout: 600_000,
    },
  );
  try {
    renameSync(partial, dir);
  } catch {
    // Another run finished the same build first: use theirs.
    rmSync(partial, { recursive: true, force: true });
  }
  removeOldBuilds(dir);
  return dir;
}

/** Deletes builds untouched for a day (never the current one), so `.tmp` does not grow forever. */
function removeOldBuilds(keep: string): void {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const entry of readdirSync(E2E_WEB_BUILDS_DIR)) {
    const path = join(E2E_WEB_BUILDS_DIR, entry);
    if (path !== keep && statSync(path).mtimeMs < dayAgo)
      rmSync(path, { recursive: true, force: true });
  }
}
