import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TDbOrTrx } from './expiry.sql';
import { afterKey, toPage, type TPage, type TPageRequest } from './page.sql';

/**
 * Keyword ranks: `keyword_terms` (one row per normalised term and storefront, however many
 * users and apps track it: what a round reads), `keyword_reads` (each read's ordered app ids,
 * so every app's rank comes from the same read) and `keyword_tracks` (a user's tracking of a
 * term for an app). A term whose last tracker leaves is deleted with its reads: nothing reads
 * it any more, and no one can see its history.
 */

/** What {@link trackKeywords} stores. */
export interface TTrackKeywordsInput {
  userId: string;
  appId: string;
  storefront: string;
  /** Normalised, distinct terms. */
  terms: readonly string[];
  /** Tracked terms the user may have for this app and storefront (`KEYWORDS_MAX_PER_APP`). */
  maxPerApp: number;
  /** Tracked terms the user may have in all, every app and storefront (`KEYWORDS_MAX_PER_USER`). */
  maxPerUser: number;
  /**
   * How long a new term waits for the first read the caller queues before a round reads it
   * instead (s): a read lost with Redis is made up after it.
   */
  firstReadLeaseSeconds: number;
}

/** A term to read: its id, words and storefront. */
export interface TKeywordTermRef {
  termId: string;
  term: string;
  storefront: string;
}

/**
 * Tracks `terms` for the user's app in the storefront, in one transaction: terms already
 * tracked are kept as they are; a term nobody tracked before gets its `keyword_terms` row
 * (due now). Nothing is stored when the app would then have more than `maxPerApp` terms
 * (`{ status: 'full', tracked }`: how many it has) or the user more than `maxPerUser` in all
 * (`{ status: 'user-full', tracked }`: how many the user has). Returns the ids of the terms
 * never read (`unread`), so the caller can queue their first read.
 */
export async function trackKeywords(
  db: TDb,
  input: TTrackKeywordsInput,
): Promise<
  | { status: 'ok'; unread: TKeywordTermRef[] }
  | { status: 'full'; tracked: number }
  | { status: 'user-full'; tracked: number }
