import { sql } from 'kysely';
import type { TDb } from '../client';

/*
 * Rank histories read back from `keyword_reads` for the keyword screens and the dashboard:
 * one term's ranks, every tracked term's ranks over a range, and the latest read of terms.
 */

/**
 * The recorded ranks of app `appId` for term `termId`, oldest first: the latest `limit`
 * (default 1,000, nearly three years of daily reads), so the answer stays bounded however long
 * a term is tracked.
 */
export async function keywordRankHistory(
  db: TDb,
  termId: string,
  appId: string,
  limit = 1_000,
): Promise<Array<{ readAt: Date; rank: number | null; source: string }>> {
  const rows = await sql<{ read_at: Date; rank: number | null; source: string }>`
    select read_at, array_position(app_ids, ${appId}::bigint) as rank, source
    from keyword_reads where term_id = ${termId} order by read_at desc, id desc limit ${limit}
  `.execute(db);
  return rows.rows.reverse().map((r) => ({ readAt: r.read_at, rank: r.rank, source: r.source }));
}

/** One tracked term's ranks over a time range (see {@link keywordRanksForApp}). */
export interface TKeywordRankSeries {
  trackId: string;
  term: string;
  bestRank: number | null;
  /** Oldest first; the newest `maxPoints` of the range. */
  points: Array<{ readAt: Date; rank: number | null; source: string }>;
  /** The range held more than `maxPoints` reads. */
  truncated: boolean;
}

/**
 * The rank history of app `appId` for every term the user tracks for it in `storefront`, reads
 * made within [`from`, `to`] (both inclusive), at most `maxPoints` per term (the newest), in
 * tracking order (then by term).
 */
export async function keywordRanksForApp(
  db: TDb,
  input: {
    userId: string;
    appId: string;
    storefront: string;
    from: Date;
    to: Date;
    maxPoints: number;
  },
): Promise<TKeywordRankSeries[]> {
  const rows = await sql<{
    id: string;
    term: string;
    best_rank: number | null;
    points: Array<{ readAt: string; rank: number | null; source: string }> | null;
  }>`
    select k.id, t.term, k.best_rank,
      (select json_agg(json_build_object('readAt', x.read_at, 'rank', x.rank, 'source', x.source)
                       order by x.read_at desc, x.id desc)
        from (select r.id, r.read_at, r.source, array_position(r.app_ids, k.app_id::bigint) as rank
              from keyword_reads r
              where r.term_id = k.term_id and r.read_at >= ${input.from} and r.read_at <= ${input.to}
              order by r.read_at desc, r.id desc limit ${input.maxPoints + 1}) x) as points
    from keyword_tracks k
    join keyword_terms t on t.id = k.term_id
    where k.user_id = ${input.userId} and k.app_id = ${input.appId}
      and k.storefront = ${input.storefront}
    order by k.created_at, t.term
  `.execute(db);
  return rows.rows.map((r) => {
    const newest = r.points ?? [];
    return {
      trackId: r.id,
      term: r.term,
      bestRank: r.best_rank,
      points: newest
        .slice(0, input.maxPoints)
        .reverse()
        .map((p) => ({ readAt: new Date(p.readAt), rank: p.rank, source: p.source })),
      truncated: newest.length > input.maxPoints,
    };
  });
}

/**
 * The latest stored read of each of `terms` (normalised) in `storefront`: its time, source and
 * ordered app ids. Terms never read (or not stored) are absent from the map.
 */
export async function latestKeywordReads(
  db: TDb,
  storefront: string,
  terms: readonly string[],
): Promise<Map<string, { readAt: Date; source: string; appIds: string[] }>> {
  if (terms.length === 0) return new Map();
  const rows = await sql<{ term: string; read_at: Date; source: string; app_ids: string[] }>`
    select t.term, r.read_at, r.source, r.app_ids
    from keyword_terms t
    join lateral (
      select read_at, source, app_ids from keyword_reads r
      where r.term_id = t.id order by r.read_at desc, r.id desc limit 1
    ) r on true
    where t.storefront = ${storefront} and t.term = any(${sql.val([...terms])}::text[])
  `.execute(db);
  return new Map(
    rows.rows.map((r) => [
      r.term,
      { readAt: r.read_at, source: r.source, appIds: r.app_ids.map(String) },
    ]),
  );
}
