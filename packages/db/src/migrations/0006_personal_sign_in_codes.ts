/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// Personal sign-in codes: an access code shared for registration no longer signs anyone in.
// Each user gets a code of their own at registration (or from an admin), stored only as its
// SHA-256 (`users.sign_in_code_hash`; null for users who registered before: they ask an admin
// for one). `users.last_sign_in_at` is shown to admins.
//
// Admin codes are stored only as their SHA-256 too (`access_codes.code_hash`, hex of the
// canonical code, as the gateway computes it): `code` becomes null for them. Invite codes keep
// `code` readable (admins copy them to hand them out; they only let someone register).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column sign_in_code_hash text`.execute(db);
  await sql`alter table users add column last_sign_in_at timestamptz`.execute(db);
  await sql`alter table access_codes add column code_hash text`.execute(db);
  await sql`alter table access_codes alter column code drop not null`.execute(db);
  await sql`update access_codes
    set code_hash = encode(sha256(convert_to(code, 'UTF8')), 'hex'), code = null
    where is_admin`.execute(db);
  await sql`create unique index access_codes_code_hash_idx on access_codes (code_hash)`.execute(db);
  await sql`alter table access_codes add constraint access_codes_code_or_hash
    check (code is not null or code_hash is not null)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // The plaintext of hashed admin codes is gone: those codes are dropped (set ADMIN_ACCESS_CODE
  // again to get one).
  await sql`alter table access_codes drop constraint access_codes_code_or_hash`.execute(db);
  await sql`delete from access_codes where code is null`.execute(db);
  await sql`drop index access_codes_code_hash_idx`.execute(db);
  await sql`alter table access_codes drop column code_hash`.execute(db);
  await sql`alter table access_codes alter column code set not null`.execute(db);
  await sql`alter table users drop column last_sign_in_at`.execute(db);
  await sql`alter table users drop column sign_in_code_hash`.execute(db);
}
