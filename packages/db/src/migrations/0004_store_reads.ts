/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// The drift alarm of the store reader: one row per store read of an app (a scrape that reached
// the store), with the product page layout read ('unknown' when no parser recognised the page),
// how the page went, the fields its layout carries that the page gave and those it lacked, and
// the error when the page (or the whole read) failed. The admin's "Store data health" reads the
// last 24 hours; rows older than 30 days are deleted as new ones arrive.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('store_reads')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('storefront', 'text', (c) => c.notNull())
    .addColumn('app_name', 'text')
    .addColumn('layout', 'text', (c) => c.notNull())
    .addColumn('page_status', 'text', (c) => c.notNull())
    .addColumn('found_fields', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('missing_fields', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('error', 'text')
    .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index store_reads_read_at_idx on store_reads (read_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('store_reads').ifExists().execute();
}
