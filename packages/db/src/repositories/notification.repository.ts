import { sql } from 'kysely';
import type { Db } from '../client';
import type { NotificationRow } from '../schema';
import type { DbOrTrx } from './expiry.sql';

/**
 * `notifications`: a watched listing of the user changed. One per user and snapshot, so a
 * retried read notifies nobody twice.
 */

/** What {@link insertNotifications} stores for one user. */
export interface NewNotification {
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
  db: DbOrTrx,
  rows: readonly NewNotification[],
): Promise<NotificationRow[]> {
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

/** The user's newest `limit` notifications (default 50) and how many are unread. */
export async function listNotifications(
  db: Db,
  userId: string,
  limit = 50,
): Promise<{ items: NotificationRow[]; unread: number }> {
  const [items, count] = await Promise.all([
    db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute(),
    db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return { items, unread: Number(count.n) };
}

/** How many of the user's notifications are unread. */
export async function countUnreadNotifications(db: Db, userId: string): Promise<number> {
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
  db: Db,
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
