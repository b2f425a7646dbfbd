import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TDbOrTrx } from './expiry.sql';
import type { TKeywordTermRef } from './keyword-track.repository';

/*
 * The keyword rounds' side of the keyword tables: the terms a round claims, each read it stores
 * (with its job key, so a retried job stores nothing twice), a read that stored no ranks, and
 * the tracks a stored read alerts. The tables are described in keyword-track.repository.ts.
 */

/** A term to read: its id, words and storefront. */
export interface TKeywordTermRow {
  id: string;
  term: string;
  storefront: string;
  hadResults: boolean;
  lastCheckedAt: Date | null;
}

/** Term `id` (null when it was deleted: nobody tracks it). */
export async function findKeywordTerm(db: TDb, id: string): Promise<TKeywordTermRow | null> {
  const row = await db
    .selectFrom('keyword_terms')
    .select(['id', 'term', 'storefront', 'had_results', 'last_checked_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? {
        id: String(row.id),
        term: row.term,
        storefront: row.storefront,
        hadResults: row.had_results,
        lastCheckedAt: row.last_checked_at,
      }
    : null;
}

/**
 * Claims the tracked terms due now (at most `limit`, oldest due first; `FOR UPDATE SKIP LOCKED`, so
 * two rounds never claim one term) and moves their due time `leaseSeconds` on: a read lost
 * with its job is made up after the lease. With `'probe'`, terms whose last answer was a
 * suspicious empty one, due or not (the probe of a paused round).
 */
export async function claimDueKeywordTerms(
  db: TDb,
  limit: number,
  leaseSeconds: number,
  which: 'due' | 'probe' = 'due',
): Promise<Array<TKeywordTermRef & { dueAt: Date }>> {
  const rows = await sql<{ id: string; term: string; storefront: string; due_at: Date }>`
    with due as (
      select id, next_check_at from keyword_terms k
      where ${which === 'probe' ? sql`suspect_empty_at is not null` : sql`next_check_at <= now()`}
      and exists (select 1 from keyword_tracks x where x.term_id = k.id)
      order by next_check_at, id
      limit ${limit}
      for update skip locked
    )
    update keyword_terms t
    set next_check_at = now() + make_interval(secs => ${leaseSeconds})
    from due where t.id = due.id
    returning t.id, t.term, t.storefront, due.next_check_at as due_at
  `.execute(db);
  return rows.rows.map((r) => ({
    termId: String(r.id),
    term: r.term,
    storefront: r.storefront,
    dueAt: r.due_at,
  }));
}

/** A read to store with {@link recordKeywordRead}. */
export interface TKeywordReadInput {
  termId: string;
  source: string;
  resultCount: number;
  /** App ids in the store's order (at most 200: the column refuses more). */
  appIds: readonly string[];
  /** The top results' research fields (kept on the term for the latest read only). */
  top: unknown[];
  nextCheckAt: Date;
  /**
   * The job storing it (id and creation time): a read already stored under this key is
   * answered instead of a second one (`stored: false`), so a retried job stores nothing twice.
   */
  jobKey?: string;
}

/** The read stored under job key `jobKey`, or null. */
export async function findKeywordReadByJob(
  db: TDbOrTrx,
  jobKey: string,
): Promise<{ id: string; readAt: Date; appIds: string[] } | null> {
  const row = await db
    .selectFrom('keyword_reads')
    .select(['id', 'read_at', 'app_ids'])
    .where('job_key', '=', jobKey)
    .executeTakeFirst();
  return row ? { id: String(row.id), readAt: row.read_at, appIds: row.app_ids.map(String) } : null;
}

/**
 * Stores a successful read of a term in one transaction: the read (ordered ids), the term's
 * last read, result count, top results and next due time (error and suspicion cleared), and
 * every track's best rank. Returns the read's id and time; with a `jobKey` already stored,
 * that read, stored nothing (`stored: false`).
 */
export async function recordKeywordRead(
  db: TDb,
  input: TKeywordReadInput,
): Promise<{ id: string; readAt: Date; stored: boolean }> {
  return db.transaction().execute(async (trx) => {
    const read = await trx
      .insertInto('keyword_reads')
      .values({
        term_id: input.termId,
        source: input.source,
        result_count: input.resultCount,
        app_ids: [...input.appIds],
        job_key: input.jobKey ?? null,
      })
      .onConflict((oc) => oc.column('job_key').where('job_key', 'is not', null).doNothing())
      .returning(['id', 'read_at'])
      .executeTakeFirst();
    if (!read) {
      const earlier = await findKeywordReadByJob(trx, input.jobKey ?? '');
      if (!earlier) throw new Error('keyword read: job key conflict without a stored read');
      return { id: earlier.id, readAt: earlier.readAt, stored: false };
    }
    await trx
      .updateTable('keyword_terms')
      .set({
        last_checked_at: read.read_at,
        last_error: null,
        result_count: input.resultCount,
        had_results: sql<boolean>`had_results or ${input.appIds.length > 0}`,
        suspect_empty_at: null,
        throttled_until: null,
        top: JSON.stringify(input.top),
        next_check_at: input.nextCheckAt,
      })
      .where('id', '=', input.termId)
      .execute();
    await sql`
      update keyword_tracks k
      set best_rank = least(coalesce(k.best_rank, p.rank), p.rank)
      from (select k2.id, array_position(${sql.val([...input.appIds])}::bigint[], k2.app_id::bigint) as rank
            from keyword_tracks k2 where k2.term_id = ${input.termId}) p
      where k.id = p.id and p.rank is not null
    `.execute(trx);
    return { id: String(read.id), readAt: read.read_at, stored: true };
  });
}

/** A stored read with the one before it, as rank alerts compare them. */
export interface TKeywordReadPair {
  readId: string;
  termId: string;
  term: string;
  storefront: string;
  source: string;
  readAt: Date;
  appIds: string[];
  /** The term's read before this one (null: this is its first). */
  previousIds: string[] | null;
}

/** Read `readId` with the term's read before it (by read time, then id); null when gone. */
export async function findKeywordReadPair(
  db: TDbOrTrx,
  readId: string,
): Promise<TKeywordReadPair | null> {
  const rows = await sql<{
    id: string;
    term_id: string;
    term: string;
    storefront: string;
    source: string;
    read_at: Date;
    app_ids: string[];
    previous_ids: string[] | null;
  }>`
    select r.id, r.term_id, t.term, t.storefront, r.source, r.read_at, r.app_ids,
      (select p.app_ids from keyword_reads p
        where p.term_id = r.term_id and (p.read_at, p.id) < (r.read_at, r.id)
        order by p.read_at desc, p.id desc limit 1) as previous_ids
    from keyword_reads r join keyword_terms t on t.id = r.term_id
    where r.id = ${readId}
  `.execute(db);
  const r = rows.rows[0];
  if (!r) return null;
  return {
    readId: String(r.id),
    termId: String(r.term_id),
    term: r.term,
    storefront: r.storefront,
    source: r.source,
    readAt: r.read_at,
    appIds: r.app_ids.map(String),
    previousIds: r.previous_ids?.map(String) ?? null,
  };
}

/** A user's track of a term, with what a rank alert for it needs. */
export interface TKeywordTracker {
  trackId: string;
  userId: string;
  appId: string;
  storefront: string;
  /** The user's watch of the app in the storefront (null: not watched) and its role. */
  watchItemId: string | null;
  role: 'mine' | 'competitor' | null;
  /** The app's name from its watch or latest snapshot (null when never read). */
  appName: string | null;
  hasWebhook: boolean;
}

/** Every track of term `termId` (each user and app), for rank alerts. */
export async function listTermTrackers(db: TDbOrTrx, termId: string): Promise<TKeywordTracker[]> {
  const rows = await sql<{
    id: string;
    user_id: string;
    app_id: string;
    storefront: string;
    watch_item_id: string | null;
    role: 'mine' | 'competitor' | null;
    app_name: string | null;
    has_webhook: boolean;
  }>`
    select k.id, k.user_id, k.app_id, k.storefront, w.id as watch_item_id, w.role,
      coalesce(w.app_name, (select s.app_name from app_snapshots s
        where s.app_id = k.app_id and s.storefront = k.storefront and s.app_name is not null
        order by s.fetched_at desc limit 1)) as app_name,
      exists (select 1 from webhooks h where h.user_id = k.user_id) as has_webhook
    from keyword_tracks k
    left join lateral (
      select i.id, i.role, t.app_name from watch_items i join watch_targets t on t.id = i.target_id
      where i.user_id = k.user_id and t.app_id = k.app_id and t.storefront = k.storefront
      order by i.created_at limit 1
    ) w on true
    where k.term_id = ${termId}
    order by k.created_at, k.id
  `.execute(db);
  return rows.rows.map((r) => ({
    trackId: r.id,
    userId: r.user_id,
    appId: r.app_id,
    storefront: r.storefront,
    watchItemId: r.watch_item_id,
    role: r.role,
    appName: r.app_name,
    hasWebhook: r.has_webhook,
  }));
}

/**
 * Records a read of a term that stored no ranks: `error` (the user-facing reason, shown as
 * `lastError`), the next due time, and with `suspectEmpty` the mark of a term that had
 * results and answered none.
 */
export async function recordKeywordFailure(
  db: TDb,
  termId: string,
  outcome: { error: string; nextCheckAt: Date; suspectEmpty?: boolean },
): Promise<void> {
  await db
    .updateTable('keyword_terms')
    .set({
      last_error: outcome.error,
      throttled_until: null,
      next_check_at: outcome.nextCheckAt,
      ...(outcome.suspectEmpty ? { suspect_empty_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', termId)
    .execute();
}

/**
 * Records that the store throttled a read of term `termId` until `until` (the read is retried
 * then; the list shows "rate-limited, next read at ..."), with the user-facing reason.
 */
export async function recordKeywordThrottled(
  db: TDb,
  termId: string,
  until: Date,
  error: string,
): Promise<void> {
  await db
    .updateTable('keyword_terms')
    .set({ throttled_until: until, last_error: error })
    .where('id', '=', termId)
    .execute();
}
