import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely } from 'kysely';
import {
  createDb,
  ensureDatabase,
  findLiveDatasetCsv,
  findLiveDatasetRows,
  migrations,
  type TDb,
} from '@aso/db';
import { scratchDatabase } from '@aso/testkit';

// Migration 0002 on a database holding datasets in the old layout (rows as one JSONB array of
// keyed objects, the processed CSV stored as text): up keeps every value, down restores both.

const { url, drop } = scratchDatabase('aso_mig2');

afterAll(drop);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the old layout is not in the schema types
function migrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

const HEADERS = ['Date', 'Total Downloads', 'Conversion Rate', 'Note', 'Territory'];
/** Old-layout rows as the merge worker stored them before 0002 (constructed values). */
const OLD_ROWS = [
  {
    Date: '7/1/25',
    'Total Downloads': 1234,
    'Conversion Rate': 5.12,
    Note: '=HYPERLINK("http://x.invalid")',
    Territory: 'Korea, Republic of',
  },
  { Date: '7/2/25', 'Total Downloads': -12, 'Conversion Rate': null, Note: '-2+3', Territory: 'X' },
  // A key left out reads back as null.
  { Date: 'week 1', 'Total Downloads': 0, 'Conversion Rate': 0.5, Territory: 'X' },
];
/** The processed CSV the worker stored for OLD_ROWS (its writer's bytes, written out here). */
const OLD_CSV =
  'Date,Total Downloads,Conversion Rate,Note,Territory\n' +
  '7/1/25,1234,5.12,"\'=HYPERLINK(""http://x.invalid"")","Korea, Republic of"\n' +
  "7/2/25,-12,,'-2+3,X\n" +
  'week 1,0,0.5,,X\n';

describe('migration 0002_dataset_chunks', () => {
  it('moves old-layout rows into chunks without losing a value, and back down', async () => {
    await ensureDatabase(url);
    const db: TDb = createDb(url, { max: 2 });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the old layout is not in the schema types
    const raw = db as unknown as Kysely<any>;
    try {
      const to1 = await migrator(raw).migrateTo('0001_initial');
      expect(to1.error).toBeUndefined();

      const user = await db
        .insertInto('users')
        .values({ email: 'old-layout@example.com' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const insertOld = (
        rows: unknown[],
        csv: string,
        span: [string, string] | null,
      ): Promise<{ id: string }> =>
        raw
          .insertInto('datasets')
          .values({
            user_id: user.id,
            app_name: 'Old App',
            territory: 'X',
            headers: JSON.stringify(HEADERS),
            rows: JSON.stringify(rows),
            processed_csv: csv,
            total_rows: rows.length,
            date_start: span?.[0] ?? null,
            date_end: span?.[1] ?? null,
            expires_at: sql`now() + interval '1 day'`,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      const full = await insertOld(OLD_ROWS, OLD_CSV, ['2025-07-01', '2025-07-02']);
      const emptyCsv = `${HEADERS.join(',')}\n`;
      const empty = await insertOld([], emptyCsv, null);

      const up = await migrator(raw).migrateTo('0002_dataset_chunks');
      expect(up.error).toBeUndefined();
      expect(up.results?.map((r) => r.migrationName)).toEqual(['0002_dataset_chunks']);

      const columns = await sql<{ column_name: string }>`
        select column_name from information_schema.columns
        where table_name = 'datasets' order by column_name`.execute(db);
      expect(columns.rows.map((c) => c.column_name)).not.toContain('rows');
      expect(columns.rows.map((c) => c.column_name)).not.toContain('processed_csv');
      expect(columns.rows.map((c) => c.column_name)).toContain('merge_key');

      const storage = () =>
        sql<{ attstorage: string }>`
        select attstorage from pg_attribute
        where attrelid = 'uploads'::regclass and attname = 'content'`.execute(db);
      expect((await storage()).rows).toEqual([{ attstorage: 'e' }]);

      const chunks = await db
        .selectFrom('dataset_chunks')
        .selectAll()
        .orderBy('dataset_id')
        .orderBy('seq')
        .execute();
      expect(chunks).toEqual([
        {
          dataset_id: full.id,
          seq: 0,
          first_day: '2025-07-01',
          last_day: '2025-07-02',
          row_count: 3,
          rows: [
            ['7/1/25', 1234, 5.12, '=HYPERLINK("http://x.invalid")', 'Korea, Republic of'],
            ['7/2/25', -12, null, '-2+3', 'X'],
            ['week 1', 0, 0.5, null, 'X'],
          ],
        },
      ]);

      const read = await findLiveDatasetRows(db, full.id, user.id);
      expect(read).toEqual({
        id: full.id,
        headers: HEADERS,
        rows: OLD_ROWS.map((r) => ({ Note: null, ...r })),
      });
      const csv = await findLiveDatasetCsv(db, full.id, user.id);
      expect(await text(csv!.csv)).toBe(OLD_CSV);
      expect(await findLiveDatasetRows(db, empty.id, user.id)).toEqual({
        id: empty.id,
        headers: HEADERS,
        rows: [],
      });
      expect(await text((await findLiveDatasetCsv(db, empty.id, user.id))!.csv)).toBe(emptyCsv);

      const down = await migrator(raw).migrateTo('0001_initial');
      expect(down.error).toBeUndefined();
      const restored = (await raw
        .selectFrom('datasets')
        .select(['id', 'rows', 'processed_csv', 'total_rows'])
        .orderBy('total_rows', 'desc')
        .execute()) as unknown[];
      expect(restored).toEqual([
        {
          id: full.id,
          rows: OLD_ROWS.map((r) => ({ Note: null, ...r })),
          processed_csv: OLD_CSV,
          total_rows: 3,
        },
        { id: empty.id, rows: [], processed_csv: emptyCsv, total_rows: 0 },
      ]);
      expect((await storage()).rows).toEqual([{ attstorage: 'x' }]);
      const tables = await sql<{ n: number }>`
        select count(*)::int as n from information_schema.tables
        where table_name = 'dataset_chunks'`.execute(db);
      expect(tables.rows[0]!.n).toBe(0);

      // And up again, for a database that goes back and forth.
      expect((await migrator(raw).migrateToLatest()).error).toBeUndefined();
      expect((await findLiveDatasetRows(db, full.id, user.id))?.rows).toHaveLength(3);
    } finally {
      await db.destroy();
    }
  });
});
