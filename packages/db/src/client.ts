import {
  Kysely,
  Migrator,
  PostgresDialect,
  sql,
  type MigrationResultSet,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import type { TDatabase } from './schema';
import { staticMigrationProvider } from './migrations/index';

// Return timestamps as Date (default) but DATE columns as 'YYYY-MM-DD' strings, not local Dates.
pg.types.setTypeParser(pg.types.builtins.DATE, (v: string) => v);
// bigint ids (bigserial) as strings, never lossy numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => v);

/** A kysely instance over the product's schema. */
export type TDb = Kysely<TDatabase>;

/** Logger shape of {@link createDb} (pino and console satisfy it). */
export interface TDbLogger {
  warn(obj: object, msg?: string): void;
}

/** Options of {@link createDb}. */
export interface TCreateDbOptions {
  /** Pool size (connections). Default 10. */
  max?: number;
  /** Statement timeout per query in ms. Default 30 000. */
  statementTimeoutMs?: number;
  /**
   * Time to wait for a free connection / a new connection in ms. Default 5 000. A gateway
   * sets it below its answer deadline so that an unreachable database answers 503 in time.
   */
  connectionTimeoutMs?: number;
  /**
   * Told about connections the pool lost while idle (the server restarted, an administrator
   * ran `pg_terminate_backend`, a network drop). Default: a line on stderr.
   */
  log?: TDbLogger;
}

/**
 * Opens a pooled kysely connection to `url` (a `postgres://` URL). The pool connects lazily;
 * call `db.destroy()` to close it.
 *
 * A connection that breaks is dropped from the pool and logged, never thrown: without a
 * listener, pg's pool emits an unhandled 'error' event, which ends the process. The queries
 * that were running on it reject (see {@link isDatabaseUnavailableError}); later queries
 * open new connections, so the process resumes by itself once the server answers again.
 */
export function createDb(url: string, opts: TCreateDbOptions = {}): TDb {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? 5_000,
    statement_timeout: opts.statementTimeoutMs ?? 30_000,
  });
  const log = opts.log ?? { warn: (obj: object, msg?: string) => console.warn(msg, obj) };
  pool.on('error', (err) =>
    log.warn(
      { err: { message: err.message, code: (err as { code?: unknown }).code } },
      'a PostgreSQL connection broke; it was dropped from the pool',
    ),
  );
  return new Kysely<TDatabase>({
    dialect: new PostgresDialect({ pool: retryingPool(pool, log) }),
  });
}

/**
 * The pool as kysely uses it (`connect`, `end`), with one difference: the first statement on a
 * checked-out connection is sent again on a fresh connection when the one handed out turns out
 * to be dead ({@link isDatabaseUnavailableError}). A connection the server ended while it sat
 * idle (`pg_terminate_backend`, a restart) can be handed out before pg has read the server's
 * goodbye; the statement then never ran, so sending it again is safe, and the request does
 * not fail for a connection that was already gone. Later statements (inside a transaction)
 * are never repeated.
 */
function retryingPool(pool: pg.Pool, log: TDbLogger): PostgresPool {
  // pg's pool listens for a broken connection only while it is idle; one that breaks while
  // checked out (between the statements of a transaction) would emit an unhandled 'error' and
  // end the process. Every connection gets a listener of its own, once.
  // The pool's own listener reports a connection that breaks while idle.
  const guarded = new WeakSet<pg.PoolClient>();
  const out = new WeakSet<pg.PoolClient>();
  const guard = (client: pg.PoolClient) => {
    out.add(client);
    if (guarded.has(client)) return client;
    guarded.add(client);
    client.on('error', (err) => {
      if (!out.has(client)) return;
      log.warn(
        { err: { message: err.message, code: (err as { code?: unknown }).code } },
        'a PostgreSQL connection in use broke; its statement fails and it is dropped',
      );
    });
    return client;
  };
  const returned = (client: pg.PoolClient) => out.delete(client);
  return {
    // It forwards what kysely calls (`query` with text and values or a cursor, `release`).
    connect: async () =>
      new FirstStatementRetry(
        pool,
        guard(await pool.connect()),
        guard,
        returned,
      ) as unknown as PostgresPoolClient,
    end: () => pool.end(),
  };
}

class FirstStatementRetry {
  private used = false;

