import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (this file is e2e/support/paths.ts). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The web app's folder and its build output. */
export const WEB_DIR = join(REPO_ROOT, 'apps', 'web');
export const WEB_DIST_DIR = join(WEB_DIR, 'dist');
/** Screenshots of the browser tests (git-ignored `artifacts/`). */
export const ARTIFACTS_DIR = join(REPO_ROOT, 'artifacts', 'e2e');
