import { createServer } from 'node:net';
import { afterAll, describe, expect, vi } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { createDb, isDatabaseUnavailableError, type TDb } from '@aso/db';
import { it } from '@aso/testkit/vitest';

/** Ends every session of `database` but the caller's, as an administrator would. */
async function terminateSessions(url: string, database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const res = await admin.query<{ pid: number }>(
      'select pg_terminate_backend(pid) as pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    return res.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/** A local port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  await new Promise<void>((r) => server.close(() => r()));
  return typeof addr === 'object' && addr ? addr.port : 1;
}

/** Resolves once a statement starting with `prefix` runs on the server. */
async function waitUntilRunning(db: TDb, prefix: string): Promise<void> {
  await vi.waitUntil(
    async () => {
      const probe = await sql<{ n: string }>`
        select count(*) as n from pg_stat_activity
        where datname = current_database() and query like ${prefix + '%'}`.execute(db);
      return Number(probe.rows[0]!.n) > 0;
    },
    { timeout: 10_000 },
  );
}

const opened: { destroy(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
});

describe('the pool after its connections are dropped', () => {
  it('logs the broken idle connections, keeps the process alive and serves the next queries', async ({
    database,
  }) => {
    const warn = vi.fn();
    const db = createDb(database.url, { max: 3, log: { warn } });
    opened.push(db);
    // Three connections at once, so three are idle in the pool afterwards.
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(db)));

    expect(await terminateSessions(database.url, database.name)).toBeGreaterThanOrEqual(3);
    await vi.waitUntil(() => warn.mock.calls.length >= 3, { timeout: 10_000 });
    expect(warn.mock.calls[0]![1]).toMatch(/connection broke/);

    const rows = await sql<{ n: number }>`select 1 as n`.execute(db);
    expect(rows.rows).toEqual([{ n: 1 }]);
  });

  it('sends a statement cut off as the first of its connection again, on a fresh connection', async ({
    database,
  }) => {
    const db = createDb(database.url, { max: 2, log: { warn: () => undefined } });
    opened.push(db);
    const running = sql<{ n: number }>`select 7 as n from pg_sleep(1.5)`.execute(db);
    await waitUntilRunning(database.db, 'select 7 as n from pg_sleep');
    await terminateSessions(database.url, database.name);
    expect((await running).rows).toEqual([{ n: 7 }]);
  });

  it('never repeats a later statement of a transaction: it rejects as "database unavailable"', async ({
    database,
  }) => {
    const db = createDb(database.url, { max: 2, log: { warn: () => undefined } });
    opened.push(db);
    const failed = db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await sql`select pg_sleep(30)`.execute(trx);
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    await waitUntilRunning(database.db, 'select pg_sleep(30)');
    await terminateSessions(database.url, database.name);
    const err = await failed;
    expect(err).toBeInstanceOf(Error);
    expect(isDatabaseUnavailableError(err)).toBe(true);
    // The pool opens a fresh connection for the next query.
    expect((await sql<{ n: number }>`select 2 as n`.execute(db)).rows).toEqual([{ n: 2 }]);
  });

  it('survives a connection that breaks while checked out between two statements', async ({
    database,
  }) => {
    const warn = vi.fn();
    const db = createDb(database.url, { max: 2, log: { warn } });
    opened.push(db);
    const outcome = await db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        // Nothing runs on the connection now: pg's pool does not listen to it while it is out.
        await terminateSessions(database.url, database.name);
        await vi.waitUntil(() => warn.mock.calls.some((c) => /in use broke/.test(String(c[1]))), {
          timeout: 10_000,
        });
        await sql`select 2`.execute(trx);
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isDatabaseUnavailableError(outcome)).toBe(true);
    expect((await sql<{ n: number }>`select 3 as n`.execute(db)).rows).toEqual([{ n: 3 }]);
  });

  it('fails fast with an "unavailable" error when nothing listens', async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/aso`;
    const db = createDb(url, {
      max: 1,
      connectionTimeoutMs: 1_000,
      log: { warn: () => undefined },
    });
    opened.push(db);
    const started = Date.now();
    const err = await sql`select 1`.execute(db).then(
      () => null,
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(isDatabaseUnavailableError(err)).toBe(true);
  });

  it('does not take a query error for an outage', async ({ database }) => {
    const err = await sql`select * from no_such_table`.execute(database.db).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(isDatabaseUnavailableError(err)).toBe(false);
  });
});
