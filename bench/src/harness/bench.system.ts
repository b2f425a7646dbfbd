import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { DEFAULT_FIXTURES_DIR } from '@aso/appstore/node';
import { createRedis, Producers, type TQueueName } from '@aso/queue';
import { createTestDatabase, deletePrefix, redisUrl, type TTestDatabase } from '@aso/testkit';
import { ApiClient } from '@aso/api-client';
import { nodeFlagsOf } from '@aso/contracts';
import { createUsers } from './bench.users';
import { freeBenchPort, releaseBenchPort } from './ports.helpers';
import { answersOk, spawnService, waitFor, type TServiceProcess } from './service.process';

/** A process's memory as the probe reports it (bytes). */
export interface TProcessMemory {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Per V8 heap space (new_space, old_space, code_space, large_object_space, ...). */
  spaces: Record<string, { size: number; used: number }>;
}

/** The worker services and their entry scripts (as scripts/start.ts runs them). */
export const WORKER_SCRIPTS = {
  scraper: 'services/scraper/src/main.ts',
  analyzer: 'services/analyzer/src/main.ts',
  'csv-merge': 'services/csv-merge/src/main.ts',
  'asc-import': 'services/asc-import/src/main.ts',
} as const;
export type TWorkerKind = keyof typeof WORKER_SCRIPTS;

/** Options of {@link BenchSystem.start}. */
export interface TBenchSystemOptions {
  /** Label of this system in process names and log files, e.g. `audit`. */
  label: string;
  /** Folder for the logs (and CPU profiles) of the processes. */
  workDir: string;
  /** Delay the replay server adds to every store answer (ms). */
  storeDelayMs: number;
  /** Extra api environment. */
  apiEnv?: Record<string, string>;
  /** Write a V8 CPU profile of every service process into `<workDir>/profiles/<label>` (node --cpu-prof). */
  cpuProfile?: boolean;
  /** Log level of the services (default `info`, as `pnpm start` runs them). */
  logLevel?: string;
}

/** How many processes of one worker kind, with what extra environment. */
export interface TWorkerGroup {
  count: number;
  env?: Record<string, string>;
}

/** The worker processes wanted, per kind; kinds left out are not touched. */
export type TWorkerSpec = Partial<Record<TWorkerKind, TWorkerGroup>>;

interface TWorker {
  kind: TWorkerKind;
  /** The extra environment it was started with, as a comparable key. */
  envKey: string;
  proc: TServiceProcess;
}

const SERVICE_START_TIMEOUT_MS = 120_000;

/** How long the benchmark's api waits for a merge before answering 504 (ms; `UPLOAD_WAIT_MS`). */
export const UPLOAD_WAIT_MS = 240_000;

/**
 * The whole system on this machine for one benchmark, as `pnpm start` runs it but isolated:
 * a fresh migrated database, a fresh Redis key prefix, the store replay server (with a
 * per-answer delay imitating the store's latency), the api, and the workers as separate
 * processes managed on demand ({@link BenchSystem.ensureWorkers}: two scrapers, a scraper
 * without cache, ...). Ports come from 4280-4299; workers' health ports are 0. The api runs
 * with the event-loop probe preloaded and high rate limits (the benchmark's users would
 * otherwise be refused).
 */
export class BenchSystem {
  readonly api: ApiClient;
  /** Command connection to Redis (probes, queue pause and resume, key cleanup). */
  readonly redis: Redis;
  private workers: TWorker[] = [];
  private counter = 0;
  private readonly producers: Producers;

  private constructor(
    readonly opts: TBenchSystemOptions,
    readonly database: TTestDatabase,
    readonly prefix: string,
    readonly adminCode: string,
    readonly apiPort: number,
    readonly probePort: number,
    readonly replayPort: number,
    private replay: TServiceProcess,
    readonly apiProcess: TServiceProcess,
    private storeDelay: number,
  ) {
    this.api = new ApiClient(`http://127.0.0.1:${apiPort}`);
    this.redis = createRedis(redisUrl(), { role: 'producer', name: `bench:${opts.label}` });
    this.redis.on('error', () => undefined);
    this.producers = new Producers(this.redis, prefix);
  }

