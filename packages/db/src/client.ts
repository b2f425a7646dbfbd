import { Kysely, Migrator, PostgresDialect, sql, type MigrationResultSet } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { staticMigrationProvider } from './migrations/index';

// Return timestamps as Date (default) but DATE columns as 'YYYY-MM-DD' strings, not local Dates.
pg.types.setTypeParser(pg.types.builtins.DATE, (v: string) => v);
// bigint ids (bigserial) as strings, never lossy numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => v);

/** A kysely instance over the product's schema. */
export type Db = Kysely<Database>;

/** Options of {@link createDb}. */
export interface CreateDbOptions {
  /** Pool size (connections). Default 10. */
  max?: number;
  /** Statement timeout per query in ms. Default 30 000. */
  statementTimeoutMs?: number;
  /** Time to wait for a free connection / a new connection in ms. Default 5 000. */
  connectionTimeoutMs?: number;
}

/**
 * Opens a pooled kysely connection to `url` (a `postgres://` URL). The pool connects lazily;
 * call `db.destroy()` to close it.
 */
export function createDb(url: string, opts: CreateDbOptions = {}): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? 5_000,
    statement_timeout: opts.statementTimeoutMs ?? 30_000,
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Applies every pending migration. Throws the migration's error (with the failing
 * migration's name) when one fails; earlier ones stay applied.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider: staticMigrationProvider });
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
export async function pingDb(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
