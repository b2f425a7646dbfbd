/**
 * The whole system as `pnpm start --offline` runs it (scripts/start.ts: the supervisor, the
 * replay server, the api and the workers, each a real child process), on a Redis server of its
 * own (a free port, nothing persisted, so a restart comes back empty, as Redis runs on these
 * machines) and a database of its own: on a PostgreSQL server of its own when asked (so that a
 * fault can stop and start the server), otherwise cloned on the test server. A fault case or
 * benchmark can then kill -9 a worker, restart Redis or PostgreSQL, or end the database
 * connections without touching anything else on the machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { ApiClient, readSse, type TSseMessage } from '@aso/api-client';
import type { TRedisClusterNodes } from '@aso/contracts';
import { createRedis, type TRedisClient } from '@aso/queue';
import { createTestDatabase, type TTestDatabase } from '../pg';
import { OwnPostgres, OwnPostgresUnavailableError } from './own-postgres.server';
import { clusterNodeList, type OwnRedisCluster } from './own-redis-cluster.server';
import { OwnRedis } from './own-redis.server';
import { freePort, REPO_ROOT, until } from './wait.helpers';

/** The supervised services whose restarts a fault case counts. */
const SERVICES = ['api', 'scraper', 'analyzer', 'csv-merge', 'render'] as const;
/** The supervised workers (each serves a health endpoint once it takes jobs). */
const WORKERS = ['scraper', 'analyzer', 'csv-merge', 'render', 'asc-import'] as const;

/** Options of {@link FaultSystem.start}. */
export interface TFaultSystemOptions {
  /** Delay the replay server adds to every store answer (ms): scrapes last long enough to be killed. */
  storeDelayMs: number;
  /**
   * Run on a PostgreSQL server of its own ({@link OwnPostgres}), which {@link FaultSystem.postgres}
   * can stop and start. When the machine cannot run one, the system falls back to a database on
   * the test server and {@link FaultSystem.noOwnPostgres} says why.
   */
  ownPostgres?: boolean;
  /**
   * Build and serve the web app (`apps/web/dist`, built by `pnpm start` through turbo's cache):
   * the render worker opens its print pages, so PDF reports need it. Without it the api
   * serves no web app and every PDF render fails.
   */
  web?: boolean;
  /**
   * Run on this Redis Cluster (`REDIS_CLUSTER_NODES`; the key prefix is then a hash tag,
   * `{cluster-<uuid>}`) instead of a Redis server of its own. The caller owns the cluster.
   */
  cluster?: OwnRedisCluster;
  /**
   * The seeds the processes get as `REDIS_CLUSTER_NODES` (default: the cluster's own seeds);
   * any subset does, ioredis learns the other nodes from the first that answers.
   */
  clusterSeeds?: TRedisClusterNodes;
}

/** One change PostgreSQL made to an `audits` row, as {@link FaultSystem.recordAuditWrites} records it. */
export interface TAuditWrite {
  oldStatus: string;
  newStatus: string;
  /** The UPDATE set a result that differs from the one the row held (null included). */
  resultWritten: boolean;
}

/** An audit's end as a fault case reads it: its status and its stream's terminal events. */
export interface TAuditEnd {
  id: string;
  status: string;
  /** The `complete` and `error` events of its progress stream, in order. */
  terminal: string[];
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
    private readonly ownRedis: OwnRedis | null,
    /** The Redis Cluster it runs on, or null on a Redis server of its own. */
    readonly cluster: OwnRedisCluster | null,
    readonly database: TTestDatabase,
    /** The PostgreSQL server of its own, or null when it runs on the test server. */
    readonly postgres: OwnPostgres | null,
    /** Why it does not run on a PostgreSQL server of its own though asked to (else null). */
    readonly noOwnPostgres: string | null,
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

  /** The Redis server of its own (a fault can kill and start it). Throws on a cluster. */
  get redis(): OwnRedis {
    if (!this.ownRedis)
      throw new Error('the system runs on a Redis Cluster, not a server of its own');
    return this.ownRedis;
  }