  /** Origin of the replay server (`ITUNES_ORIGIN` and `APP_STORE_ORIGIN` of the scraper). */
  get replayUrl(): string {
    return `http://127.0.0.1:${this.replayPort}`;
  }

  /** Delay the replay server currently adds to each answer (ms). */
  get storeDelayMs(): number {
    return this.storeDelay;
  }

  /** The event-loop probe inside the api process (see probes/loop-delay.probe.ts). */
  get probeUrl(): string {
    return `http://127.0.0.1:${this.probePort}`;
  }

  /** Running worker processes. */
  get workerProcesses(): readonly TServiceProcess[] {
    return this.workers.filter((w) => !w.proc.hasExited).map((w) => w.proc);
  }

  /** Where the CPU profiles of this system's processes are written (`--profile`), one folder per process. */
  static profileDir(opts: Pick<TBenchSystemOptions, 'workDir' | 'label'>): string {
    return join(opts.workDir, 'profiles', opts.label);
  }

  /** Node flags of a service process: its own, as `pnpm start` and the images run it, plus profiling. */
  private static nodeArgs(opts: TBenchSystemOptions, name: string): string[] {
    const service = nodeFlagsOf(name.replace(/-\d+$/, ''));
    return opts.cpuProfile
      ? // One folder per process: tsx's loader thread writes a profile of its own next to the main thread's.
        [...service, '--cpu-prof', `--cpu-prof-dir=${join(BenchSystem.profileDir(opts), name)}`]
      : [...service];
  }

  private static async startReplay(
    opts: TBenchSystemOptions,
    port: number,
    delayMs: number,
    n: number,
  ): Promise<TServiceProcess> {
    const proc = spawnService({
      name: 'replay',
      script: 'packages/appstore/src/replay/replay.cli.ts',
      env: {
        STORE_REPLAY_PORT: String(port),
        STORE_REPLAY_HOST: '127.0.0.1',
        STORE_REPLAY_DELAY_MS: String(delayMs),
        FIXTURES_DIR: process.env.FIXTURES_DIR || DEFAULT_FIXTURES_DIR,
      },
      logFile: join(opts.workDir, `${opts.label}-replay-${n}.log`),
    });
    await waitFor(
      'the replay server answering',
      () => answersOk(`http://127.0.0.1:${port}/__health`),
      {
        timeoutMs: SERVICE_START_TIMEOUT_MS,
        proc,
      },
    );
    return proc;
  }

  /** Creates the database and prefix, starts the replay server and the api, and waits until both answer. */
  static async start(opts: TBenchSystemOptions): Promise<BenchSystem> {
    const database = await createTestDatabase();
    const prefix = `bench-${randomUUID()}`;
    const ports: number[] = [];
    try {
      const [apiPort, probePort, replayPort] = [
        await freeBenchPort(),
        await freeBenchPort(),
        await freeBenchPort(),
      ] as const;
      ports.push(apiPort, probePort, replayPort);
      const replay = await BenchSystem.startReplay(opts, replayPort, opts.storeDelayMs, 0);
      const adminCode = `BENCH-${randomBytes(8).toString('hex').toUpperCase()}`;
      const apiProcess = spawnService({
        name: 'api',
        script: 'services/api/src/main.ts',
        env: {
          HOST: '127.0.0.1',
          PORT: String(apiPort),
          DATABASE_URL: database.url,
          REDIS_URL: redisUrl(),
          QUEUE_PREFIX: prefix,
          LOG_LEVEL: opts.logLevel ?? 'info',
          ADMIN_ACCESS_CODE: adminCode,
          AUTH_RATE_LIMIT_PER_MIN: '1000000',
          ANALYZE_RATE_LIMIT_PER_MIN: '1000000',
          UPLOAD_RATE_LIMIT_PER_MIN: '1000000',
          // Every load generator connects from one address (loopback): thousands of streams.
          CONNECTIONS_PER_ADDRESS_MAX: '1000000',
          // One benchmark user uploads far more exports in a run than a person keeps (the CSV
          // ladder alone stores about 300 MB): the storage quota is the abuse suite's to check.
          USER_STORAGE_QUOTA_MB: '1048576',
          // Long enough to time a slow merge, short of undici's 300 s headers timeout in fetch.
          UPLOAD_WAIT_MS: String(UPLOAD_WAIT_MS),
          WEB_DIST_DIR: '',
          BENCH_PROBE_PORT: String(probePort),
          ...opts.apiEnv,
        },
        logFile: join(opts.workDir, `${opts.label}-api.log`),
        nodeArgs: BenchSystem.nodeArgs(opts, 'api'),
        preload: [new URL('../probes/loop-delay.probe.ts', import.meta.url).href],
      });
      try {
        await waitFor(
          'the api answering /readyz',
          () => answersOk(`http://127.0.0.1:${apiPort}/readyz`),
          {
            timeoutMs: SERVICE_START_TIMEOUT_MS,
            proc: apiProcess,
          },
        );
      } catch (err) {
        await replay.stop();
        await apiProcess.stop();
        throw err;
      }
      return new BenchSystem(
        opts,
        database,
        prefix,
        adminCode,
        apiPort,
        probePort,
        replayPort,
        replay,
        apiProcess,
        opts.storeDelayMs,
      );
    } catch (err) {
      for (const p of ports) releaseBenchPort(p);
      await database.drop().catch(() => undefined);
      throw err;
    }
  }