  constructor(
    private readonly pool: pg.Pool,
    private client: pg.PoolClient,
    private readonly guard: (client: pg.PoolClient) => pg.PoolClient,
    private readonly returned: (client: pg.PoolClient) => void,
  ) {}

  query(...args: unknown[]): unknown {
    const [text, values] = args;
    // A cursor (kysely's streaming) or a second statement goes through unchanged.
    if (this.used || typeof text !== 'string') {
      this.used = true;
      return (this.client.query as (...a: unknown[]) => unknown)(...args);
    }
    this.used = true;
    return this.client.query(text, values as unknown[]).catch(async (err: unknown) => {
      if (!isDatabaseUnavailableError(err)) throw err;
      this.returned(this.client);
      this.client.release(err as Error);
      this.client = this.guard(await this.pool.connect());
      return this.client.query(text, values as unknown[]);
    });
  }

  release(err?: Error | boolean): void {
    this.returned(this.client);
    this.client.release(err);
  }
}

/** How long a job that met an unreachable database waits before it runs again (ms). */
export const DATABASE_RETRY_DELAY_MS = 2_000;

/**
 * The `deferOn` setting of a worker (`createTypedWorker` of `@aso/queue`): a job whose handler
 * met an unreachable database ({@link isDatabaseUnavailableError}) runs again after
 * {@link DATABASE_RETRY_DELAY_MS} without using up an attempt, and `log` says so.
 */
export function deferWhileDatabaseDown(log: TDbLogger) {
  return {
    test: isDatabaseUnavailableError,
    delayMs: DATABASE_RETRY_DELAY_MS,
    onDefer: (job: { id?: string; queueName: string }, err: unknown) =>
      log.warn(
        { queue: job.queueName, jobId: job.id, err: err instanceof Error ? err.message : err },
        `the database is unavailable; the job runs again in ${DATABASE_RETRY_DELAY_MS} ms`,
      ),
  };
}

/** Network errors that mean the server cannot be reached or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * SQLSTATEs of a server that is going away or not taking connections
 * (https://www.postgresql.org/docs/current/errcodes-appendix.html): class 08 (connection
 * exception), 57P01 admin_shutdown (also `pg_terminate_backend`), 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up or shutting down), 53300 too_many_connections.
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[123]|53300)$/;

/** Messages of node-postgres for a connection that broke or could not be made. */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/**
 * True when `err`, as a query rejected with it (or one of an AggregateError's errors), means
 * PostgreSQL is unreachable or dropped the connection, as opposed to a query that is wrong:
 * the caller answers 503 or retries later, never treats it as bad input. Causes are not
 * followed, so that a wrapped network error of another service (a store fetch) is not taken
 * for the database's.
 */
export function isDatabaseUnavailableError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 2) return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (
    typeof e.code === 'string' &&
    (NETWORK_CODES.has(e.code) || UNAVAILABLE_SQLSTATES.test(e.code))
  )
    return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailableError(x, depth + 1)))
    return true;
  return false;
}

/**
 * Applies every pending migration. Throws the migration's error (with the failing
 * migration's name) when one fails; earlier ones stay applied.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  // Migration numbers are handed out ahead of time, so one may land after a higher one already
  // ran somewhere (0011 after 0014): it is applied then instead of refused as out of order.
  const migrator = new Migrator({
    db,
    provider: staticMigrationProvider,
    allowUnorderedMigrations: true,
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    const cause =
      result.error instanceof Error ? result.error.message : JSON.stringify(result.error);
    throw new Error(`migration ${failed ?? '(unknown)'} failed: ${cause}`, { cause: result.error });
  }
  return result;
}

/**
 * Creates the database named in `url` when it does not exist, connecting to the `postgres`
 * maintenance database of the same server. Returns true when it was created.
 */
export async function ensureDatabase(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({
    connectionString: admin.toString(),
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return false;
    await client.query(`create database ${pg.escapeIdentifier(name)}`);
    return true;
  } catch (err) {
    // Another process created it between our check and create.
    if ((err as { code?: string }).code === '42P04') return false;
    throw err;
  } finally {
    await client.end();
  }
}

/** Resolves when a trivial query succeeds; rejects with the driver's error otherwise. */
export async function pingDb(db: TDb): Promise<void> {
  await sql`select 1`.execute(db);
}
