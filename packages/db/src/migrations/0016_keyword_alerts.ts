/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// Rank alerts of tracked keywords.
// 1. `keyword_reads.job_key`: the job (id and creation time) that stored the read, unique, so a
//    retried job finds its read instead of storing a second one.
// 2. `notifications.kind`: `listing` (a watched listing changed; `snapshot_id` set, as before)
//    or `keyword` (a tracked term's rank moved: `keyword_read_id`, `keyword_track_id` and
//    `rank_move` {term, storefront, from, to, source}; `snapshot_id` null). One per user, read
//    and app. References to a read or track that goes away are set null: the notification
//    stays readable from `rank_move`.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('keyword_reads').addColumn('job_key', 'text').execute();
  await sql`create unique index keyword_reads_job_key on keyword_reads (job_key) where job_key is not null`.execute(
    db,
  );

  await db.schema
    .alterTable('notifications')
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('listing')
        .check(sql`kind in ('listing', 'keyword')`),
    )
    .execute();
  await sql`alter table notifications alter column snapshot_id drop not null`.execute(db);
  await db.schema
    .alterTable('notifications')
    .addColumn('keyword_read_id', 'bigint', (c) =>
      c.references('keyword_reads.id').onDelete('set null'),
    )
    .addColumn('keyword_track_id', 'uuid', (c) =>
      c.references('keyword_tracks.id').onDelete('set null'),
    )
    .addColumn('rank_move', 'jsonb')
    .execute();
  await sql`
    alter table notifications add constraint notifications_kind_subject check (
      (kind = 'listing' and snapshot_id is not null) or (kind = 'keyword' and rank_move is not null)
    )
  `.execute(db);
  await sql`create unique index notifications_user_read_app_key on notifications (user_id, keyword_read_id, app_id) where keyword_read_id is not null`.execute(
    db,
  );
  await sql`create index notifications_keyword_track_idx on notifications (keyword_track_id) where keyword_track_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('notifications').where('kind', '=', 'keyword').execute();
  await sql`alter table notifications drop constraint notifications_kind_subject`.execute(db);
  await db.schema
    .alterTable('notifications')
    .dropColumn('rank_move')
    .dropColumn('keyword_track_id')
    .dropColumn('keyword_read_id')
    .dropColumn('kind')
    .execute();
  await sql`alter table notifications alter column snapshot_id set not null`.execute(db);
  await db.schema.alterTable('keyword_reads').dropColumn('job_key').execute();
}