  /** Restarts the replay server on the same port with another per-answer delay (ms). */
  async setStoreDelay(delayMs: number): Promise<void> {
    if (delayMs === this.storeDelay && !this.replay.hasExited) return;
    await this.replay.stop();
    this.replay = await BenchSystem.startReplay(
      this.opts,
      this.replayPort,
      delayMs,
      ++this.counter,
    );
    this.storeDelay = delayMs;
  }

  /**
   * Makes the workers of each kind in `spec` exactly `count` processes with that extra
   * environment: running ones that match are kept (worker starts cost seconds), others of that
   * kind are stopped (so no process with other settings takes the jobs), missing ones are
   * started (heuristic analyzer; store origins on the replay server; health ports 0) and
   * waited for until they serve their queue. Returns the processes of the spec's kinds.
   */
  async ensureWorkers(spec: TWorkerSpec): Promise<TServiceProcess[]> {
    const started: TServiceProcess[] = [];
    const result: TServiceProcess[] = [];
    for (const kind of Object.keys(WORKER_SCRIPTS) as TWorkerKind[]) {
      const group = spec[kind];
      if (!group) continue;
      const envKey = JSON.stringify(Object.entries(group.env ?? {}).sort());
      const running = this.workers.filter((w) => w.kind === kind && !w.proc.hasExited);
      const keep = running.filter((w) => w.envKey === envKey).slice(0, group.count);
      await this.stopWorkers(running.filter((w) => !keep.includes(w)).map((w) => w.proc));
      result.push(...keep.map((w) => w.proc));
      for (let i = keep.length; i < group.count; i++) {
        const name = `${kind}-${++this.counter}`;
        const proc = spawnService({
          name,
          script: WORKER_SCRIPTS[kind],
          env: {
            DATABASE_URL: this.database.url,
            REDIS_URL: redisUrl(),
            QUEUE_PREFIX: this.prefix,
            HEALTH_PORT: '0',
            // Readiness is read from the 'health endpoint listening' line, logged at info.
            LOG_LEVEL: 'info',
            ITUNES_ORIGIN: this.replayUrl,
            APP_STORE_ORIGIN: this.replayUrl,
            AI_PROVIDER: 'heuristic',
            // The merge benchmarks time files far above the row cap of real exports (and
            // longer than a real merge's time budget): they measure the streaming itself.
            MERGE_MAX_ROWS: '100000000',
            MERGE_TIME_BUDGET_MS: '3600000',
            ...group.env,
          },
          logFile: join(this.opts.workDir, `${this.opts.label}-${name}.log`),
          nodeArgs: BenchSystem.nodeArgs(this.opts, name),
        });
        started.push(proc);
        result.push(proc);
        this.workers.push({ kind, envKey, proc });
      }
    }
    await Promise.all(
      started.map((proc) =>
        waitFor(
          `${proc.name} serving its queue`,
          () => proc.readLog().includes('health endpoint listening'),
          {
            timeoutMs: SERVICE_START_TIMEOUT_MS,
            proc,
          },
        ),
      ),
    );
    return result;
  }

