import { sql } from 'kysely';
import type { TDb } from '../client';

/*
 * Keyword research: the texts terms are suggested from, and the term rows of researched terms
 * nobody tracks yet (pruned after a while unless someone tracks them).
 */

/**
 * The texts research suggests terms from, for the user's app `appId` in `storefront`: the
 * titles and subtitles of the latest snapshots of the user's watched competitors in that
 * storefront (at most 20), and the keyword field of the user's latest audit of the app with
 * one ('' when none).
 */
export async function keywordSuggestionTexts(
  db: TDb,
  userId: string,
  appId: string | null,
  storefront: string,
): Promise<{ competitorTexts: string[]; keywordField: string }> {
  const competitors = await sql<{ title: string | null; subtitle: string | null }>`
    select s.listing->>'appName' as title, s.listing->>'subtitle' as subtitle
    from watch_items i join watch_targets t on t.id = i.target_id
    join lateral (
      select listing from app_snapshots s
      where s.app_id = t.app_id and s.storefront = t.storefront
      order by s.fetched_at desc, s.id desc limit 1
    ) s on true
    where i.user_id = ${userId} and i.role = 'competitor' and t.storefront = ${storefront}
    limit 20
  `.execute(db);
  const audit = appId
    ? await db
        .selectFrom('audits')
        .select(sql<string>`inputs->>'keywords'`.as('keywords'))
        .where('user_id', '=', userId)
        .where('app_id', '=', appId)
        .where('storefront', '=', storefront)
        .where(sql<boolean>`coalesce(inputs->>'keywords', '') <> ''`)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst()
    : undefined;
  return {
    competitorTexts: competitors.rows.flatMap((r) =>
      [r.title, r.subtitle].filter((t): t is string => typeof t === 'string' && t !== ''),
    ),
    keywordField: audit?.keywords ?? '',
  };
}

/**
 * Finds or creates the term row of a researched term (not tracked by anyone yet: the rounds
 * skip it, and it is deleted after a week unless someone tracks it). Returns its id, its last
 * read time, result count and stored top results.
 */
export async function ensureKeywordTerm(
  db: TDb,
  term: string,
  storefront: string,
): Promise<{
  id: string;
  lastCheckedAt: Date | null;
  resultCount: number | null;
  top: unknown[] | null;
  lastError: string | null;
}> {
  await db
    .insertInto('keyword_terms')
    .values({ term, storefront })
    .onConflict((oc) => oc.columns(['storefront', 'term']).doNothing())
    .execute();
  const row = await db
    .selectFrom('keyword_terms')
    .select(['id', 'last_checked_at', 'result_count', 'top', 'last_error'])
    .where('storefront', '=', storefront)
    .where('term', '=', term)
    .executeTakeFirstOrThrow();
  return {
    id: String(row.id),
    lastCheckedAt: row.last_checked_at,
    resultCount: row.result_count,
    top: row.top,
    lastError: row.last_error,
  };
}

/** Deletes researched terms nobody tracked within `maxAgeSeconds`; returns how many. */
export async function pruneUntrackedKeywordTerms(db: TDb, maxAgeSeconds: number): Promise<number> {
  const res = await sql`
    delete from keyword_terms t
    where t.created_at < now() - make_interval(secs => ${maxAgeSeconds})
    and not exists (select 1 from keyword_tracks k where k.term_id = t.id)
  `.execute(db);
  return Number(res.numAffectedRows ?? 0);
}