> {
  return db.transaction().execute(async (trx) => {
    // One user's additions are serialised, so two requests cannot both pass a cap.
    await sql`select pg_advisory_xact_lock(hashtext(${`keywords:${input.userId}`}))`.execute(trx);
    await trx
      .insertInto('keyword_terms')
      .values(
        input.terms.map((term) => ({
          term,
          storefront: input.storefront,
          next_check_at: sql<Date>`now() + make_interval(secs => ${input.firstReadLeaseSeconds})`,
        })),
      )
      .onConflict((oc) => oc.columns(['storefront', 'term']).doNothing())
      .execute();
    const terms = await trx
      .selectFrom('keyword_terms')
      .select(['id', 'term', 'last_checked_at'])
      .where('storefront', '=', input.storefront)
      .where('term', 'in', input.terms)
      .execute();
    const existing = await trx
      .selectFrom('keyword_tracks')
      .select('term_id')
      .where('user_id', '=', input.userId)
      .where('app_id', '=', input.appId)
      .where('storefront', '=', input.storefront)
      .execute();
    const have = new Set(existing.map((r) => String(r.term_id)));
    const adding = terms.filter((t) => !have.has(String(t.id)));
    if (have.size + adding.length > input.maxPerApp) {
      return { status: 'full' as const, tracked: have.size };
    }
    if (adding.length > 0) {
      const { n } = await trx
        .selectFrom('keyword_tracks')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', input.userId)
        .executeTakeFirstOrThrow();
      if (Number(n) + adding.length > input.maxPerUser) {
        return { status: 'user-full' as const, tracked: Number(n) };
      }
    }
    if (adding.length > 0) {
      await trx
        .insertInto('keyword_tracks')
        .values(
          adding.map((t) => ({
            user_id: input.userId,
            term_id: t.id,
            app_id: input.appId,
            storefront: input.storefront,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
      // Best ranks of a term read before this app was tracked come from the reads stored.
      await refreshBestRanks(
        trx,
        adding.map((t) => String(t.id)),
      );
    }
    return {
      status: 'ok' as const,
      unread: terms
        .filter((t) => t.last_checked_at === null)
        .map((t) => ({ termId: String(t.id), term: t.term, storefront: input.storefront })),
    };
  });
}

/** Sets every track's best rank of terms `termIds` from all reads stored. */
async function refreshBestRanks(db: TDbOrTrx, termIds: readonly string[]): Promise<void> {
  if (termIds.length === 0) return;
  await sql`
    update keyword_tracks k set best_rank = (
      select min(array_position(r.app_ids, k.app_id::bigint)) from keyword_reads r
      where r.term_id = k.term_id
    )
    where k.term_id = any(${sql.val(termIds)}::bigint[])
  `.execute(db);
}

/** A tracked term of a user's app with its last reads, as the keyword list shows it. */
export interface TKeywordTrackView {
  id: string;
  termId: string;
  term: string;
  appId: string;
  storefront: string;
  bestRank: number | null;
  createdAt: Date;
  lastCheckedAt: Date | null;
  nextCheckAt: Date;
  lastError: string | null;
  /** The store throttled the last read; it is retried then (null when not throttled). */
  throttledUntil: Date | null;
  resultCount: number | null;
  /** The top results of the last read (research fields), null before one. */
  top: unknown[] | null;
  /** The ordered app ids of the latest read, null before one. */
  latestIds: string[] | null;
  latestSource: string | null;
  latestAt: Date | null;
  previousRank: number | null;
  /** The app's rank in the latest read at least 7 days old (null: none, or absent then). */
  rank7d: number | null;
  has7d: boolean;
  /** The app's rank in the last 30 reads, oldest first. */
  recent: Array<{ readAt: Date; rank: number | null }>;
}

/**
 * The user's tracked terms for app `appId` in `storefront`, in the order they were added
 * (terms added together in term order; at most `KEYWORDS_MAX_PER_APP` by construction), each
 * with its latest read's ordered ids (competitors' ranks come from them), the rank of the read
 * before, the rank 7 days ago and the last 30 ranks. Lists shown to the user are paged:
 * {@link listKeywordTracksPage}.
 */
export async function listKeywordTracks(
  db: TDb,
  userId: string,
  appId: string,
  storefront: string,
): Promise<TKeywordTrackView[]> {
  return (await readKeywordTracks(db, userId, appId, storefront)).rows;
}

/**
 * One page of {@link listKeywordTracks}: the next key is the last term's `created_at` and
 * term (terms added together share their `created_at`).
 */
export async function listKeywordTracksPage(
  db: TDb,
  userId: string,
  appId: string,
  storefront: string,
  page: TPageRequest,
): Promise<TPage<TKeywordTrackView>> {
  return readKeywordTracks(db, userId, appId, storefront, page);
}

async function readKeywordTracks(
  db: TDb,
  userId: string,
  appId: string,
  storefront: string,
  page?: TPageRequest,
): Promise<TPage<TKeywordTrackView>> {
  const after = afterKey({ at: sql`k.created_at`, id: sql`t.term` }, page?.after ?? null, 'asc');
  const limit = page ? sql`limit ${page.limit + 1}` : sql``;
  const rows = await sql<{
    id: string;
    term_id: string;
    term: string;
    app_id: string;
    storefront: string;
    best_rank: number | null;
    created_at: Date;
    last_checked_at: Date | null;
    next_check_at: Date;
    last_error: string | null;
    throttled_until: Date | null;
    result_count: number | null;
    top: unknown[] | null;
    latest_ids: string[] | null;
    latest_source: string | null;
    latest_at: Date | null;
    previous_rank: number | null;
    rank_7d: number | null;
    has_7d: boolean;
    recent: Array<{ readAt: string; rank: number | null }> | null;
    page_at: string;
  }>`
    select k.id, k.term_id, t.term, k.app_id, k.storefront, k.best_rank, k.created_at,
      k.created_at::text as page_at,
      t.last_checked_at, t.next_check_at, t.last_error, t.throttled_until, t.result_count, t.top,
      latest.app_ids as latest_ids, latest.source as latest_source, latest.read_at as latest_at,
      (select array_position(r.app_ids, k.app_id::bigint) from keyword_reads r
        where r.term_id = k.term_id order by r.read_at desc, r.id desc offset 1 limit 1) as previous_rank,
      week.rank as rank_7d, week.term_id is not null as has_7d,
      (select json_agg(json_build_object('readAt', x.read_at, 'rank', x.rank) order by x.read_at)
        from (select r.read_at, array_position(r.app_ids, k.app_id::bigint) as rank
              from keyword_reads r where r.term_id = k.term_id
              order by r.read_at desc, r.id desc limit 30) x) as recent
    from keyword_tracks k
    join keyword_terms t on t.id = k.term_id
    left join lateral (
      select r.app_ids, r.source, r.read_at from keyword_reads r
      where r.term_id = k.term_id order by r.read_at desc, r.id desc limit 1
    ) latest on true
    left join lateral (
      select r.term_id, array_position(r.app_ids, k.app_id::bigint) as rank from keyword_reads r
      where r.term_id = k.term_id and r.read_at <= now() - interval '7 days'
      order by r.read_at desc limit 1
    ) week on true
    where k.user_id = ${userId} and k.app_id = ${appId} and k.storefront = ${storefront}
      and ${after}
    order by k.created_at, t.term
    ${limit}
  `.execute(db);
  const views = rows.rows.map((r) => ({
    id: r.id,
    termId: String(r.term_id),
    term: r.term,
    appId: r.app_id,
    storefront: r.storefront,
    bestRank: r.best_rank,
    createdAt: r.created_at,
    lastCheckedAt: r.last_checked_at,
    nextCheckAt: r.next_check_at,
    lastError: r.last_error,
    throttledUntil: r.throttled_until,
    resultCount: r.result_count,
    top: r.top,
    latestIds: r.latest_ids?.map(String) ?? null,
    latestSource: r.latest_source,
    latestAt: r.latest_at,
    previousRank: r.previous_rank,
    rank7d: r.rank_7d,
    has7d: r.has_7d,
    recent: (r.recent ?? []).map((p) => ({ readAt: new Date(p.readAt), rank: p.rank })),
    page_at: r.page_at,
  }));
  if (!page) return { rows: views.map(({ page_at: _at, ...v }) => v), next: null };
  return toPage(views, page.limit, (v) => v.term);
}

/** The user's track `id` with its term, or null when it is not theirs. */
export async function findKeywordTrack(
  db: TDb,
  userId: string,
  id: string,
): Promise<{ id: string; termId: string; appId: string; storefront: string } | null> {
  const row = await db
    .selectFrom('keyword_tracks')
    .select(['id', 'term_id', 'app_id', 'storefront'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row
    ? { id: row.id, termId: String(row.term_id), appId: row.app_id, storefront: row.storefront }
    : null;
}

/**
 * Stops the user's tracking `id`; a term nobody tracks any more is deleted with its reads.
 * Returns false when the track is not the user's.
 */
export async function untrackKeyword(db: TDb, userId: string, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const gone = await trx
      .deleteFrom('keyword_tracks')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returning('term_id')
      .executeTakeFirst();
    if (!gone) return false;
    await sql`
      delete from keyword_terms t where t.id = ${gone.term_id}
      and not exists (select 1 from keyword_tracks k where k.term_id = t.id)
    `.execute(trx);
    return true;
  });
}

/** The terms the user tracks for app `appId` in `storefront`. */
export async function trackedTerms(
  db: TDb,
  userId: string,
  appId: string,
  storefront: string,
): Promise<TKeywordTermRef[]> {
  const rows = await db
    .selectFrom('keyword_tracks as k')
    .innerJoin('keyword_terms as t', 't.id', 'k.term_id')
    .select(['t.id', 't.term', 't.storefront'])
    .where('k.user_id', '=', userId)
    .where('k.app_id', '=', appId)
    .where('k.storefront', '=', storefront)
    .execute();
  return rows.map((r) => ({ termId: String(r.id), term: r.term, storefront: r.storefront }));
}

/** The user's tracks of `terms` for app `appId` in `storefront`: term -> track id. */
export async function keywordTrackIds(
  db: TDb,
  userId: string,
  appId: string,
  storefront: string,
  terms: readonly string[],
): Promise<Map<string, string>> {
  if (terms.length === 0) return new Map();
  const rows = await db
    .selectFrom('keyword_tracks as k')
    .innerJoin('keyword_terms as t', 't.id', 'k.term_id')
    .select(['k.id', 't.term'])
    .where('k.user_id', '=', userId)
    .where('k.app_id', '=', appId)
    .where('k.storefront', '=', storefront)
    .where('t.term', 'in', [...terms])
    .execute();
  return new Map(rows.map((r) => [r.term, r.id]));
}
