import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (this file is e2e/support/paths.ts). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The web app's folder. */
export const WEB_DIR = join(REPO_ROOT, 'apps', 'web');
/** Screenshots of the browser tests (git-ignored `artifacts/`). */
export const ARTIFACTS_DIR = join(REPO_ROOT, 'artifacts', 'e2e');
