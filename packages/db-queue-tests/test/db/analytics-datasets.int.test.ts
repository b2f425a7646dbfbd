import { randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { describe, expect } from 'vitest';
import {
  datasetRowArrays,
  findLiveDataset,
  findLiveDatasetByMergeKey,
  findLiveDatasetCsv,
  findLiveDatasetRows,
  insertUpload,
  readUploadSlice,
  storeDataset,
  writeDatasetCsv,
  type TNewDatasetInput,
  type TDatasetCell,
  type TDatasetRowsChunk,
} from '@aso/db';
import { createTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';

const HEADERS = ['Date', 'Downloads', 'Note', 'Territory'];

/** `days` constructed rows from 2020-01-01, in chunks of `size`. */
function chunksOf(
  days: number,
  size: number,
): { rows: TDatasetCell[][]; chunks: TDatasetRowsChunk[] } {
  const rows: TDatasetCell[][] = [];
  const chunks: TDatasetRowsChunk[] = [];
  for (let i = 0; i < days; i++) {
    const iso = new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10);
    // A long note makes the JSON pass one INSERT's worth of text within a few thousand rows.
    rows.push([
      iso,
      i % 7 === 0 ? null : i,
      i % 3 === 0 ? `note ${i} ${'x'.repeat(1000)}` : null,
      'Chile',
    ]);
  }
  for (let at = 0; at < rows.length; at += size) {
    const slice = rows.slice(at, at + size);
    chunks.push({ rows: slice, firstDay: String(slice[0]![0]), lastDay: String(slice.at(-1)![0]) });
  }
  return { rows, chunks };
}

function input(
  userId: string,
  chunks: TNewDatasetInput['chunks'],
  extra: Partial<TNewDatasetInput> = {},
): TNewDatasetInput {
  return {
    userId,
    appName: 'Stored App',
    territory: 'Chile',
    headers: HEADERS,
    chunks,
    dateSpan: { start: '2020-01-01', end: '2020-01-02' },
    ttlDays: 1,
    uploadIds: [],
    ...extra,
  };
}

const asObjects = (rows: TDatasetCell[][]) =>
  rows.map((r) => Object.fromEntries(HEADERS.map((h, i) => [h, r[i] ?? null])));

describe('datasets stored in chunks (docs/BENCHMARKS.md)', () => {
  it('writes chunks in order over several INSERTs and reads them back in order', async ({
    database,
  }) => {
    const db = database.db;
    const { userId } = await createTestUser(db);
    const { rows, chunks } = chunksOf(12_000, 500);
    async function* produce(): AsyncGenerator<TDatasetRowsChunk, void, undefined> {
      for (const chunk of chunks) {
        await new Promise((resolve) => setImmediate(resolve));
        yield chunk;
      }
      yield { rows: [], firstDay: null, lastDay: null };
    }
    const stored = await storeDataset(db, input(userId, produce()));
    expect(stored).toMatchObject({ totalRows: 12_000, created: true });

    const stats = await db
      .selectFrom('dataset_chunks')
      .select(['seq', 'row_count', 'first_day', 'last_day'])
      .where('dataset_id', '=', stored.id)
      .orderBy('seq')
      .execute();
    expect(stats).toEqual(
      chunks.map((c, seq) => ({
        seq,
        row_count: 500,
        first_day: c.firstDay,
        last_day: c.lastDay,
      })),
    );
    expect(await findLiveDataset(db, stored.id, userId)).toMatchObject({
      id: stored.id,
      total_rows: 12_000,
      headers: HEADERS,
    });
    const read = await findLiveDatasetRows(db, stored.id, userId);
    expect(read?.headers).toEqual(HEADERS);
    expect(read?.rows).toEqual(asObjects(rows));
    // Keys in header order, numbers as numbers, missing as null.
    expect(Object.keys(read!.rows[1]!)).toEqual(HEADERS);
    expect(read!.rows[0]).toEqual({
      Date: '2020-01-01',
      Downloads: null,
      Note: rows[0]![2],
      Territory: 'Chile',
    });

    const csv = await findLiveDatasetCsv(db, stored.id, userId);
    expect(csv).toMatchObject({
      id: stored.id,
      app_name: 'Stored App',
      territory: 'Chile',
      total_rows: 12_000,
    });
    expect(await text(csv!.csv)).toBe(writeDatasetCsv(HEADERS, rows));
  });

  it('answers null to another user, an expired dataset and a malformed id', async ({
    database,
  }) => {
    const db = database.db;
    const owner = (await createTestUser(db)).userId;
    const other = (await createTestUser(db)).userId;
    const { chunks } = chunksOf(3, 10);
    const live = await storeDataset(db, input(owner, chunks));
    const expired = await storeDataset(db, input(owner, chunks, { ttlDays: 0 }));
    for (const [id, userId] of [
      [live.id, other],
      [expired.id, owner],
      ['not-a-uuid', owner],
    ] as const) {
      expect(await findLiveDataset(db, id, userId)).toBeNull();
      expect(await findLiveDatasetRows(db, id, userId)).toBeNull();
      expect(await findLiveDatasetCsv(db, id, userId)).toBeNull();
    }
    // An empty dataset reads as no rows.
    const empty = await storeDataset(db, input(owner, []));
    expect(await findLiveDatasetRows(db, empty.id, owner)).toEqual({
      id: empty.id,
      headers: HEADERS,
      rows: [],
    });
  });

  it('stores one dataset per merge key, also when two transactions race', async ({ database }) => {
    const db = database.db;
    const { userId } = await createTestUser(db);
    const { rows, chunks } = chunksOf(40, 15);
    const key = `conversionCSV:${randomBytes(8).toString('hex')},redownloadsCSV:-`;
    const [a, b] = await Promise.all([
      storeDataset(db, input(userId, chunks, { mergeKey: key })),
      storeDataset(db, input(userId, chunks, { mergeKey: key })),
    ]);
    expect(a.id).toBe(b.id);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(a.totalRows).toBe(40);
    expect(b.totalRows).toBe(40);
    let read = false;
    const later = await storeDataset(
      db,
      input(
        userId,
        (function* () {
          read = true;
          yield* chunks;
        })(),
        { mergeKey: key },
      ),
    );
    expect(later).toMatchObject({ id: a.id, created: false, totalRows: 40 });
    expect(read).toBe(false);
    const count = await db
      .selectFrom('datasets')
      .select('id')
      .where('merge_key', '=', key)
      .execute();
    expect(count).toHaveLength(1);
    expect(
      await db.selectFrom('dataset_chunks').select('seq').where('dataset_id', '=', a.id).execute(),
    ).toHaveLength(3);

    const found = await findLiveDatasetByMergeKey(db, key, userId, 10);
    expect(found?.summary).toMatchObject({ id: a.id, total_rows: 40, headers: HEADERS });
    expect(found?.preview).toEqual(asObjects(rows.slice(0, 10)));
    expect(
      await findLiveDatasetByMergeKey(db, key, (await createTestUser(db)).userId, 10),
    ).toBeNull();
    await expect(
      storeDataset(db, input((await createTestUser(db)).userId, chunks, { mergeKey: key })),
    ).rejects.toThrow(/another user/);
  });

  it("fails a read whose rows are not the dataset's row count", async ({ database }) => {
    const db = database.db;
    const { userId } = await createTestUser(db);
    const { chunks } = chunksOf(30, 10);
    const stored = await storeDataset(db, input(userId, chunks));
    await db
      .deleteFrom('dataset_chunks')
      .where('dataset_id', '=', stored.id)
      .where('seq', '=', 2)
      .execute();
    const rows: unknown[] = [];
    await expect(
      (async () => {
        for await (const row of datasetRowArrays(db, stored.id, 30, 1)) rows.push(row);
      })(),
    ).rejects.toThrow(/20 of 30 rows/);
    expect(rows).toHaveLength(20);
  });

  it('reads an upload in slices', async ({ database }) => {
    const db = database.db;
    const { userId } = await createTestUser(db);
    const content = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));
    const id = await insertUpload(db, {
      userId,
      field: 'conversionCSV',
      filename: 'a.csv',
      content,
      ttlDays: 1,
    });
    const parts: Buffer[] = [];
    for (let offset = 0; offset < content.length; offset += 4_096) {
      parts.push((await readUploadSlice(db, id, userId, offset, 4_096))!);
    }
    expect(Buffer.concat(parts).equals(content)).toBe(true);
    expect(await readUploadSlice(db, id, userId, 10_000, 10)).toEqual(Buffer.alloc(0));
    expect(await readUploadSlice(db, id, (await createTestUser(db)).userId, 0, 10)).toBeNull();
    await expect(readUploadSlice(db, id, userId, -1, 10)).rejects.toThrow(RangeError);
  });
});
