/**
 * The whole system as `pnpm start --offline` runs it (scripts/start.ts: the supervisor, the
 * replay server, the api and the three workers, each a real child process), on a Redis server
 * of its own (a free port, nothing persisted, so a restart comes back empty, as Redis runs on
 * these machines) and a database of its own (cloned from the migrated template), so that a
 * fault case can kill -9 a worker, restart Redis or end the database connections without
 * touching anything else on the machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ApiClient } from '@aso/api-client';
import { createTestDatabase, type TestDatabase } from '@aso/testkit';

/** The repository root (this file is faults/support/fault.system.ts). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Resolves once `check` is true (polled every `everyMs`), or throws naming `what`. */
export async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 100,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A redis-server of its own on a free port, without persistence. */
export class OwnRedis {
  private proc: ChildProcess | null = null;
  private readonly dir = mkdtempSync(join(tmpdir(), 'aso-faults-redis-'));

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.up();
    return redis;
  }

  /** Starts the server (empty) and waits until it answers PING. */
  async up(): Promise<void> {
    this.proc = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    await until('redis-server answering', () => this.ping(), 10_000, 50);
  }

  private async ping(): Promise<boolean> {
    const c = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null });
    c.on('error', () => undefined);
    try {
      await c.connect();
      return (await c.ping()) === 'PONG';
    } finally {
      c.disconnect();
    }
  }

  /** Kills the server outright (SIGKILL: nothing is saved) and waits until it is gone. */
  async kill(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null) return;
    const gone = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await gone;
    this.proc = null;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Options of {@link FaultSystem.start}. */
export interface FaultSystemOptions {
  /** Delay the replay server adds to every store answer (ms): scrapes last long enough to be killed. */
  storeDelayMs: number;
}

/**
 * The system under test: `scripts/start.ts --offline --no-build` with the environment
 * pointing at {@link OwnRedis} and a database of its own. Its output is kept to find the
 * services' pids (the supervisor's 'started (pid N)' lines) and their restarts.
 */
export class FaultSystem {
  readonly api: ApiClient;
  private output = '';

