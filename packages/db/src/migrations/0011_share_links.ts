/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// `share_links`: read-only links to one audit that open without an account. Only the SHA-256
// of a link's token is stored (a database leak gives no working link), with the token's first
// characters so its owner can tell the links apart in the list. Revoking deletes the row; an
// expired row answers 404 like a revoked one until the owner's next new link clears it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('share_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('audit_id', 'uuid', (c) => c.notNull().references('audits.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await sql`create index share_links_user_idx on share_links (user_id, created_at desc, id)`.execute(
    db,
  );
  await sql`create index share_links_audit_idx on share_links (audit_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('share_links').ifExists().execute();
}
