import { sql, type Insertable } from 'kysely';
import type { TDb } from '../client';
import type { TDatasetChunkTable, TDatasetRow, TDatasetCell } from '../schema';
import { isUuid } from './audit.repository';
import { type TDbOrTrx, expiresIn } from './expiry.sql';

/**
 * `datasets` and their `dataset_chunks` (docs/product.md#how-a-dashboard-is-built and #storage):
 * storing a merged dataset, reading its summary, and deleting expired datasets and uploads. Its
 * rows are read by `dataset-rows.repository.ts`. Every read treats a row whose `expires_at` has
 * passed (PostgreSQL's clock, `now()`) as gone, so an expired one answers "not found" before the
 * hourly cleanup deletes it. Ids from URLs that are not UUIDs read as "not found" instead of a cast
 * error.
 */

/**
 * Rows per chunk in which the merge worker stores a dataset (one `dataset_chunks` row each):
 * small enough that a range of days reads little more than it needs and that one chunk's JSON
 * (about 80 KB) is a short-lived string, large enough that a dataset of 600,000 days is 1,200
 * rows written in about 100 statements.
 */
export const DATASET_CHUNK_ROWS = 500;
/** JSON text gathered per INSERT of chunks (characters); bounds one statement's size. */
const INSERT_BATCH_CHARS = 1_000_000;

/** One slice of a dataset's rows, in dataset order (a `dataset_chunks` row). */
export interface TDatasetRowsChunk {
  /** Rows as arrays of values aligned with the dataset's headers. */
  rows: readonly (readonly TDatasetCell[])[];
  /** First and last parsed day `YYYY-MM-DD` among these rows; null when none parses. */
  firstDay: string | null;
  lastDay: string | null;
}

/** What {@link storeDataset} stores: one merged dataset (docs/product.md#merging-exports). */
export interface TNewDatasetInput {
  userId: string;
  appName: string | null;
  territory: string | null;
  /** Column names in order. */
  headers: string[];
  /**
   * The merged rows in order, in chunks (each stored as one `dataset_chunks` row; empty chunks
   * are skipped): numbers as numbers, missing values null, date and territory as text. Read
   * once, as the chunks are written, so a producer can build them one at a time.
   */
  chunks: Iterable<TDatasetRowsChunk> | AsyncIterable<TDatasetRowsChunk>;
  /** First and last parsed day `YYYY-MM-DD`; null when no date parses. */
  dateSpan: { start: string; end: string } | null;
  /** Days until the dataset expires (fractional allowed). */
  ttlDays: number;
  /** Uploads merged into it: linked so they are deleted with it. */
  uploadIds: string[];
  /**
   * What the dataset was merged from (e.g. its upload ids), unique across datasets: storing
   * with a key already stored writes nothing and returns that dataset, so a merge job that
   * runs twice stores one dataset. Omitted or null: no key.
   */
  mergeKey?: string | null;
}

/** What {@link storeDataset} answers. */
export interface TStoredDataset {
  /** The dataset id (the client's downloadId). */
  id: string;
  expiresAt: Date;
  totalRows: number;
  /** False when a dataset with the same `mergeKey` was already stored (nothing was written). */
  created: boolean;
}

/**
 * Inserts a dataset with its row chunks and links its uploads to it, in one transaction (a
 * failure leaves nothing). The chunks are written about 1 MB of JSON per INSERT as they are
 * read from `input.chunks` (each chunk's rows are serialized before the next chunk is asked
 * for, so a producer may reuse its arrays), one INSERT running while the next is prepared.
 * With a `mergeKey` already stored (also by a concurrent transaction, which this one waits
 * for), the existing dataset is returned and `input.chunks` is not read.
 *
 * @throws RangeError for a bad `ttlDays`.
 * @throws Error when `mergeKey` names another user's dataset.
 */
