import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TDbOrTrx } from './expiry.sql';

/*
 * The empty-answer alarm of the keyword rounds (`keyword_alarms`, one open at a time): raised
 * when terms that had results answer empty; while it is open the rounds only probe suspect
 * terms, and it clears when a probe answers with results again.
 */

/** Terms marked suspect-empty within the last `windowSeconds`. */
export async function countSuspectEmptyTerms(db: TDb, windowSeconds: number): Promise<number> {
  const row = await sql<{ n: number }>`
    select count(*)::int as n from keyword_terms
    where suspect_empty_at > now() - make_interval(secs => ${windowSeconds})
  `.execute(db);
  return row.rows[0]?.n ?? 0;
}

/** The open empty-answer alarm, or null. */
export async function openKeywordAlarm(
  db: TDbOrTrx,
): Promise<{ id: string; raisedAt: Date; detail: string } | null> {
  const row = await db
    .selectFrom('keyword_alarms')
    .select(['id', 'raised_at', 'detail'])
    .where('cleared_at', 'is', null)
    .executeTakeFirst();
  return row ? { id: String(row.id), raisedAt: row.raised_at, detail: row.detail } : null;
}

/** Raises the empty-answer alarm (one open at a time; a second raise keeps the first). */
export async function raiseKeywordAlarm(db: TDb, detail: string): Promise<void> {
  await sql`
    insert into keyword_alarms (detail) values (${detail})
    on conflict ((true)) where cleared_at is null do nothing
  `.execute(db);
}

/**
 * The empty-answer alarm as the admin's store health shows it: the open alarm (null when none)
 * with what it holds back (`pausedTerms`: tracked terms due now that the paused rounds do not
 * read; `suspectTerms`: terms whose last answer was a suspicious empty one), and when the last
 * alarm was cleared (null: never).
 */
export async function keywordAlarmStatus(db: TDb): Promise<{
  alarm: {
    raisedAt: Date;
    detail: string;
    pausedTerms: number;
    suspectTerms: number;
  } | null;
  lastClearedAt: Date | null;
}> {
  const [open, cleared, counts] = await Promise.all([
    openKeywordAlarm(db),
    db
      .selectFrom('keyword_alarms')
      .select((eb) => eb.fn.max('cleared_at').as('at'))
      .executeTakeFirst(),
    sql<{ paused: number; suspect: number }>`
      select
        count(*) filter (where t.next_check_at <= now() and t.suspect_empty_at is null)::int as paused,
        count(*) filter (where t.suspect_empty_at is not null)::int as suspect
      from keyword_terms t
      where exists (select 1 from keyword_tracks k where k.term_id = t.id)
    `.execute(db),
  ]);
  const c = counts.rows[0] ?? { paused: 0, suspect: 0 };
  return {
    alarm: open
      ? {
          raisedAt: open.raisedAt,
          detail: open.detail,
          pausedTerms: c.paused,
          suspectTerms: c.suspect,
        }
      : null,
    lastClearedAt: cleared?.at ?? null,
  };
}

/** Clears the open empty-answer alarm; true when one was open. */
export async function clearKeywordAlarm(db: TDb): Promise<boolean> {
  const res = await db
    .updateTable('keyword_alarms')
    .set({ cleared_at: sql<Date>`now()` })
    .where('cleared_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
