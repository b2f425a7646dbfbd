import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TWatchTargetRow } from '../schema';
import type { TDbOrTrx } from './expiry.sql';
import { afterKey, pageAt, toPage, type TPage, type TPageRequest } from './page.sql';

/**
 * The watchlist: `watch_targets` (one row per watched app, storefront and page language,
 * however many users watch it: what the scheduler reads) and `watch_items` (a user's watch of
 * a target, as `mine` or `competitor`). A target without items is deleted with its last item:
 * nobody watches it, so nothing reads it; its snapshots and changes stay as history.
 */

/** A user's watched listing joined with its target. */
export interface TWatchItemView {
  id: string;
  userId: string;
  targetId: string;
  role: 'mine' | 'competitor';
  appStoreUrl: string;
  createdAt: Date;
  appId: string;
  storefront: string;
  language: string | null;
  appName: string | null;
  iconUrl: string | null;
  lastCheckedAt: Date | null;
  lastError: string | null;
  lastChangeAt: Date | null;
}

function itemsQuery(db: TDbOrTrx) {
  return db
    .selectFrom('watch_items as i')
    .innerJoin('watch_targets as t', 't.id', 'i.target_id')
    .select([
      'i.id',
      'i.user_id as userId',
      'i.target_id as targetId',
      'i.role',
      'i.app_store_url as appStoreUrl',
      'i.created_at as createdAt',
      't.app_id as appId',
      't.storefront',
      't.language',
      't.app_name as appName',
      't.icon_url as iconUrl',
      't.last_checked_at as lastCheckedAt',
      't.last_error as lastError',
      't.last_change_at as lastChangeAt',
    ]);
}

/** What {@link watchListing} stores. */
export interface TWatchInput {
  userId: string;
  appId: string;
  storefront: string;
  /** `?l=` page language, null for the storefront's default. */
  language: string | null;
  /** The normalised App Store URL (what a read of the target asks the store for). */
  appStoreUrl: string;
  role: 'mine' | 'competitor';
  /** Most items a user may have (`WATCHLIST_MAX_PER_USER`). */
  maxPerUser: number;
  /**
   * A new target's first due time from now (seconds): the caller queues its first read at
   * once, and a scheduler round reads it only if that read is lost. 0: due now.
   */
  firstReadLeaseSeconds: number;
}

/** What {@link watchListing} did. */
export type TWatchOutcome =
  { status: 'created' | 'updated'; item: TWatchItemView; newTarget: boolean } | { status: 'full' };

/**
 * Watches a listing for a user: finds or creates its target (with the name and icon of the
 * latest stored snapshot, due after `firstReadLeaseSeconds`), then inserts the user's item, or changes the
 * role of the item the user already has for that target. Refuses (`full`) a new item past
 * `maxPerUser`; the user's row is locked meanwhile, so two requests at once cannot both pass
 * the count.
 */
export async function watchListing(db: TDb, input: TWatchInput): Promise<TWatchOutcome> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', input.userId).forUpdate().execute();
    const existing = await findTarget(trx, input.appId, input.storefront, input.language);
    let targetId = existing?.id;
    if (!targetId) {
      const inserted = await trx
        .insertInto('watch_targets')
        .values({
          app_id: input.appId,
          storefront: input.storefront,
          language: input.language,
          app_store_url: input.appStoreUrl,
          next_check_at: sql<Date>`now() + make_interval(secs => ${input.firstReadLeaseSeconds})`,
          app_name: sql<string | null>`(
            select app_name from app_snapshots s
            where s.app_id = ${input.appId} and s.storefront = ${input.storefront}
              and s.language is not distinct from ${input.language}
            order by fetched_at desc, id desc limit 1)`,
          icon_url: sql<string | null>`(
            select nullif(listing->>'iconUrl', '') from app_snapshots s
            where s.app_id = ${input.appId} and s.storefront = ${input.storefront}
              and s.language is not distinct from ${input.language}
            order by fetched_at desc, id desc limit 1)`,
        })
        // Another user's request may have created it meanwhile: keep theirs.
        .onConflict((oc) =>
          oc.expression(sql`app_id, storefront, coalesce(language, '')`).doNothing(),
        )
        .returning('id')
        .executeTakeFirst();
      targetId =
        inserted?.id ?? (await findTarget(trx, input.appId, input.storefront, input.language))!.id;
    }
    const mine = await trx
      .selectFrom('watch_items')
      .select('id')
      .where('user_id', '=', input.userId)
      .where('target_id', '=', targetId)
      .executeTakeFirst();
    if (mine) {
      await trx
        .updateTable('watch_items')
        .set({ role: input.role })
        .where('id', '=', mine.id)
        .execute();
    } else {
      const { n } = await trx
        .selectFrom('watch_items')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', input.userId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= input.maxPerUser) return { status: 'full' };
      await trx
        .insertInto('watch_items')
        .values({
          user_id: input.userId,
          target_id: targetId,
          role: input.role,
          app_store_url: input.appStoreUrl,
        })
        .execute();
    }
    const item = await itemsQuery(trx)
      .where('i.user_id', '=', input.userId)
      .where('i.target_id', '=', targetId)
      .executeTakeFirstOrThrow();
    return { status: mine ? 'updated' : 'created', item, newTarget: !existing };
  });
}