export async function storeDataset(db: TDb, input: TNewDatasetInput): Promise<TStoredDataset> {
  const expiresAt = expiresIn(input.ttlDays);
  const mergeKey = input.mergeKey ?? null;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('datasets')
      .values({
        user_id: input.userId,
        app_name: input.appName,
        territory: input.territory,
        headers: JSON.stringify(input.headers),
        total_rows: 0,
        date_start: input.dateSpan?.start ?? null,
        date_end: input.dateSpan?.end ?? null,
        merge_key: mergeKey,
        expires_at: expiresAt,
      })
      .onConflict((oc) => oc.column('merge_key').doNothing())
      .returning(['id', 'expires_at'])
      .executeTakeFirst();
    if (!row) {
      const existing = await trx
        .selectFrom('datasets')
        .select(['id', 'user_id', 'expires_at', 'total_rows'])
        .where('merge_key', '=', mergeKey!)
        .executeTakeFirstOrThrow();
      if (existing.user_id !== input.userId) {
        throw new Error(`merge key ${mergeKey} belongs to another user's dataset`);
      }
      return {
        id: existing.id,
        expiresAt: existing.expires_at,
        totalRows: existing.total_rows,
        created: false,
      };
    }

    let seq = 0;
    let totalRows = 0;
    let batch: Insertable<TDatasetChunkTable>[] = [];
    let batchChars = 0;
    // One INSERT runs in PostgreSQL while the next batch is built here.
    const running: { insert: Promise<unknown> | null } = { insert: null };
    const flush = async () => {
      if (batch.length === 0) return;
      const values = batch;
      batch = [];
      batchChars = 0;
      await running.insert;
      running.insert = trx.insertInto('dataset_chunks').values(values).execute();
      // Awaited before the next INSERT or the end; a failure meanwhile is not unhandled.
      running.insert.catch(() => undefined);
    };
    for await (const chunk of input.chunks) {
      if (chunk.rows.length === 0) continue;
      const json = JSON.stringify(chunk.rows);
      batch.push({
        dataset_id: row.id,
        seq: seq++,
        first_day: chunk.firstDay,
        last_day: chunk.lastDay,
        row_count: chunk.rows.length,
        // As UTF-8 bytes: the string dies at once instead of waiting in the heap for the
        // INSERT (json's binary format is its text, so PostgreSQL reads the same JSON).
        rows: Buffer.from(json, 'utf8'),
      });
      totalRows += chunk.rows.length;
      batchChars += json.length;
      if (batchChars >= INSERT_BATCH_CHARS) await flush();
    }
    await flush();
    await running.insert;
    await trx
      .updateTable('datasets')
      .set({ total_rows: totalRows })
      .where('id', '=', row.id)
      .execute();

    const uploads = input.uploadIds.filter(isUuid);
    if (uploads.length > 0) {
      await trx
        .updateTable('uploads')
        .set({ dataset_id: row.id })
        .where('user_id', '=', input.userId)
        .where('id', 'in', uploads)
        .execute();
    }
    return { id: row.id, expiresAt: row.expires_at, totalRows, created: true };
  });
}

/** A dataset without its rows. */
export type TDatasetSummary = Pick<
  TDatasetRow,
  | 'id'
  | 'user_id'
  | 'app_name'
  | 'territory'
  | 'headers'
  | 'total_rows'
  | 'date_start'
  | 'date_end'
  | 'created_at'
  | 'expires_at'
>;

/** The columns of a {@link DatasetSummary}. */
export const SUMMARY_COLUMNS = [
  'id',
  'user_id',
  'app_name',
  'territory',
  'headers',
  'total_rows',
  'date_start',
  'date_end',
  'created_at',
  'expires_at',
] as const;

/**
 * The select of `userId`'s dataset `id` while it is live (`expires_at` in the future), for the
 * caller to pick columns from; a non-UUID id matches nothing.
 */
export function liveDataset(db: TDbOrTrx, id: string, userId: string) {
  return db
    .selectFrom('datasets')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`);
}

/** A stored row (values aligned with `headers`) as an object keyed by header; missing values null. */
export function rowObject(headers: readonly string[], values: readonly TDatasetCell[]) {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < headers.length; i++) row[headers[i]!] = values[i] ?? null;
  return row;
}

/** `userId`'s live dataset `id` without its rows, or null (missing, expired or someone else's). */
export async function findLiveDataset(
  db: TDbOrTrx,
  id: string,
  userId: string,
): Promise<TDatasetSummary | null> {
  if (!isUuid(id)) return null;
  const row = await liveDataset(db, id, userId).select(SUMMARY_COLUMNS).executeTakeFirst();
  return row ?? null;
}

/** Rows deleted by {@link deleteExpiredAnalytics}. */
export interface TExpiredDeletion {
  datasets: number;
  /** Uploads deleted with their dataset (cascade) or on their own expiry. */
  uploads: number;
}

/**
 * Deletes expired datasets (their uploads go with them: `on delete cascade`) and expired
 * uploads that were never merged, `batchSize` rows per statement so no statement holds locks
 * or runs long on a big backlog (docs/product.md#reading-datasets).
 */
export async function deleteExpiredAnalytics(db: TDb, batchSize = 200): Promise<TExpiredDeletion> {
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new RangeError('batchSize must be a whole number >= 1');
  let datasets = 0;
  let uploads = 0;
  for (;;) {
    const result = await sql<{ datasets: string; uploads: string }>`
      with gone as (
        delete from datasets
        where id in (select id from datasets where expires_at <= now() limit ${batchSize})
        returning id
      )
      select
        (select count(*) from gone) as datasets,
        (select count(*) from uploads where dataset_id in (select id from gone)) as uploads
    `.execute(db);
    const row = result.rows[0];
    const n = Number(row?.datasets ?? 0);
    datasets += n;
    uploads += Number(row?.uploads ?? 0);
    if (n < batchSize) break;
  }
  for (;;) {
    const result = await db
      .deleteFrom('uploads')
      .where('id', 'in', (qb) =>
        qb
          .selectFrom('uploads')
          .select('id')
          .where('expires_at', '<=', sql<Date>`now()`)
          .limit(batchSize),
      )
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    uploads += n;
    if (n < batchSize) break;
  }
  return { datasets, uploads };
}
