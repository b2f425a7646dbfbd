/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// An upload sent again with the same files while its first request was never answered (cut,
// e.g. by a gateway that died) is merged as the same uploads, so it gets the dataset the first
// one's merge stored instead of a second one nobody has the id of: the SHA-256 of each file,
// kept until its request is answered, finds it. Null once answered, and for older uploads.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('unanswered_sha256', 'text').execute();
  await sql`create index uploads_unanswered_idx on uploads (user_id, unanswered_sha256) where unanswered_sha256 is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists uploads_unanswered_idx`.execute(db);
  await db.schema.alterTable('uploads').dropColumn('unanswered_sha256').execute();
}
