import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb, ensureDatabase, migrateToLatest, migrations } from '@aso/db';
import { scratchDatabase } from '@aso/testkit';

const { url, drop } = scratchDatabase('aso_mig');

afterAll(drop);

describe('migrations', () => {
  it('create every table of docs/product.md#storage on an empty database, then are a no-op', async () => {
    expect(await ensureDatabase(url)).toBe(true);
    expect(await ensureDatabase(url)).toBe(false);
    const db = createDb(url, { max: 1 });
    try {
      const first = await migrateToLatest(db);
      expect(first.results?.map((r) => [r.migrationName, r.status])).toEqual(
        Object.keys(migrations).map((m) => [m, 'Success']),
      );
      const tables = await sql<{ table_name: string }>`
        select table_name from information_schema.tables
        where table_schema = 'public' and table_name not like 'kysely_%' order by table_name`.execute(
        db,
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual([
        'access_codes',
        'app_snapshots',
        'asc_connections',
        'asc_day_owners',
        'asc_figures',
        'asc_imports',
        'asc_instances',
        'audits',
        'dashboards',
        'dataset_chunks',
        'datasets',
        'documents',
        'feedback',
        'keyword_alarms',
        'keyword_reads',
        'keyword_terms',
        'keyword_tracks',
        'listing_changes',
        'notifications',
        'saved_audits',
        'sessions',
        'share_links',
        'store_reads',
        'uploads',
        'users',
        'watch_items',
        'watch_targets',
        'webhook_deliveries',
        'webhooks',
      ]);
      const indexes = await sql<{ indexname: string }>`
        select indexname from pg_indexes where schemaname = 'public'`.execute(db);
      const names = indexes.rows.map((r) => r.indexname);
      for (const idx of [
        'access_codes_code_key',
        'sessions_token_hash_key',
        'users_email_key',
        'saved_audits_user_idx',
        'saved_audits_user_audit_key',
        'documents_subject_key',
        'dashboards_user_idx',
        'audits_app_idx',
        'audits_created_idx',
        'app_snapshots_lookup_idx',
        'store_reads_read_at_idx',
        'datasets_expiry_idx',
        'dataset_chunks_pkey',
        'datasets_merge_key_key',
        'watch_targets_key',
        'watch_items_user_target_key',
        'listing_changes_snapshot_field_key',
        'notifications_user_snapshot_key',
      ]) {
        expect(names).toContain(idx);
      }
      const again = await migrateToLatest(db);
      expect(again.results).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it('enforce the constraints: unique code, uses within range, status values', async () => {
    const db = createDb(url, { max: 1 });
    try {
      await db.insertInto('access_codes').values({ code: 'A', max_uses: 1 }).execute();
      await expect(
        db.insertInto('access_codes').values({ code: 'A', max_uses: 1 }).execute(),
      ).rejects.toThrow(/duplicate key/);
      await expect(
        db.insertInto('access_codes').values({ code: 'B', max_uses: 0 }).execute(),
      ).rejects.toThrow(/check constraint/);
      await expect(
        db
          .insertInto('audits')
          .values({
            app_id: '1',
            storefront: 'us',
            app_store_url: 'https://apps.apple.com/us/app/id1',
            inputs: JSON.stringify({}),
            status: 'bogus' as never,
          })
          .execute(),
      ).rejects.toThrow(/check constraint/);
    } finally {
      await db.destroy();
    }
  });
});