  private constructor(
    readonly redis: OwnRedis,
    readonly database: TestDatabase,
    readonly prefix: string,
    readonly adminCode: string,
    readonly apiUrl: string,
    private readonly proc: ChildProcess,
  ) {
    this.api = new ApiClient(apiUrl, 120_000);
    for (const stream of [proc.stdout!, proc.stderr!]) {
      stream.on('data', (chunk: Buffer) => {
        // Colour codes of the prefixes are dropped: the lines are searched as text.
        // eslint-disable-next-line no-control-regex -- ANSI colour escapes
        this.output += chunk.toString('utf8').replace(/\u001b\[[0-9;]*m/g, '');
        if (this.output.length > 20_000_000) this.output = this.output.slice(-10_000_000);
      });
    }
  }

  static async start(opts: FaultSystemOptions): Promise<FaultSystem> {
    const redis = await OwnRedis.start();
    const database = await createTestDatabase();
    const prefix = `faults-${randomUUID()}`;
    const adminCode = `FAULTS-${randomBytes(8).toString('hex').toUpperCase()}`;
    const port = await freePort();
    const replayPort = await freePort();
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        (e): e is [string, string] =>
          e[1] !== undefined && !/^(OPENAI_|AI_PROVIDER$|NODE_OPTIONS$|VITEST)/.test(e[0]),
      ),
    );
    const proc = spawn(
      process.execPath,
      // Without --no-build: `pnpm start` runs the services from dist/, and turbo rebuilds only
      // what changed, so the suite never runs a stale build.
      ['--import', 'tsx', join(REPO_ROOT, 'scripts/start.ts'), '--offline'],
      {
        cwd: REPO_ROOT,
        env: {
          ...inherited,
          DATABASE_URL: database.url,
          REDIS_URL: redis.url,
          QUEUE_PREFIX: prefix,
          PORT: String(port),
          HOST: '127.0.0.1',
          STORE_REPLAY_PORT: String(replayPort),
          STORE_REPLAY_DELAY_MS: String(opts.storeDelayMs),
          HEALTH_PORT: '0',
          WEB_DIST_DIR: '',
          LOG_LEVEL: 'info',
          ADMIN_ACCESS_CODE: adminCode,
          AI_PROVIDER: 'heuristic',
          AUTH_RATE_LIMIT_PER_MIN: '100000',
          ANALYZE_RATE_LIMIT_PER_MIN: '100000',
          UPLOAD_RATE_LIMIT_PER_MIN: '100000',
          // Every scrape reads the store: a cached snapshot would end a scrape before a kill.
          APP_CACHE_TTL: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const system = new FaultSystem(
      redis,
      database,
      prefix,
      adminCode,
      `http://127.0.0.1:${port}`,
      proc,
    );
    try {
      await until(
        'the system answering /readyz with every worker serving',
        async () => {
          if (proc.exitCode !== null) throw new Error(`start.ts exited:\n${system.tail()}`);
          const ready = await fetch(`${system.apiUrl}/readyz`, {
            signal: AbortSignal.timeout(2_000),
          });
          return (
            ready.ok &&
            ['scraper', 'analyzer', 'csv-merge'].every((s) =>
              new RegExp(`\\[${s}\\s*\\] .*health endpoint listening`).test(system.output),
            )
          );
        },
        180_000,
        250,
      );
    } catch (err) {
      await system.stop();
      throw new Error(`${(err as Error).message}\n${system.tail()}`);
    }
    return system;
  }

  /** The last `lines` lines of the system's output. */
  tail(lines = 40): string {
    return this.output.trimEnd().split('\n').slice(-lines).join('\n');
  }

  /** Everything the system printed so far. */
  get log(): string {
    return this.output;
  }

  /** Pid of the running process of service `name` (from the supervisor's last 'started' line). */
  pid(name: string): number {
    const re = new RegExp(`\\[${name}\\s*\\] started \\(pid (\\d+)\\)`, 'g');
    const all = [...this.output.matchAll(re)];
    const last = all.at(-1);
    if (!last) throw new Error(`no 'started' line of ${name}:\n${this.tail()}`);
    return Number(last[1]);
  }

  /** How many times the supervisor restarted service `name`. */
  restarts(name: string): number {
    return [...this.output.matchAll(new RegExp(`\\[${name}\\s*\\] exited .* restarting`, 'g'))]
      .length;
  }

  /** kill -9 of service `name`; resolves once the supervisor started it again and it serves. */
  async killAndAwaitRestart(name: string, serving: RegExp): Promise<void> {
    const before = this.restarts(name);
    const marks = this.output.length;
    process.kill(this.pid(name), 'SIGKILL');
    await until(`${name} restarted by the supervisor`, () => this.restarts(name) > before, 15_000);
    await until(`${name} serving again`, () => serving.test(this.output.slice(marks)), 120_000);
  }

  /** A command connection to the system's Redis (the caller closes it). */
  redisClient(): Redis {
    const c = new Redis(this.redis.url, { maxRetriesPerRequest: null });
    c.on('error', () => undefined);
    return c;
  }

  /** Ends every PostgreSQL session of the system's database (as an administrator would). */
  async terminateDatabaseSessions(): Promise<number> {
    const admin = new pg.Client({ connectionString: this.database.url });
    await admin.connect();
    try {
      const res = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [this.database.name],
      );
      return res.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }

  /** Stops every process (the supervisor ends its children), Redis and the database. */
  async stop(): Promise<void> {
    if (this.proc.exitCode === null) {
      const gone = new Promise((r) => this.proc.once('exit', r));
      this.proc.kill('SIGTERM');
      const force = setTimeout(() => this.proc.kill('SIGKILL'), 30_000);
      await gone;
      clearTimeout(force);
    }
    await this.redis.stop();
    await this.database.drop().catch(() => undefined);
  }
}
