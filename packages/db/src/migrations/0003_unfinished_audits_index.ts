/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// The analyzer looks for unfinished audits every few seconds (to re-enqueue those whose jobs a
// Redis restart lost, and to close stale ones): a partial index keeps that read proportional
// to the audits in flight, not to the whole history.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index audits_unfinished_idx on audits (created_at) where status in ('queued', 'running')`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists audits_unfinished_idx`.execute(db);
}
