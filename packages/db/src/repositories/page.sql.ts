import { sql, type RawBuilder } from 'kysely';
import type { TDbOrTrx } from './expiry.sql';

/**
 * Keyset pagination and per-user count limits, shared by every list and every user-created
 * collection (this product's rule: no answer is built from an unbounded query, and no user
 * fills a table).
 */

/**
 * Where a page starts: the `created_at` (PostgreSQL's text form, microseconds kept, so rows
 * created in one millisecond are not skipped) and `id` of the last row of the previous page.
 * `id` is the row's uuid, or for a list ordered by another tie-breaker (a term, an app and
 * storefront) that column's text.
 */
export interface TPageKey {
  at: string;
  id: string;
}

/** One page request: at most `limit` rows (>= 1) after `after` (null: the first page). */
export interface TPageRequest {
  limit: number;
  after: TPageKey | null;
}

/** One page of rows and the key of the next page (null: this was the last one). */
export interface TPage<R> {
  rows: R[];
  next: TPageKey | null;
}

/** The column {@link toPage} reads the next key from: `created_at` as text, aliased `page_at`. */
export function pageAt(table: string) {
  return sql<string>`${sql.ref(`${table}.created_at`)}::text`.as('page_at');
}

/**
 * The columns a list is ordered by when they are not `<table>.created_at` and `<table>.id`
 * (uuid): `at` a timestamptz expression, `id` a text tie-breaker.
 */
export interface TPageColumns {
  at: RawBuilder<unknown>;
  id: RawBuilder<unknown>;
}

/**
 * The condition "after `after`" in the order (`created_at`, `id`) `order` (newest first for
 * `desc`), as a row comparison PostgreSQL answers from an index on those columns; `true` for
 * the first page. `table` names the table (or its alias), or gives the two columns
 * ({@link TPageColumns}: the tie-breaker then compared as text).
 */
export function afterKey(
  table: string | TPageColumns,
  after: TPageKey | null,
  order: 'asc' | 'desc',
): RawBuilder<boolean> {
  if (!after) return sql<boolean>`true`;
  const row =
    typeof table === 'string'
      ? sql`(${sql.ref(`${table}.created_at`)}, ${sql.ref(`${table}.id`)})`
      : sql`(${table.at}, ${table.id})`;
  const key =
    typeof table === 'string'
      ? sql`(${after.at}::timestamptz, ${after.id}::uuid)`
      : sql`(${after.at}::timestamptz, ${after.id}::text)`;
  return order === 'desc' ? sql<boolean>`${row} < ${key}` : sql<boolean>`${row} > ${key}`;
}

/**
 * A page from rows read with `limit: request.limit + 1` (the extra row only tells that there
 * is a next page) and {@link pageAt}; `page_at` is dropped from the rows. `keyOf` gives the
 * tie-breaker of the next key when it is not the row's `id`.
 */
export function toPage<R extends { id: string; page_at: string }>(
  rows: R[],
  limit: number,
): TPage<Omit<R, 'page_at'>>;
export function toPage<R extends { page_at: string }>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => string,
): TPage<Omit<R, 'page_at'>>;
export function toPage<R extends { page_at: string; id?: unknown }>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => string = (row) => String(row.id),
): TPage<Omit<R, 'page_at'>> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept.at(-1);
  return {
    rows: kept.map(({ page_at: _at, ...row }) => row),
    next: more && last ? { at: last.page_at, id: keyOf(last) } : null,
  };
}

/** Tables of user-created objects with a `user_id` column, counted by {@link insertWithinLimit}. */
export type TUserCollection =
  'dashboards' | 'saved_audits' | 'feedback' | 'watch_items' | 'asc_connections';

/** What {@link insertWithinLimit} did: the inserted value, or the count that refused it. */
export type TLimitedInsert<R> = { ok: true; value: R } | { ok: false; count: number };

/**
 * Runs `insert` in a transaction only while `userId` has fewer than `max` rows in `table`.
 * Concurrent inserts of one user into one table are serialised by a transaction-scoped
 * advisory lock, so parallel requests cannot overshoot the limit (a plain count then insert
 * could, by the number of requests in flight).
 */
export async function insertWithinLimit<R>(
  db: TDbOrTrx,
  scope: { table: TUserCollection; userId: string; max: number },
  insert: (trx: TDbOrTrx) => Promise<R>,
): Promise<TLimitedInsert<R>> {
  const run = async (trx: TDbOrTrx): Promise<TLimitedInsert<R>> => {
    await sql`select pg_advisory_xact_lock(hashtext(${scope.table}), hashtext(${scope.userId}))`.execute(
      trx,
    );
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.table(scope.table)} where user_id = ${scope.userId}::uuid`.execute(
      trx,
    );
    const count = rows[0]?.n ?? 0;
    if (count >= scope.max) return { ok: false, count };
    return { ok: true, value: await insert(trx) };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}
