/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// App Store Connect connections and the daily figures imported through the Analytics Reports API.
// 1. `asc_connections`: a user's API key (issuer id, key id, the private key sealed with
//    AES-256-GCM under SECRETS_KEY, never in clear) and the apps it saw when added.
// 2. `asc_imports`: each import of one app (state and counts of what it read).
// 3. `asc_instances`: report instances already stored (never fetched twice).
// 4. `asc_day_owners`: per app, report and Date, the newest instance that stated the Date:
//    its records replace every older instance's for that Date.
// 5. `asc_figures`: the figures (sums of Counts) per Date, measure, source type, territory
//    and device. Dates are ISO text (YYYY-MM-DD), compared as text.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('asc_connections')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('issuer_id', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('apps', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index asc_connections_user_idx on asc_connections (user_id, created_at desc)`.execute(
    db,
  );

  await db.schema
    .createTable('asc_imports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('connection_id', 'uuid', (c) =>
      c.notNull().references('asc_connections.id').onDelete('cascade'),
    )
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`state in ('queued', 'running', 'done', 'failed')`),
    )
    .addColumn('reports_found', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('instances', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('segments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`create index asc_imports_app_idx on asc_imports (connection_id, app_id, created_at desc)`.execute(
    db,
  );

  await db.schema
    .createTable('asc_instances')
    .addColumn('connection_id', 'uuid', (c) =>
      c.notNull().references('asc_connections.id').onDelete('cascade'),
    )
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('processing_date', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('stored_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('asc_instances_pk', ['connection_id', 'instance_id'])
    .execute();

  await db.schema
    .createTable('asc_day_owners')
    .addColumn('connection_id', 'uuid', (c) =>
      c.notNull().references('asc_connections.id').onDelete('cascade'),
    )
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('processing_date', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('asc_day_owners_pk', ['connection_id', 'app_id', 'kind', 'date'])
    .execute();

  await db.schema
    .createTable('asc_figures')
    .addColumn('connection_id', 'uuid', (c) =>
      c.notNull().references('asc_connections.id').onDelete('cascade'),
    )
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('measure', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('territory', 'text', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('counts', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create index asc_figures_day_idx on asc_figures (connection_id, app_id, kind, date)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'asc_figures',
    'asc_day_owners',
    'asc_instances',
    'asc_imports',
    'asc_connections',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
