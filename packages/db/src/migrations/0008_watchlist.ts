/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// Watching listings over time.
// 1. `app_snapshots` gains the page language it was read in (`?l=`, null for the storefront's
//    default; filled from the stored listing) and `reusable`: the admin's cache clear turns it
//    off so the next audit reads the store, but the snapshot stays as history.
// 2. `watch_targets`: one row per watched (app, storefront, page language), however many users
//    watch it, with when it is next due and how the last read went. `watch_items`: a user's
//    watch of a target, as `mine` or `competitor`.
// 3. `listing_changes`: each field that differs between a snapshot and the one before it.
// 4. `notifications`: one per user and snapshot with listing changes. `webhooks` (one per user,
//    with its signing secret) and `webhook_deliveries` (each POST and how it went).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('app_snapshots').addColumn('language', 'text').execute();
  await db.schema
    .alterTable('app_snapshots')
    .addColumn('reusable', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await sql`
    update app_snapshots set language = nullif(listing->'storeData'->>'requestedLanguage', '')
  `.execute(db);

  await db.schema
    .createTable('watch_targets')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('storefront', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('app_store_url', 'text', (c) => c.notNull())
    .addColumn('app_name', 'text')
    .addColumn('icon_url', 'text')
    .addColumn('next_check_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_checked_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('last_change_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index watch_targets_key on watch_targets (app_id, storefront, coalesce(language, ''))`.execute(
    db,
  );
  await sql`create index watch_targets_due_idx on watch_targets (next_check_at)`.execute(db);

  await db.schema
    .createTable('watch_items')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_id', 'bigint', (c) =>
      c.notNull().references('watch_targets.id').onDelete('cascade'),
    )
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('mine', 'competitor')`))
    .addColumn('app_store_url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index watch_items_user_target_key on watch_items (user_id, target_id)`.execute(
    db,
  );
  await sql`create index watch_items_target_idx on watch_items (target_id)`.execute(db);

  await db.schema
    .createTable('listing_changes')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('storefront', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('snapshot_id', 'bigint', (c) =>
      c.notNull().references('app_snapshots.id').onDelete('cascade'),
    )
    .addColumn('previous_snapshot_id', 'bigint', (c) =>
      c.notNull().references('app_snapshots.id').onDelete('cascade'),
    )
    .addColumn('detected_at', 'timestamptz', (c) => c.notNull())
    .addColumn('previous_at', 'timestamptz', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('detail', 'jsonb')
    .execute();
  await sql`create unique index listing_changes_snapshot_field_key on listing_changes (snapshot_id, field)`.execute(
    db,
  );
  await sql`create index listing_changes_app_idx on listing_changes (app_id, storefront, detected_at desc)`.execute(
    db,
  );
  await sql`create index listing_changes_previous_idx on listing_changes (previous_snapshot_id)`.execute(
    db,
  );

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('watch_item_id', 'uuid', (c) => c.references('watch_items.id').onDelete('set null'))
    .addColumn('snapshot_id', 'bigint', (c) =>
      c.notNull().references('app_snapshots.id').onDelete('cascade'),
    )
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('storefront', 'text', (c) => c.notNull())
    .addColumn('app_name', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('fields', sql`text[]`, (c) => c.notNull())
    .addColumn('detected_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('read_at', 'timestamptz')
    .execute();
  await sql`create unique index notifications_user_snapshot_key on notifications (user_id, snapshot_id)`.execute(
    db,
  );
  await sql`create index notifications_user_idx on notifications (user_id, created_at desc)`.execute(
    db,
  );
  await sql`create index notifications_unread_idx on notifications (user_id) where read_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('webhooks')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'delivered', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .execute();
  await sql`create index webhook_deliveries_user_idx on webhook_deliveries (user_id, created_at desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'webhook_deliveries',
    'webhooks',
    'notifications',
    'listing_changes',
    'watch_items',
    'watch_targets',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable('app_snapshots').dropColumn('reusable').execute();
  await db.schema.alterTable('app_snapshots').dropColumn('language').execute();
}
