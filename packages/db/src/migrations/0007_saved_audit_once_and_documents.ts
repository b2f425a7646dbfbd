/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// 1. A user keeps an audit once: saving it again answers the saved audit it already has. Rows
//    saved twice before this migration are reduced to the first one.
// 2. `documents`: the PDF of an audit or a dashboard, rendered by the render worker and kept
//    for its owner; `version` fingerprints what it was rendered from, so a changed audit or
//    dashboard is rendered again.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    delete from saved_audits s
    using saved_audits keep
    where s.user_id = keep.user_id and s.audit_id = keep.audit_id
      and (keep.created_at, keep.id) < (s.created_at, s.id)
  `.execute(db);
  await sql`create unique index saved_audits_user_audit_key on saved_audits (user_id, audit_id)`.execute(
    db,
  );

  await db.schema
    .createTable('documents')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('audit', 'dashboard')`))
    .addColumn('subject_id', 'uuid', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('pdf', 'bytea', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull())
    .addColumn('rendered_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index documents_subject_key on documents (user_id, kind, subject_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('documents').ifExists().execute();
  await sql`drop index if exists saved_audits_user_audit_key`.execute(db);
}