  /**
   * Starts everything and resolves once the api answers `/readyz` and every worker serves its
   * health endpoint (up to 3 min: `pnpm start` builds what changed first).
   * @throws Error with the system's last output when it does not come up.
   */
  static async start(opts: TFaultSystemOptions): Promise<FaultSystem> {
    let postgres: OwnPostgres | null = null;
    let noOwnPostgres: string | null = null;
    if (opts.ownPostgres) {
      try {
        postgres = await OwnPostgres.start();
      } catch (err) {
        if (!(err instanceof OwnPostgresUnavailableError)) throw err;
        noOwnPostgres = err.message;
      }
    }
    const cluster = opts.cluster ?? null;
    const redis = cluster ? null : await OwnRedis.start();
    const database = await createTestDatabase(postgres?.url);
    // On a cluster the prefix is a hash tag, as the services would make it themselves.
    const prefix = cluster ? `{cluster-${randomUUID()}}` : `faults-${randomUUID()}`;
    const redisEnv: Record<string, string> = cluster
      ? { REDIS_CLUSTER_NODES: clusterNodeList(opts.clusterSeeds ?? cluster.nodes) }
      : { REDIS_URL: redis!.url };
    const adminCode = `FAULTS-${randomBytes(8).toString('hex').toUpperCase()}`;
    const port = await freePort();
    const replayPort = await freePort();
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        (e): e is [string, string] =>
          e[1] !== undefined &&
          !/^(OPENAI_|AI_PROVIDER$|NODE_OPTIONS$|VITEST|REDIS_CLUSTER_NODES$)/.test(e[0]),
      ),
    );
    const proc = spawn(
      process.execPath,
      // Without --no-build: `pnpm start` runs the services from dist/, and turbo rebuilds only
      // what changed, so the suite never runs a stale build. The start script itself reads the
      // packages from their sources (`@aso/source`), as `pnpm start` runs it.
      [
        '--conditions=@aso/source',
        '--import',
        'tsx',
        join(REPO_ROOT, 'scripts/start.ts'),
        '--offline',
      ],
      {
        cwd: REPO_ROOT,
        env: {
          ...inherited,
          DATABASE_URL: database.url,
          ...redisEnv,
          QUEUE_PREFIX: prefix,
          PORT: String(port),
          HOST: '127.0.0.1',
          STORE_REPLAY_PORT: String(replayPort),
          STORE_REPLAY_DELAY_MS: String(opts.storeDelayMs),
          HEALTH_PORT: '0',
          WEB_DIST_DIR: opts.web ? join(REPO_ROOT, 'apps/web/dist') : '',
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
      cluster,
      database,
      postgres,
      noOwnPostgres,
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
            WORKERS.every((s) =>
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

  /**
   * kill -9 of the api; resolves once the supervisor started it again and it answers
   * `/readyz` with 200.
   */
  async killApiAndAwaitRestart(): Promise<void> {
    const before = this.restarts('api');
    process.kill(this.pid('api'), 'SIGKILL');
    await until('api restarted by the supervisor', () => this.restarts('api') > before, 15_000);
    await until(
      'api ready again',
      async () => (await fetch(`${this.apiUrl}/readyz`, { signal: AbortSignal.timeout(2_000) })).ok,
      120_000,
      100,
    );
  }

  /**
   * Freezes (SIGSTOP) or thaws (SIGCONT) service `name`: a frozen worker takes no job, so a
   * fault can be made to hit a job while it is surely queued.
   */
  freeze(name: string, frozen: boolean): void {
    process.kill(this.pid(name), frozen ? 'SIGSTOP' : 'SIGCONT');
  }

  /** Ids of the datasets of the user with `email` (one per merged upload). */
  async datasetIds(email: string): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('datasets as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .select('d.id')
      .where('u.email', '=', email)
      .execute();
    return rows.map((d) => d.id);
  }

  /** How many jobs of `queue` wait for a worker (prioritized ones too) or are held by one now. */
  async queuedOrActive(queue: string): Promise<number> {
    const redis = this.redisClient();
    try {
      const [waiting, prioritized, active] = await Promise.all([
        redis.llen(`${this.prefix}:${queue}:wait`),
        redis.zcard(`${this.prefix}:${queue}:prioritized`),
        redis.llen(`${this.prefix}:${queue}:active`),
      ]);
      return waiting + prioritized + active;
    } finally {
      redis.disconnect();
    }
  }

  /** A command connection to the system's Redis or cluster (the caller closes it). */
  redisClient(): TRedisClient {
    if (this.cluster) return this.cluster.client();
    const c = createRedis(this.redis.url, { role: 'worker', name: 'faults:probe' });
    c.on('error', () => undefined);
    return c;
  }

  /**
   * From now on, records every change PostgreSQL makes to an `audits` row (an AFTER UPDATE
   * trigger writing `fault_audit_writes` of the system's own database: old and new status,
   * whether the result was written), so a case can check in the database, not only in the
   * progress stream, that each audit was finished and its result written exactly once. A
   * conditional UPDATE that matched no row records nothing.
   */
  async recordAuditWrites(): Promise<void> {
    const admin = new pg.Client({ connectionString: this.database.url });
    await admin.connect();
    try {
      await admin.query(`
        create table if not exists fault_audit_writes (
          seq bigserial primary key,
          audit_id text not null,
          old_status text not null,
          new_status text not null,
          result_written boolean not null
        );
        create or replace function fault_audit_write() returns trigger language plpgsql as $$
        begin
          insert into fault_audit_writes (audit_id, old_status, new_status, result_written)
          values (new.id::text, old.status, new.status,
                  new.result is not null and new.result is distinct from old.result);
          return new;
        end $$;
        drop trigger if exists fault_audit_write on audits;
        create trigger fault_audit_write after update on audits
          for each row execute function fault_audit_write();`);
    } finally {
      await admin.end();
    }
  }

  /** The changes to audit `auditId` recorded since {@link recordAuditWrites}, in order. */
  async auditWrites(auditId: string): Promise<TAuditWrite[]> {
    const admin = new pg.Client({ connectionString: this.database.url });
    await admin.connect();
    try {
      const res = await admin.query<{
        old_status: string;
        new_status: string;
        result_written: boolean;
      }>(
        'select old_status, new_status, result_written from fault_audit_writes where audit_id = $1 order by seq',
        [auditId],
      );
      return res.rows.map((r) => ({
        oldStatus: r.old_status,
        newStatus: r.new_status,
        resultWritten: r.result_written,
      }));
    } finally {
      await admin.end();
    }
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

  /** Registers a user with a fresh access code; answers its email, session token and personal code. */
  async newUser(tag: string): Promise<{ email: string; token: string; signInCode: string }> {
    const { code } = await this.api.generateCode(this.adminCode, 1);
    const email = `faults-${tag}-${randomUUID()}@example.com`;
    const answer = await this.api.register(email, code.code!);
    return { email, token: answer.sessionToken, signInCode: answer.signInCode };
  }

  /** How many jobs of `queue` are active now. */
  async activeJobs(queue: string): Promise<number> {
    const redis = this.redisClient();
    try {
      return await redis.llen(`${this.prefix}:${queue}:active`);
    } finally {
      redis.disconnect();
    }
  }

  /** Resolves once a job of `queue` is active (a worker holds it), within `timeoutMs`. */
  async jobRunning(queue: string, timeoutMs = 30_000): Promise<void> {
    await until(
      `a ${queue} job running`,
      async () => (await this.activeJobs(queue)) > 0,
      timeoutMs,
      20,
    );
  }

  /** Waits until audit `auditId` is done or failed (within `timeoutMs`); answers its status. */
  async settle(token: string, auditId: string, timeoutMs: number): Promise<string> {
    let status = '';
    await until(
      `audit ${auditId} finished`,
      async () => {
        status = (await this.api.audit(token, auditId)).status;
        return status === 'done' || status === 'failed';
      },
      timeoutMs,
      250,
    );
    return status;
  }

  /** The progress stream's `complete` and `error` entries of an audit (in Redis). */
  async terminalEvents(auditId: string): Promise<string[]> {
    const redis = this.redisClient();
    try {
      const entries = await redis.xrange(`${this.prefix}:progress:${auditId}`, '-', '+');
      return entries
        .map(([, fields]) => (JSON.parse(fields[1] ?? '{}') as { type?: string }).type ?? '')
        .filter((t) => t === 'complete' || t === 'error');
    } finally {
      redis.disconnect();
    }
  }

  /**
   * Waits until the audit is finished and, when done, its terminal event is in its stream;
   * answers both (a case then checks it ended done with exactly one `complete`).
   */
  async auditEnd(token: string, auditId: string, timeoutMs: number): Promise<TAuditEnd> {
    const status = await this.settle(token, auditId, timeoutMs);
    if (status === 'done')
      await until(
        'the complete event',
        async () => (await this.terminalEvents(auditId)).length > 0,
        10_000,
      ).catch(() => undefined);
    return { id: auditId, status, terminal: await this.terminalEvents(auditId) };
  }

  /**
   * Reads an audit's SSE stream from `lastEventId` until it ends, `max` messages arrived or
   * `timeoutMs` passed; answers the messages.
   */
  async readProgress(
    token: string,
    auditId: string,
    opts: {
      lastEventId?: string;
      max?: number;
      timeoutMs: number;
      /** Told of each message as it arrives. */
      onMessage?: (m: TSseMessage) => void;
    },
  ): Promise<TSseMessage[]> {
    const out: TSseMessage[] = [];
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), opts.timeoutMs);
    try {
      for await (const m of readSse(`${this.apiUrl}/api/progress?auditId=${auditId}`, {
        headers: {
          authorization: `Bearer ${token}`,
          ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}),
        },
        signal: ac.signal,
      })) {
        out.push(m);
        opts.onMessage?.(m);
        if (out.length >= (opts.max ?? Infinity)) break;
      }
    } finally {
      clearTimeout(timer);
    }
    return out;
  }

  /** Restarts of every service so far, by name (a fault that should kill nothing leaves it unchanged). */
  allRestarts(): Record<string, number> {
    return Object.fromEntries(SERVICES.map((s) => [s, this.restarts(s)]));
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
    await this.ownRedis?.stop();
    await this.cluster?.deletePrefix(this.prefix).catch(() => undefined);
    await this.database.drop().catch(() => undefined);
    await this.postgres?.destroy();
  }
}
