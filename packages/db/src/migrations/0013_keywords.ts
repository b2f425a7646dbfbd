/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// Keyword ranks.
// 1. `keyword_terms`: one row per (normalised term, storefront), however many users and apps
//    track it: what a round reads, when it is next due, how the last read went, the top
//    results of the last read (research), `throttled_until` (the store throttled its read;
//    retried then), and `suspect_empty_at`, set when a term that had
//    results answered none (the empty-answer alarm counts those).
// 2. `keyword_reads`: each read of a term: when, from which source, how many results and the
//    ordered app ids (at most 200), so every app's rank comes from the same read.
// 3. `keyword_tracks`: a user's tracking of a term for an app in a storefront, with the best
//    rank the app ever had for it.
// 4. `keyword_alarms`: the empty-answer alarm (raised, cleared) the admin's store health shows.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('keyword_terms')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('term', 'text', (c) => c.notNull())
    .addColumn('storefront', 'text', (c) => c.notNull())
    .addColumn('next_check_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_checked_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('result_count', 'integer')
    .addColumn('had_results', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('suspect_empty_at', 'timestamptz')
    .addColumn('throttled_until', 'timestamptz')
    .addColumn('top', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index keyword_terms_key on keyword_terms (storefront, term)`.execute(db);
  await sql`create index keyword_terms_due_idx on keyword_terms (next_check_at)`.execute(db);

  await db.schema
    .createTable('keyword_reads')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('term_id', 'bigint', (c) =>
      c.notNull().references('keyword_terms.id').onDelete('cascade'),
    )
    .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('result_count', 'integer', (c) => c.notNull())
    .addColumn('app_ids', sql`bigint[]`, (c) => c.notNull().check(sql`cardinality(app_ids) <= 200`))
    .execute();
  await sql`create index keyword_reads_term_idx on keyword_reads (term_id, read_at desc)`.execute(
    db,
  );

  await db.schema
    .createTable('keyword_tracks')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('term_id', 'bigint', (c) =>
      c.notNull().references('keyword_terms.id').onDelete('cascade'),
    )
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('storefront', 'text', (c) => c.notNull())
    .addColumn('best_rank', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index keyword_tracks_key on keyword_tracks (user_id, app_id, storefront, term_id)`.execute(
    db,
  );
  await sql`create index keyword_tracks_term_idx on keyword_tracks (term_id)`.execute(db);

  await db.schema
    .createTable('keyword_alarms')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('raised_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('cleared_at', 'timestamptz')
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index keyword_alarms_open_key on keyword_alarms ((true)) where cleared_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['keyword_alarms', 'keyword_tracks', 'keyword_reads', 'keyword_terms']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
