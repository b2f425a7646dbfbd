/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// Every watch round looks for deliveries still pending a while after they were stored (their
// job was lost, e.g. to a Redis restart, or never queued): a partial index keeps that read
// proportional to the deliveries in flight, not to the 30 days of history.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index webhook_deliveries_pending_idx on webhook_deliveries (created_at) where status = 'pending'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists webhook_deliveries_pending_idx`.execute(db);
}
