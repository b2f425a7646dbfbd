/**
 * The store read repository of @aso/db (the drift alarm's record) against this file's own
 * PostgreSQL database. Rows hold CONSTRUCTED reads.
 */
import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { it } from '@aso/testkit/vitest';
import { insertStoreRead, readStoreHealth, type TNewStoreReadInput } from '@aso/db';

const read = (over: Partial<TNewStoreReadInput>): TNewStoreReadInput => ({
  appId: '1',
  storefront: 'us',
  appName: 'App',
  layout: '2025',
  pageStatus: 'ok',
  foundFields: ['appName', 'category'],
  missingFields: [],
  error: null,
  ...over,
});

describe('store read repository', () => {
  it('sums the last 24 hours per layout and field, lists the latest failures, drops old reads', async ({
    database,
  }) => {
    const { db } = database;
    await insertStoreRead(db, read({ appId: '1' }));
    await insertStoreRead(
      db,
      read({ appId: '2', missingFields: ['category'], foundFields: ['appName'] }),
    );
    await insertStoreRead(
      db,
      read({ appId: '3', layout: 'ember', foundFields: ['appName', 'previews'] }),
    );
    await insertStoreRead(
      db,
      read({
        appId: '4',
        storefront: 'jp',
        layout: 'unknown',
        pageStatus: 'failed',
        foundFields: [],
        missingFields: ['appName', 'category', 'previews'],
        error: 'product page: Unknown App Store page layout',
      }),
    );
    await insertStoreRead(
      db,
      read({
        appId: '5',
        layout: 'none',
        pageStatus: 'failed',
        foundFields: [],
        error: 'product page: HTTP 503',
      }),
    );
    // A read from two days ago is outside the card's day.
    await insertStoreRead(db, read({ appId: '6', layout: 'jsonld' }));
    await sql`update store_reads set read_at = now() - interval '2 days' where app_id = '6'`.execute(
      db,
    );

    const health = await readStoreHealth(db);
    expect(health.reads).toBe(5);
    expect(health.byLayout).toEqual([
      { layout: '2025', reads: 2 },
      { layout: 'ember', reads: 1 },
      { layout: 'none', reads: 1 },
      { layout: 'unknown', reads: 1 },
    ]);
    expect(health.fields).toEqual([
      { field: 'appName', found: 3, expected: 4 },
      { field: 'category', found: 1, expected: 3 },
      { field: 'previews', found: 1, expected: 2 },
    ]);
    expect(health.failures.map((f) => [f.appId, f.storefront, f.layout, f.error])).toEqual([
      ['5', 'us', 'none', 'product page: HTTP 503'],
      ['4', 'jp', 'unknown', 'product page: Unknown App Store page layout'],
    ]);
    expect(health.failures[1]!.missingFields).toEqual(['appName', 'category', 'previews']);
    expect(Date.now() - health.since.getTime()).toBeGreaterThan(23.9 * 3600_000);

    // Reads older than 30 days go when the next one is stored.
    await sql`update store_reads set read_at = now() - interval '31 days' where app_id = '6'`.execute(
      db,
    );
    await insertStoreRead(db, read({ appId: '7' }));
    const left = await db.selectFrom('store_reads').select('app_id').execute();
    expect(left.map((r) => r.app_id).sort()).toEqual(['1', '2', '3', '4', '5', '7']);
  });
});