  /** Stops the given worker processes (all when omitted), letting in-flight jobs finish. */
  async stopWorkers(which?: readonly TServiceProcess[]): Promise<void> {
    const stopping = which ? this.workers.filter((w) => which.includes(w.proc)) : this.workers;
    await Promise.all(stopping.map((w) => w.proc.stop()));
    this.workers = this.workers.filter((w) => !stopping.includes(w));
  }

  /**
   * Pauses (true) or resumes (false) a queue for every worker (BullMQ's global pause, through
   * the product's producers): jobs added meanwhile wait and no event is emitted for them.
   */
  async pauseQueue(queue: TQueueName, paused: boolean): Promise<void> {
    const q = this.producers.queue(queue);
    if (paused) await q.pause();
    else await q.resume();
  }

  /** Stops every process, drops the database and deletes the Redis keys of the prefix. */
  async close(): Promise<void> {
    await this.stopWorkers();
    await this.apiProcess.stop();
    await this.replay.stop();
    await this.producers.close().catch(() => undefined);
    await deletePrefix(this.prefix).catch(() => undefined);
    this.redis.disconnect();
    await this.database.drop().catch(() => undefined);
    for (const p of [this.apiPort, this.probePort, this.replayPort]) releaseBenchPort(p);
  }

  /** Reads the api's event-loop delay window (ms) from the preloaded probe. */
  async loopDelay(): Promise<{
    p50: number;
    p90: number;
    p99: number;
    max: number;
    mean: number;
    count: number;
  }> {
    const res = await fetch(`${this.probeUrl}/read`, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`event-loop probe answered ${res.status}`);
    return (await res.json()) as {
      p50: number;
      p90: number;
      p99: number;
      max: number;
      mean: number;
      count: number;
    };
  }

  /** Starts a CPU profile of the api process (inspector, through the probe). */
  async startApiProfile(): Promise<void> {
    const res = await fetch(`${this.probeUrl}/profile/start`, {
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`profile start answered ${res.status}: ${await res.text()}`);
  }

  /** Stops the api's CPU profile and writes it to `<profiles>/<label>/<name>.window.cpuprofile`; returns the path. */
  async stopApiProfile(name: string): Promise<string> {
    const res = await fetch(`${this.probeUrl}/profile/stop`, {
      signal: AbortSignal.timeout(60_000),
    });
    if (!res.ok) throw new Error(`profile stop answered ${res.status}: ${await res.text()}`);
    const dir = join(BenchSystem.profileDir(this.opts), 'api-window');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${name}.cpuprofile`);
    writeFileSync(file, await res.text());
    return file;
  }

  /**
   * Where the api process's memory is now (bytes): `process.memoryUsage()` and each V8 heap
   * space's size and use, from the preloaded probe.
   */
  async apiMemory(): Promise<TProcessMemory> {
    const res = await fetch(`${this.probeUrl}/memory`, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`memory probe answered ${res.status}`);
    return (await res.json()) as TProcessMemory;
  }

  /**
   * Runs two full collections in the api process and answers its memory right after (bytes):
   * what it holds once its garbage is gone, whatever the collector's phase was.
   */
  async apiMemoryAfterGc(): Promise<TProcessMemory> {
    const res = await fetch(`${this.probeUrl}/gc`, { signal: AbortSignal.timeout(60_000) });
    if (!res.ok) throw new Error(`gc probe answered ${res.status}`);
    return (await res.json()) as TProcessMemory;
  }

  /** Writes a V8 heap snapshot of the api process to `file` (takes seconds; the api pauses). */
  async apiHeapSnapshot(file: string): Promise<void> {
    const res = await fetch(`${this.probeUrl}/heap-snapshot?file=${encodeURIComponent(file)}`, {
      signal: AbortSignal.timeout(300_000),
    });
    if (!res.ok) throw new Error(`heap snapshot answered ${res.status}: ${await res.text()}`);
  }

  /** Starts a new event-loop delay window in the api process. */
  async resetLoopDelay(): Promise<void> {
    const res = await fetch(`${this.probeUrl}/reset`, { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
  }

  /** Users registered through the API (one access code generated for them by the admin code). */
  async users(count: number) {
    // The admin code is created when the server is ready; allow it a moment.
    let lastError: unknown;
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        return await createUsers(this.api, this.adminCode, count);
      } catch (err) {
        lastError = err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    throw lastError;
  }
}
