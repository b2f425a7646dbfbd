import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TWebhookDeliveryRow, TWebhookRow } from '../schema';
import type { TDbOrTrx } from './expiry.sql';

/**
 * `webhooks` (one per user: URL and signing secret) and `webhook_deliveries` (each event to
 * POST and how its delivery went). Deliveries older than {@link DELIVERY_KEEP_DAYS} days are
 * deleted as new ones arrive.
 */

/** Days a delivery is kept. */
const DELIVERY_KEEP_DAYS = 30;

/** The user's webhook, or null. */
export async function findWebhook(db: TDbOrTrx, userId: string): Promise<TWebhookRow | null> {
  return (
    (await db
      .selectFrom('webhooks')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Sets the user's webhook URL. A new webhook gets `secret`; an existing one keeps its secret
 * unless `rotate`. Returns the row and whether its secret is new (only then is it shown).
 */
export async function upsertWebhook(
  db: TDb,
  userId: string,
  url: string,
  secret: string,
  rotate = false,
): Promise<{ webhook: TWebhookRow; secretIsNew: boolean }> {
  const row = await db
    .insertInto('webhooks')
    .values({ user_id: userId, url, secret })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        url,
        updated_at: sql<Date>`now()`,
        ...(rotate ? { secret } : {}),
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return { webhook: row, secretIsNew: row.secret === secret };
}

/** Deletes the user's webhook and its deliveries; false when none was set. */
export async function deleteWebhook(db: TDb, userId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('webhook_deliveries').where('user_id', '=', userId).execute();
    const res = await trx.deleteFrom('webhooks').where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  });
}

/** Stores one event to deliver to the user's webhook (status `pending`) and returns its id. */
export async function insertWebhookDelivery(
  db: TDbOrTrx,
  userId: string,
  event: Record<string, unknown> & { id: string },
): Promise<string> {
  await db
    .deleteFrom('webhook_deliveries')
    .where('user_id', '=', userId)
    .where('created_at', '<', sql<Date>`now() - make_interval(days => ${DELIVERY_KEEP_DAYS})`)
    .execute();
  const row = await db
    .insertInto('webhook_deliveries')
    .values({ id: event.id, user_id: userId, event: JSON.stringify(event) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Ids of deliveries still `pending` `olderThanMs` (ms) after they were stored, oldest first, at
 * most `limit`: those whose job may have been lost (a Redis restart, or queueing after the
 * commit failed). Queueing them again under their own id is safe: BullMQ adds nothing for an
 * id it still holds, and the handler skips a delivery that is no longer pending.
 */
export async function listStrandedWebhookDeliveries(
  db: TDb,
  olderThanMs: number,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Delivery `id` with the webhook it goes to (null when the user removed the webhook). */
export async function findWebhookDelivery(
  db: TDb,
  id: string,
): Promise<{ delivery: TWebhookDeliveryRow; webhook: TWebhookRow | null } | null> {
  const delivery = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!delivery) return null;
  return { delivery, webhook: await findWebhook(db, delivery.user_id) };
}

/** Records one attempt of delivery `id`: delivered, or its error (`failed` once no try is left). */
export async function recordWebhookAttempt(
  db: TDb,
  id: string,
  outcome: { status: 'pending' | 'delivered' | 'failed'; error: string | null },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: sql<number>`attempts + 1`,
      status: outcome.status,
      last_error: outcome.error,
      ...(outcome.status === 'delivered' ? { delivered_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** The user's latest `limit` deliveries (default 10), newest first. */
export async function listWebhookDeliveries(
  db: TDb,
  userId: string,
  limit = 10,
): Promise<TWebhookDeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}
