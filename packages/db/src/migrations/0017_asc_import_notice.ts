/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import type { Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// `asc_imports.notice`: what an import that succeeded could not do, in words (e.g. the
// one-time snapshot of history refused to a key without the Admin role, while the ONGOING
// request's daily reports were imported). Null when there is nothing to say.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('asc_imports').addColumn('notice', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('asc_imports').dropColumn('notice').execute();
}
