import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * Repository root: two folders above this package's root, the nearest folder up from this
 * module (`src/replay/env.ts`, or the built `dist/*.js`) that holds a package.json.
 */
function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) {
    dir = path.dirname(dir);
  }
  return path.resolve(dir, '../..');
}
const REPO_ROOT = repoRoot();

/**
 * This project's constructed recordings (`packages/appstore/test/recordings`, every file marked
 * `constructed-`): served beside the real ones by `pnpm store:replay`, so offline runs show
 * search ranks for the recorded apps.
 */
export const CONSTRUCTED_RECORDINGS_DIR = path.resolve(
  REPO_ROOT,
  'packages/appstore/test/recordings',
);

/** Default fixtures root: `<repo>/../shared/fixtures` (house rule: never copied into the repo). */
export const DEFAULT_FIXTURES_DIR = path.resolve(REPO_ROOT, '../shared/fixtures');

/**
 * Settings of the replay server (`pnpm store:replay`):
 * - `STORE_REPLAY_PORT` (default 4100; 0 = any free port),
 * - `STORE_REPLAY_HOST` (default 127.0.0.1: loopback only),
 * - `FIXTURES_DIR` (fixtures root, default `<repo>/../shared/fixtures`; recordings are read
 *   from its `appstore/` folder),
 * - `STORE_REPLAY_DELAY_MS` (delay added to every answer in ms, default 0; for benchmarks),
 * - `STORE_REPLAY_AS_OF` (`YYYY-MM-DD`: answer with the newest recordings captured on or
 *   before that day; default none, the newest recordings).
 */
export const ZReplayEnv = z.object({
  STORE_REPLAY_PORT: z.coerce.number().int().min(0).max(65535).default(4100),
  STORE_REPLAY_HOST: z.string().min(1).default('127.0.0.1'),
  FIXTURES_DIR: z.string().min(1).default(DEFAULT_FIXTURES_DIR),
  STORE_REPLAY_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  STORE_REPLAY_AS_OF: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day written YYYY-MM-DD')
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'must be a real day')
    .optional(),
});
export type TReplayEnv = z.infer<typeof ZReplayEnv>;

/**
 * Parses the replay settings from an environment object. Throws an Error naming each bad
 * variable (e.g. `STORE_REPLAY_PORT: Too big: expected number to be <=65535`).
 */
export function parseReplayEnv(source: Record<string, string | undefined>): TReplayEnv {
  // Empty strings count as unset, as in a .env file with `NAME=`.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = ZReplayEnv.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid replay server environment: ${problems.join('; ')}`);
  }
  return result.data;
}

/** The replay settings of this process (read when called, not at import). */
export function loadReplayEnv(): TReplayEnv {
  return parseReplayEnv(process.env);
}
