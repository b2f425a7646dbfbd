import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TNotificationRow } from '../schema';
import type { TDbOrTrx } from './expiry.sql';
import { afterKey, pageAt, toPage, type TPage, type TPageRequest } from './page.sql';

/**
 * `notifications`: a watched listing of the user changed (`listing`: one per user and
 * snapshot), or the rank of a term the user tracks moved (`keyword`: one per user, read and
 * app), so a retried read notifies nobody twice.
 */

/** What {@link insertNotifications} stores for one user. */
export interface TNewNotification {
  userId: string;
  watchItemId: string;
  snapshotId: string;
  appId: string;
  storefront: string;
  appName: string | null;
  role: 'mine' | 'competitor';
  /** The changed fields (contracts `TChangeField`), in timeline order. */
  fields: string[];
  detectedAt: Date;
}

/** Inserts the notifications (one already stored for a user and snapshot is kept); returns the new ones. */
export async function insertNotifications(
  db: TDbOrTrx,
  rows: readonly TNewNotification[],
): Promise<TNotificationRow[]> {
  if (rows.length === 0) return [];
  return db
    .insertInto('notifications')
    .values(
      rows.map((n) => ({
        user_id: n.userId,
        watch_item_id: n.watchItemId,
        snapshot_id: n.snapshotId,
        app_id: n.appId,
        storefront: n.storefront,
        app_name: n.appName,
        role: n.role,
        fields: n.fields,
        detected_at: n.detectedAt,
      })),
    )
    .onConflict((oc) => oc.columns(['user_id', 'snapshot_id']).doNothing())
    .returningAll()
    .execute();
}

/** What {@link insertKeywordNotifications} stores for one user and app. */
export interface TNewKeywordNotification {
  userId: string;
  watchItemId: string | null;
  readId: string;
  trackId: string;
  appId: string;
  storefront: string;
  appName: string | null;
  role: 'mine' | 'competitor';
  /** The move (contracts `TKeywordRankMove`). */
  rankMove: Record<string, unknown>;
  detectedAt: Date;
}

/**
 * Inserts rank-move notifications (one already stored for a user, read and app is kept);
 * returns the new ones.
 */
export async function insertKeywordNotifications(
  db: TDbOrTrx,
  rows: readonly TNewKeywordNotification[],
): Promise<TNotificationRow[]> {
  if (rows.length === 0) return [];
  return db
    .insertInto('notifications')
    .values(
      rows.map((n) => ({
        user_id: n.userId,
        kind: 'keyword' as const,
        watch_item_id: n.watchItemId,
        snapshot_id: null,
        keyword_read_id: n.readId,
        keyword_track_id: n.trackId,
        app_id: n.appId,
        storefront: n.storefront,
        app_name: n.appName,
        role: n.role,
        fields: [],
        rank_move: JSON.stringify(n.rankMove),
        detected_at: n.detectedAt,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'keyword_read_id', 'app_id'])
        .where('keyword_read_id', 'is not', null)
        .doNothing(),
    )
    .returningAll()
    .execute();
}

/** One page of the user's notifications, newest first, and how many of all are unread. */
export async function listNotifications(
  db: TDb,
  userId: string,
  page: TPageRequest,
): Promise<{ page: TPage<TNotificationRow>; unread: number }> {
  const [rows, unread] = await Promise.all([
    db
      .selectFrom('notifications')
      .selectAll()
      .select(pageAt('notifications'))
      .where('user_id', '=', userId)
      .where(afterKey('notifications', page.after, 'desc'))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute(),
    countUnreadNotifications(db, userId),
  ]);
  return { page: toPage(rows, page.limit), unread };
}

/** How many of the user's notifications are unread. */
export async function countUnreadNotifications(db: TDb, userId: string): Promise<number> {
  const { n } = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Marks the user's notifications `ids` read (every unread one when `ids` is undefined); ids
 * of other users' notifications are ignored. Returns how many were marked.
 */
export async function markNotificationsRead(
  db: TDb,
  userId: string,
  ids?: readonly string[],
): Promise<number> {
  if (ids && ids.length === 0) return 0;
  let q = db
    .updateTable('notifications')
    .set({ read_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids) q = q.where('id', 'in', ids);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}
