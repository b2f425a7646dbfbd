import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Redis } from 'ioredis';
import { createDb, ensureDatabase, migrateToLatest } from '@aso/db';

/** Server URL of PostgreSQL: `DATABASE_URL` (its database part is replaced) or the local default. */
export function baseDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/aso';
}

/** Redis URL: `REDIS_URL` or the local default. */
export function benchRedisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** A database of the benchmark's own. */
export interface TBenchDatabase {
  name: string;
  url: string;
  /** Drops it (connections closed by force). */
  drop(): Promise<void>;
}

/**
 * Creates a fresh database `aso_bench_<random>` and migrates it with the product's migrations
 * (@aso/db, as `pnpm db:migrate` does). @aso/testkit offers the same for tests, but its barrel
 * needs a running vitest, so the benchmark builds its own.
 */
export async function createBenchDatabase(): Promise<TBenchDatabase> {
  const name = `aso_bench_${randomBytes(6).toString('hex')}`;
  const u = new URL(baseDatabaseUrl());
  u.pathname = `/${name}`;
  const url = u.toString();
  await ensureDatabase(url);
  const db = createDb(url, { max: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  return {
    name,
    url,
    drop: async () => {
      const admin = new URL(url);
      admin.pathname = '/postgres';
      const client = new pg.Client({
        connectionString: admin.toString(),
        connectionTimeoutMillis: 5_000,
      });
      await client.connect();
      try {
        await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A Redis/BullMQ key prefix of the benchmark's own: `bench-<uuid>`. */
export function newBenchPrefix(): string {
  return `bench-${randomUUID()}`;
}

/** Deletes every key under `prefix` (SCAN + UNLINK). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await redis.unlink(...keys);
  } while (cursor !== '0');
}
