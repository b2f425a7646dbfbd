/**
 * The process supervision of `pnpm start`: each service runs as its own child process with its
 * output prefixed by its name; one that exits while the system is not stopping is started
 * again after a backoff, with a line saying so, and the others go on serving.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** First restart delay (ms); it doubles per crash in a row, up to {@link MAX_RESTART_DELAY_MS}. */
export const FIRST_RESTART_DELAY_MS = 1_000;
/** Longest restart delay (ms). */
export const MAX_RESTART_DELAY_MS = 30_000;
/** A process that ran this long (ms) before exiting counts as healthy: its backoff starts over. */
export const HEALTHY_RUN_MS = 60_000;

/**
 * Delay before the restart that follows the `crashes`-th crash in a row (1-based): 1 s, 2 s,
 * 4 s, ... at most 30 s.
 */
export function restartDelayMs(crashes: number): number {
  return Math.min(FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, crashes - 1), MAX_RESTART_DELAY_MS);
}

/** One supervised service. */
export interface TServiceSpec {
  /** Name in the log prefix, e.g. `scraper`. */
  name: string;
  /** Executable and arguments. */
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** Where the supervisor writes (process.stdout in `pnpm start`; a buffer in tests). */
export interface TSupervisorOutput {
  write(text: string): void;
}

const COLORS = ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m', '\x1b[34m'];

class Supervised {
  child: ChildProcess | null = null;
  crashes = 0;
  restarts = 0;
  private startedAt = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly spec: TServiceSpec,
    private readonly prefix: string,
    private readonly out: TSupervisorOutput,
    private readonly stopping: () => boolean,
  ) {}

  start(): void {
    this.timer = null;
    this.startedAt = Date.now();
    const child = spawn(this.spec.command, this.spec.args, {
      cwd: this.spec.cwd,
      env: this.spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.out.write(`${this.prefix}started (pid ${child.pid ?? '?'})\n`);
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk: Buffer) => {
        const lines = (rest + chunk.toString('utf8')).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) this.out.write(this.prefix + line + '\n');
      });
    }
    child.on('error', (err) => this.out.write(`${this.prefix}could not start: ${err.message}\n`));
    child.on('exit', (code, signal) => this.onExit(code, signal));
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.child = null;
    if (this.stopping()) return;
    const ranMs = Date.now() - this.startedAt;
    this.crashes = ranMs >= HEALTHY_RUN_MS ? 1 : this.crashes + 1;
    this.restarts++;
    const delay = restartDelayMs(this.crashes);
    this.out.write(
      `${this.prefix}exited (${signal ?? `code ${code}`}) after ${(ranMs / 1000).toFixed(1)} s; ` +
        `restarting in ${(delay / 1000).toFixed(0)} s (restart ${this.restarts})\n`,
    );
    this.timer = setTimeout(() => this.start(), delay);
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited (or was never restarted). */
  stop(graceMs: number): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
    });
  }
}

/**
 * Runs services as child processes and keeps them running: a service that exits (crash,
 * `kill -9`, out of memory) is restarted after {@link restartDelayMs} of its crashes in a row
 * (reset after a run of {@link HEALTHY_RUN_MS}), and the line
 * `[name] exited (SIGKILL) after 12.3 s; restarting in 1 s (restart 1)` says so. `stop()` ends
 * them all (SIGTERM, then SIGKILL after the grace period) and restarts none.
 */
export class Supervisor {
  private readonly services: Supervised[] = [];
  private stopping = false;

  constructor(private readonly out: TSupervisorOutput) {}

  /** Starts `spec` now and supervises it. */
  add(spec: TServiceSpec): void {
    const color = COLORS[this.services.length % COLORS.length]!;
    const prefix = `${color}[${spec.name.padEnd(9)}]\x1b[0m `;
    const s = new Supervised(spec, prefix, this.out, () => this.stopping);
    this.services.push(s);
    s.start();
  }

  /** Pid of the running process of service `name`, or null while it is down. */
  pid(name: string): number | null {
    return this.services.find((s) => s.spec.name === name)?.child?.pid ?? null;
  }

  /** Restarts so far of service `name`. */
  restarts(name: string): number {
    return this.services.find((s) => s.spec.name === name)?.restarts ?? 0;
  }

  /** Stops every service; none is restarted afterwards. */
  async stop(graceMs = 15_000): Promise<void> {
    this.stopping = true;
    await Promise.all(this.services.map((s) => s.stop(graceMs)));
  }
}
