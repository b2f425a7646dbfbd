import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is bench/src/harness/service.process.ts). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Options of {@link spawnService}. */
export interface TSpawnServiceOptions {
  /** Name in logs and tables, e.g. `api`, `scraper-2`. */
  name: string;
  /** Script to run with tsx, relative to the repository root. */
  script: string;
  env: Record<string, string>;
  /** File that receives the process's stdout and stderr. */
  logFile: string;
  /** Extra node flags (e.g. `--cpu-prof`), put before the tsx loader. */
  nodeArgs?: string[];
  /** Modules preloaded after tsx (`--import`), e.g. the event-loop probe. */
  preload?: string[];
}

/** A running service process. */
export interface TServiceProcess {
  readonly name: string;
  /** Pid of the node process that runs the service itself (no tsx wrapper in between). */
  readonly pid: number;
  readonly logFile: string;
  /** Settles with the exit code (or signal name) when the process exits. */
  readonly exited: Promise<number | string>;
  /** True once the process exited. */
  readonly hasExited: boolean;
  /** The log so far (for readiness checks and error messages). */
  readLog(): string;
  /** The last `lines` lines of the log. */
  tail(lines?: number): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** Variables never passed to services: a key would switch the analyzer to OpenAI. */
const DROPPED_ENV = /^(OPENAI_|AI_PROVIDER$|NODE_OPTIONS$)/;

/**
 * Starts a service from its sources, one process per service as `pnpm start` runs them, as
 * `node --conditions=@aso/source --import tsx <script>` so the pid is the service's own process
 * and /proc figures are its own (no build step before a benchmark). Output goes to `logFile`, never through this process.
 */
export function spawnService(opts: TSpawnServiceOptions): TServiceProcess {
  const fd = openSync(opts.logFile, 'a');
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !DROPPED_ENV.test(e[0]),
    ),
  );
  const args = [
    ...(opts.nodeArgs ?? []),
    // Workspace packages from their sources (the `@aso/source` export condition), as in tests.
    '--conditions=@aso/source',
    '--import',
    'tsx',
    ...(opts.preload ?? []).flatMap((p) => ['--import', p]),
    join(REPO_ROOT, opts.script),
  ];
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { ...inherited, ...opts.env },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  if (child.pid === undefined) throw new Error(`${opts.name}: could not start ${opts.script}`);
  const pid = child.pid;
  let exitedFlag = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedFlag = true;
      resolve(code ?? signal ?? 'unknown');
    });
  });
  const readLog = () => {
    try {
      return readFileSync(opts.logFile, 'utf8');
    } catch {
      return '';
    }
  };
  return {
    name: opts.name,
    pid,
    logFile: opts.logFile,
    exited,
    get hasExited() {
      return exitedFlag;
    },
    readLog,
    tail: (lines = 20) => readLog().trimEnd().split('\n').slice(-lines).join('\n'),
    stop: async (graceMs = 15_000) => {
      if (exitedFlag) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Waits until `check` resolves true, polling every `intervalMs`; fails early when `proc`
 * exits. @throws Error naming `what`, with the end of the process log, after `timeoutMs`.
 */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  opts: { timeoutMs: number; intervalMs?: number; proc?: TServiceProcess },
): Promise<void> {
  const until = Date.now() + opts.timeoutMs;
  for (;;) {
    if (opts.proc?.hasExited) {
      throw new Error(
        `${opts.proc.name} exited before ${what}; its log ends with:\n${opts.proc.tail()}`,
      );
    }
    try {
      if (await check()) return;
    } catch {
      // not ready yet
    }
    if (Date.now() > until) {
      const log = opts.proc ? `; its log ends with:\n${opts.proc.tail()}` : '';
      throw new Error(`${what} did not happen within ${opts.timeoutMs} ms${log}`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 200));
  }
}

/** True when `url` answers 2xx within 2 s. */
export async function answersOk(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}
