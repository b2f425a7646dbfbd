/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// Per-user quotas and paged admin lists:
// 1. `uploads (user_id)`: a user's stored bytes are summed before each upload (the storage
//    quota); datasets and documents already have an index leading with `user_id`.
// 2. `users.lockouts`, `users.last_lockout_at`: sign-in lock-outs of an email (its attempts
//    refused past a limit), counted for the admin's Users card.
// 3. Keyset indexes of the admin lists paged newest first on (created_at, id): users and the
//    active access codes.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index uploads_user_idx on uploads (user_id)`.execute(db);
  await db.schema
    .alterTable('users')
    .addColumn('lockouts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_lockout_at', 'timestamptz')
    .execute();
  await sql`create index users_created_idx on users (created_at desc, id desc)`.execute(db);
  await sql`create index access_codes_active_created_idx on access_codes (created_at desc, id desc) where active`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists access_codes_active_created_idx`.execute(db);
  await sql`drop index if exists users_created_idx`.execute(db);
  await db.schema
    .alterTable('users')
    .dropColumn('last_lockout_at')
    .dropColumn('lockouts')
    .execute();
  await sql`drop index if exists uploads_user_idx`.execute(db);
}
