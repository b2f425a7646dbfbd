/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access -- migrations work on an untyped Kysely<any> (kysely docs) */
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

export async function up(db: Kysely<any>): Promise<void> {
  const id = (c: any) => c.primaryKey().defaultTo(sql`gen_random_uuid()`);
  const now = (c: any) => c.notNull().defaultTo(sql`now()`);

  await db.schema
    .createTable('access_codes')
    .addColumn('id', 'uuid', id)
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('max_uses', 'integer', (c) => c.notNull().check(sql`max_uses >= 1`))
    .addColumn('uses', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`uses >= 0`),
    )
    .addColumn('is_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', now)
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', id)
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('access_code_id', 'uuid', (c) =>
      c.references('access_codes.id').onDelete('set null'),
    )
    .addColumn('created_at', 'timestamptz', now)
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'uuid', id)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('access_code_id', 'uuid', (c) =>
      c.references('access_codes.id').onDelete('set null'),
    )
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema
    .createIndex('sessions_access_code_idx')
    .on('sessions')
    .column('access_code_id')
    .execute();

  await db.schema
    .createTable('audits')
    .addColumn('id', 'uuid', id)
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('access_code_id', 'uuid', (c) =>
      c.references('access_codes.id').onDelete('set null'),
    )
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('storefront', 'text', (c) => c.notNull())
    .addColumn('app_store_url', 'text', (c) => c.notNull())
    .addColumn('app_name', 'text')
    .addColumn('inputs', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued', 'running', 'done', 'failed')`),
    )
    .addColumn('result', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('provider', 'text')
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('audits_app_idx')
    .on('audits')
    .columns(['app_id', 'created_at'])
    .execute();
  await db.schema.createIndex('audits_created_idx').on('audits').column('created_at').execute();
  await db.schema
    .createIndex('audits_user_idx')
    .on('audits')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('app_snapshots')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('storefront', 'text', (c) => c.notNull())
    .addColumn('app_name', 'text')
    .addColumn('fetched_at', 'timestamptz', now)
    .addColumn('source_layout', 'text', (c) => c.notNull())
    .addColumn('listing', 'jsonb', (c) => c.notNull())
    .execute();
  await sql`create index app_snapshots_lookup_idx on app_snapshots (app_id, storefront, fetched_at desc)`.execute(
    db,
  );

  await db.schema
    .createTable('saved_audits')
    .addColumn('id', 'uuid', id)
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('audit_id', 'uuid', (c) => c.notNull().references('audits.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('storefront', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', now)
    .execute();
  await sql`create index saved_audits_user_idx on saved_audits (user_id, created_at desc)`.execute(
    db,
  );

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'uuid', id)
    .addColumn('audit_id', 'uuid', (c) => c.notNull().references('audits.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('feedback', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', now)
    .execute();
  await db.schema.createIndex('feedback_audit_idx').on('feedback').column('audit_id').execute();
  await db.schema.createIndex('feedback_created_idx').on('feedback').column('created_at').execute();

  await db.schema
    .createTable('datasets')
    .addColumn('id', 'uuid', id)
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('app_name', 'text')
    .addColumn('territory', 'text')
    .addColumn('headers', 'jsonb', (c) => c.notNull())
    .addColumn('rows', 'jsonb', (c) => c.notNull())
    .addColumn('processed_csv', 'text', (c) => c.notNull())
    .addColumn('total_rows', 'integer', (c) => c.notNull())
    .addColumn('date_start', 'date')
    .addColumn('date_end', 'date')
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('datasets_expiry_idx').on('datasets').column('expires_at').execute();
  await db.schema.createIndex('datasets_user_idx').on('datasets').column('user_id').execute();

  await db.schema
    .createTable('uploads')
    .addColumn('id', 'uuid', id)
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('field', 'text', (c) =>
      c.notNull().check(sql`field in ('conversionCSV', 'redownloadsCSV')`),
    )
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('dataset_id', 'uuid', (c) => c.references('datasets.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_expiry_idx').on('uploads').column('expires_at').execute();

  await db.schema
    .createTable('dashboards')
    .addColumn('id', 'uuid', id)
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('app_name', 'text', (c) => c.notNull())
    .addColumn('territory', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('config_json', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', now)
    .execute();
  await sql`create index dashboards_user_idx on dashboards (user_id, created_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'dashboards',
    'uploads',
    'datasets',
    'feedback',
    'saved_audits',
    'app_snapshots',
    'audits',
    'sessions',
    'users',
    'access_codes',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
