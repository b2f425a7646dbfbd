import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, migrateToLatest, migrations, type TDb } from '@aso/db';

/** Server URL tests use: `DATABASE_URL` (its database part is replaced) or local PostgreSQL. */
export function baseDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/aso';
}

function urlFor(name: string, server = baseDatabaseUrl()): string {
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

async function withAdmin<T>(
  fn: (c: pg.Client) => Promise<T>,
  server = baseDatabaseUrl(),
): Promise<T> {
  const client = new pg.Client({
    connectionString: urlFor('postgres', server),
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A database name and URL reserved for one test file, not created (see {@link scratchDatabase}). */
export interface TScratchDatabase {
  name: string;
  url: string;
  /** Drops the database if it was created (force: open connections are closed). */
  drop: () => Promise<void>;
}

/**
 * A fresh, random database name `<prefix>_<hex>` on the test server and its URL, for tests
 * that create and migrate a database themselves (e.g. migration tests starting empty).
 */
export function scratchDatabase(prefix: string): TScratchDatabase {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  return {
    name,
    url: urlFor(name),
    drop: () =>
      withAdmin((c) => c.query(`drop database if exists ${name} with (force)`)).then(
        () => undefined,
      ),
  };
}

/**
 * Name of the migrated template database: derived from the migrations' source, so a changed
 * migration gets a fresh template and concurrent test runs share an identical one.
 */
export function templateName(): string {
  const h = createHash('sha256');
  for (const [name, m] of Object.entries(migrations)) h.update(name).update(m.up.toString());
  return `aso_tpl_${h.digest('hex').slice(0, 12)}`;
}

/**
 * Creates the migrated template database once (vitest globalSetup) on the server of `server`
 * (a `postgres://` URL; default the test server). Built under a temporary name and renamed, so
 * a concurrent run never clones a half-migrated template.
 */
export async function ensureTemplate(server = baseDatabaseUrl()): Promise<string> {
  const name = templateName();
  const exists = await withAdmin(
    async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount,
    server,
  );
  if (exists) return name;
  const tmp = `${name}_tmp_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`create database ${tmp}`), server);
  const db = createDb(urlFor(tmp, server), { max: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  await withAdmin(async (c) => {
    try {
      await c.query(`alter database ${tmp} rename to ${name}`);
    } catch {
      await c.query(`drop database if exists ${tmp}`);
    }
  }, server);
  return name;
}

/** A database of its own for one test file, cloned from the migrated template. */
export interface TTestDatabase {
  name: string;
  url: string;
  db: TDb;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * Clones the template into a new database (`aso_t_<random>`) on the server of `server` (a
 * `postgres://` URL; default the test server, `DATABASE_URL`), migrating a template there first
 * when it has none.
 */
export async function createTestDatabase(server = baseDatabaseUrl()): Promise<TTestDatabase> {
  const template = await ensureTemplate(server);
  const name = `aso_t_${randomBytes(6).toString('hex')}`;
  await withAdmin((c) => c.query(`create database ${name} template ${template}`), server);
  const url = urlFor(name, server);
  const db = createDb(url, { max: 5 });
  return {
    name,
    url,
    db,
    drop: async () => {
      await db.destroy();
      await withAdmin((c) => c.query(`drop database if exists ${name} with (force)`), server);
    },
  };
}