async function findTarget(
  db: TDbOrTrx,
  appId: string,
  storefront: string,
  language: string | null,
) {
  return db
    .selectFrom('watch_targets')
    .selectAll()
    .where('app_id', '=', appId)
    .where('storefront', '=', storefront)
    .where(sql<boolean>`language is not distinct from ${language}`)
    .executeTakeFirst();
}

/**
 * Every watched listing of a user, newest first: at most `WATCHLIST_MAX_PER_USER` by
 * construction (the insert is counted), for code that needs them all (a keyword gap's
 * competitors). Lists shown to the user are paged: {@link listWatchItemsPage}.
 */
export async function listWatchItems(db: TDb, userId: string): Promise<TWatchItemView[]> {
  return itemsQuery(db)
    .where('i.user_id', '=', userId)
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .execute();
}

/** One page of a user's watched listings, newest first. */
export async function listWatchItemsPage(
  db: TDb,
  userId: string,
  page: TPageRequest,
): Promise<TPage<TWatchItemView>> {
  const rows = await itemsQuery(db)
    .select(pageAt('i'))
    .where('i.user_id', '=', userId)
    .where(afterKey('i', page.after, 'desc'))
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit);
}

/** The user's item `id`, or null (also for anyone else's item). */
export async function findWatchItem(
  db: TDb,
  userId: string,
  id: string,
): Promise<TWatchItemView | null> {
  return (
    (await itemsQuery(db)
      .where('i.user_id', '=', userId)
      .where('i.id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

/**
 * The user's item for app `appId` in `storefront` (the default page language first, then the
 * oldest), or null when the user does not watch it.
 */
export async function findWatchItemForApp(
  db: TDb,
  userId: string,
  appId: string,
  storefront: string,
): Promise<TWatchItemView | null> {
  return (
    (await itemsQuery(db)
      .where('i.user_id', '=', userId)
      .where('t.app_id', '=', appId)
      .where('t.storefront', '=', storefront)
      .orderBy(sql`t.language is null`, 'desc')
      .orderBy('i.created_at')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Deletes the user's item `id`, and its target when nobody else watches it. Returns false when
 * the user has no such item.
 */
export async function unwatchListing(db: TDb, userId: string, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const gone = await trx
      .deleteFrom('watch_items')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returning('target_id')
      .executeTakeFirst();
    if (!gone) return false;
    await trx
      .deleteFrom('watch_targets')
      .where('id', '=', gone.target_id)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('watch_items').select('id').where('target_id', '=', gone.target_id),
          ),
        ),
      )
      .execute();
    return true;
  });
}

/** Target `id`, or null when nobody watches it any more. */
export async function findWatchTarget(db: TDbOrTrx, id: string): Promise<TWatchTargetRow | null> {
  return (
    (await db.selectFrom('watch_targets').selectAll().where('id', '=', id).executeTakeFirst()) ??
    null
  );
}

/** The target of app `appId` in `storefront` and page language `language`, or null. */
export async function findWatchTargetOf(
  db: TDbOrTrx,
  appId: string,
  storefront: string,
  language: string | null,
): Promise<TWatchTargetRow | null> {
  return (await findTarget(db, appId, storefront, language)) ?? null;
}

/**
 * Claims up to `limit` targets due now (by the database clock), oldest due first, and moves
 * their due time `leaseSeconds` on, so the next round does not enqueue them again while their
 * read is queued; the read sets the real next time. A read lost with its job (a Redis that came
 * back empty) is thus retried after the lease. Returns the claimed targets with the due time
 * they had (epoch ms, the job id's tag).
 */
export async function claimDueTargets(
  db: TDb,
  limit: number,
  leaseSeconds: number,
): Promise<Array<{ id: string; dueAt: Date }>> {
  const rows = await sql<{ id: string; due_at: Date }>`
    with due as (
      select id, next_check_at from watch_targets
      where next_check_at <= now()
      order by next_check_at, id
      limit ${limit}
      for update skip locked
    )
    update watch_targets t
    set next_check_at = now() + make_interval(secs => ${leaseSeconds})
    from due where t.id = due.id
    returning t.id, due.next_check_at as due_at
  `.execute(db);
  return rows.rows.map((r) => ({ id: String(r.id), dueAt: r.due_at }));
}

/** How a read of a target went, for {@link recordTargetRead}. */
export interface TTargetReadOutcome {
  /** Null after a successful read; otherwise the user-facing reason it failed for good. */
  error: string | null;
  /** When the target is next due (the interval with jitter from now). */
  nextCheckAt: Date;
  /** From the snapshot stored (successful reads). */
  appName?: string | null;
  iconUrl?: string | null;
}

/**
 * Records a read of target `id`: `last_checked_at` (now), `last_error`, the next due time, and
 * after a successful read the name and icon of its snapshot.
 */
export async function recordTargetRead(
  db: TDbOrTrx,
  id: string,
  outcome: TTargetReadOutcome,
): Promise<void> {
  await db
    .updateTable('watch_targets')
    .set({
      last_checked_at: sql<Date>`now()`,
      last_error: outcome.error,
      next_check_at: outcome.nextCheckAt,
      ...(outcome.appName !== undefined ? { app_name: outcome.appName } : {}),
      ...(outcome.iconUrl !== undefined ? { icon_url: outcome.iconUrl } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** A user who watches a target, with their item (for notifications and webhooks). */
export interface TTargetWatcher {
  userId: string;
  itemId: string;
  role: 'mine' | 'competitor';
  appStoreUrl: string;
  /** Whether the user has a webhook. */
  hasWebhook: boolean;
}

/** Everyone watching app `appId` in `storefront` and page language `language`. */
export async function listTargetWatchers(
  db: TDbOrTrx,
  appId: string,
  storefront: string,
  language: string | null,
): Promise<TTargetWatcher[]> {
  return db
    .selectFrom('watch_items as i')
    .innerJoin('watch_targets as t', 't.id', 'i.target_id')
    .leftJoin('webhooks as w', 'w.user_id', 'i.user_id')
    .select([
      'i.user_id as userId',
      'i.id as itemId',
      'i.role',
      'i.app_store_url as appStoreUrl',
      sql<boolean>`w.user_id is not null`.as('hasWebhook'),
    ])
    .where('t.app_id', '=', appId)
    .where('t.storefront', '=', storefront)
    .where(sql<boolean>`t.language is not distinct from ${language}`)
    .orderBy('i.created_at')
    .execute();
}

/** How many targets are watched (the scheduler's load). */
export async function countWatchTargets(db: TDb): Promise<number> {
  const { n } = await db
    .selectFrom('watch_targets')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Records on the target of app `appId` in `storefront` and page language `language` (if
 * watched) that a listing change was found in the snapshot read at `at`, with the snapshot's
 * app name and icon.
 */
export async function markTargetChanged(
  db: TDbOrTrx,
  key: { appId: string; storefront: string; language: string | null },
  at: Date,
): Promise<void> {
  await db
    .updateTable('watch_targets')
    .set({ last_change_at: sql<Date>`greatest(last_change_at, ${at})` })
    .where('app_id', '=', key.appId)
    .where('storefront', '=', key.storefront)
    .where(sql<boolean>`language is not distinct from ${key.language}`)
    .execute();
}
