import type { Readable } from 'node:stream';
import { sql, type Insertable, type Transaction } from 'kysely';
import type { Db } from '../client';
import { datasetCsvStream } from '../dataset-csv.writer';
import type {
  Database,
  DashboardRow,
  DatasetChunkTable,
  DatasetRow,
  TDatasetCell,
} from '../schema';
import { isUuid } from './audit.repository';

/**
 * `uploads`, `datasets` (with `dataset_chunks`) and `dashboards` (DESIGN sections 3 and 4). Every read of a dataset
 * or an upload treats a row whose `expires_at` has passed (PostgreSQL's clock, `now()`) as
 * gone, so an expired dataset answers "not found" before the hourly cleanup deletes it.
 * Ids from URLs that are not UUIDs read as "not found" instead of a cast error.
 */

type DbOrTrx = Db | Transaction<Database>;

/** Seconds in a day: TTLs are given in (possibly fractional) days. */
const DAY_SECONDS = 86_400;

/** `now() + ttlDays` on the database's clock (fractional days allowed; 0 = already due). */
function expiresIn(ttlDays: number) {
  if (!Number.isFinite(ttlDays) || ttlDays < 0) {
    throw new RangeError(`ttlDays must be a finite number >= 0, got ${ttlDays}`);
  }
  return sql<Date>`now() + make_interval(secs => ${ttlDays * DAY_SECONDS})`;
}

/** Multipart field of an upload (spec section 7). */
export type TUploadFieldName = 'conversionCSV' | 'redownloadsCSV';

/** What {@link insertUpload} stores. */
export interface NewUploadInput {
  userId: string;
  field: TUploadFieldName;
  /** File name as the browser sent it. */
  filename: string;
  /** The file's bytes, whole (at most the upload limit, 20 MB). */
  content: Buffer;
  /** Days until the upload expires (fractional allowed). */
  ttlDays: number;
}

/** Inserts one uploaded file and returns its id. @throws RangeError for a bad `ttlDays`. */
export async function insertUpload(db: DbOrTrx, input: NewUploadInput): Promise<string> {
  const row = await db
    .insertInto('uploads')
    .values({
      user_id: input.userId,
      field: input.field,
      filename: input.filename,
      size_bytes: input.content.length,
      content: input.content,
      expires_at: expiresIn(input.ttlDays),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Deletes `userId`'s uploads with these ids (a refused or abandoned upload). Returns the count. */
export async function deleteUploads(
  db: DbOrTrx,
  userId: string,
  ids: readonly string[],
): Promise<number> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return 0;
  const result = await db
    .deleteFrom('uploads')
    .where('user_id', '=', userId)
    .where('id', 'in', valid)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** An upload's metadata (no bytes). */
export interface UploadInfo {
  id: string;
  field: TUploadFieldName;
  filename: string;
  sizeBytes: number;
}

/** `userId`'s live (unexpired) upload `id` without its bytes, or null. */
export async function findLiveUpload(
  db: DbOrTrx,
  id: string,
  userId: string,
): Promise<UploadInfo | null> {
  if (!isUuid(id)) return null;
  const row = await db
    .selectFrom('uploads')
    .select(['id', 'field', 'filename', 'size_bytes'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row
    ? { id: row.id, field: row.field, filename: row.filename, sizeBytes: row.size_bytes }
    : null;
}

/**
 * Rows per chunk in which the merge worker stores a dataset (one `dataset_chunks` row each):
 * small enough that a range of days reads little more than it needs and that one chunk's JSON
 * (about 80 KB) is a short-lived string, large enough that a dataset of 600,000 days is 1,200
 * rows written in about 100 statements.
 */
export const DATASET_CHUNK_ROWS = 500;
/** JSON text gathered per INSERT of chunks (characters); bounds one statement's size. */
const INSERT_BATCH_CHARS = 1_000_000;
/** Chunks read per query when a dataset is streamed (the CSV download). */
const READ_PAGE_CHUNKS = 8;

/** One slice of a dataset's rows, in dataset order (a `dataset_chunks` row). */
export interface TDatasetRowsChunk {
  /** Rows as arrays of values aligned with the dataset's headers. */
  rows: readonly (readonly TDatasetCell[])[];
  /** First and last parsed day `YYYY-MM-DD` among these rows; null when none parses. */
  firstDay: string | null;
  lastDay: string | null;
}

/**
 * `length` bytes of `userId`'s live upload `id` from byte `offset` (0-based; fewer at the
 * end, an empty Buffer past it), or null when the upload is missing or expired. Reading an
 * upload in slices keeps the worker from holding its bytes several times over while the
 * driver decodes one large value (docs/BENCHMARKS.md).
 *
 * @throws RangeError for a negative `offset` or a `length` below 1.
 */
export async function readUploadSlice(
  db: DbOrTrx,
  id: string,
  userId: string,
  offset: number,
  length: number,
): Promise<Buffer | null> {
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError('offset must be >= 0');
  if (!Number.isInteger(length) || length < 1) throw new RangeError('length must be >= 1');
  if (!isUuid(id)) return null;
  const row = await db
    .selectFrom('uploads')
    .select(sql<Buffer>`substring(content from ${offset + 1} for ${length})`.as('slice'))
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.slice ?? null;
}

/** What {@link storeDataset} stores: one merged dataset (DESIGN section 3 point 2). */
export interface NewDatasetInput {
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
export interface StoredDataset {
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
export async function storeDataset(db: Db, input: NewDatasetInput): Promise<StoredDataset> {
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
    let batch: Insertable<DatasetChunkTable>[] = [];
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
export type DatasetSummary = Pick<
  DatasetRow,
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

const SUMMARY_COLUMNS = [
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

function liveDataset(db: DbOrTrx, id: string, userId: string) {
  return db
    .selectFrom('datasets')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`);
}

/** A stored row (values aligned with `headers`) as an object keyed by header; missing values null. */
function rowObject(headers: readonly string[], values: readonly TDatasetCell[]) {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < headers.length; i++) row[headers[i]!] = values[i] ?? null;
  return row;
}

/** `userId`'s live dataset `id` without its rows, or null (missing, expired or someone else's). */
export async function findLiveDataset(
  db: DbOrTrx,
  id: string,
  userId: string,
): Promise<DatasetSummary | null> {
  if (!isUuid(id)) return null;
  const row = await liveDataset(db, id, userId).select(SUMMARY_COLUMNS).executeTakeFirst();
  return row ?? null;
}

/** A dataset's rows as objects (see {@link findLiveDatasetRows}). */
export interface DatasetRows {
  id: string;
  /** Column names in order. */
  headers: string[];
  /**
   * Every row in the stored order (ascending days, rows without a parsed day last), keyed by
   * header: numbers as numbers, missing values null, date and territory as text.
   */
  rows: Record<string, unknown>[];
}

/**
 * The rows and headers of `userId`'s live dataset `id`, or null (missing, expired or someone
 * else's). Read in one statement (the dataset and its chunks together).
 */
export async function findLiveDatasetRows(
  db: DbOrTrx,
  id: string,
  userId: string,
): Promise<DatasetRows | null> {
  if (!isUuid(id)) return null;
  const found = await db
    .selectFrom('datasets as d')
    .leftJoin('dataset_chunks as c', 'c.dataset_id', 'd.id')
    .select(['d.id', 'd.headers', 'c.rows'])
    .where('d.id', '=', id)
    .where('d.user_id', '=', userId)
    .where('d.expires_at', '>', sql<Date>`now()`)
    .orderBy('c.seq')
    .execute();
  const first = found[0];
  if (!first) return null;
  const rows: Record<string, unknown>[] = [];
  for (const chunk of found) {
    if (!chunk.rows) continue;
    for (const values of chunk.rows) rows.push(rowObject(first.headers, values));
  }
  return { id: first.id, headers: first.headers, rows };
}

/**
 * The rows of dataset `id` as stored (arrays aligned with its headers), in order, read
 * `pageChunks` chunks per query (default 8) as the caller iterates (no connection is held
 * between pages). The caller checks ownership and expiry first.
 *
 * @throws Error when the rows read are not `expectedRows` (the dataset was deleted meanwhile).
 */
export async function* datasetRowArrays(
  db: DbOrTrx,
  id: string,
  expectedRows: number,
  pageChunks = READ_PAGE_CHUNKS,
): AsyncGenerator<TDatasetCell[], void, undefined> {
  let next = 0;
  let seen = 0;
  for (;;) {
    const page = await db
      .selectFrom('dataset_chunks')
      .select(['seq', 'rows'])
      .where('dataset_id', '=', id)
      .where('seq', '>=', next)
      .orderBy('seq')
      .limit(pageChunks)
      .execute();
    for (const chunk of page) {
      next = chunk.seq + 1;
      seen += chunk.rows.length;
      yield* chunk.rows;
    }
    if (page.length < pageChunks) break;
  }
  if (seen !== expectedRows) {
    throw new Error(`dataset ${id} changed while it was read: ${seen} of ${expectedRows} rows`);
  }
}

/** The download of a dataset (see {@link findLiveDatasetCsv}). */
export interface DatasetCsv {
  id: string;
  app_name: string | null;
  territory: string | null;
  total_rows: number;
  /**
   * The processed (formula-escaped) CSV, rendered from the stored rows as it is read (see
   * `datasetCsvStream`); it fails (is destroyed with an error) when the dataset disappears
   * while it is read.
   */
  csv: Readable;
}

/**
 * The processed CSV, app name and territory of `userId`'s live dataset `id`, or null
 * (missing, expired or someone else's). The CSV is a stream rendered from the chunks as it
 * is consumed: the same bytes the merge worker's `writeProcessedCsv` gives for the dataset.
 */
export async function findLiveDatasetCsv(
  db: Db,
  id: string,
  userId: string,
): Promise<DatasetCsv | null> {
  if (!isUuid(id)) return null;
  const found = await liveDataset(db, id, userId)
    .select(['id', 'app_name', 'territory', 'headers', 'total_rows'])
    .executeTakeFirst();
  if (!found) return null;
  return {
    id: found.id,
    app_name: found.app_name,
    territory: found.territory,
    total_rows: found.total_rows,
    csv: datasetCsvStream(found.headers, datasetRowArrays(db, found.id, found.total_rows)),
  };
}

/** A dataset found by its merge key, with its first rows (see {@link findLiveDatasetByMergeKey}). */
export interface DatasetWithPreview {
  summary: DatasetSummary;
  /** The first rows (at most the number asked), keyed by header like {@link findLiveDatasetRows}. */
  preview: Record<string, unknown>[];
}

/**
 * `userId`'s live dataset stored with `mergeKey` and its first `previewRows` rows, or null.
 * The merge worker answers a job that runs again with it, without merging again.
 */
export async function findLiveDatasetByMergeKey(
  db: DbOrTrx,
  mergeKey: string,
  userId: string,
  previewRows: number,
): Promise<DatasetWithPreview | null> {
  const summary = await db
    .selectFrom('datasets')
    .select(SUMMARY_COLUMNS)
    .where('merge_key', '=', mergeKey)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  if (!summary) return null;
  const preview: Record<string, unknown>[] = [];
  if (previewRows > 0) {
    for await (const values of datasetRowArrays(db, summary.id, summary.total_rows, 1)) {
      preview.push(rowObject(summary.headers, values));
      if (preview.length >= previewRows) break;
    }
  }
  return { summary, preview };
}

/** Rows deleted by {@link deleteExpiredAnalytics}. */
export interface ExpiredDeletion {
  datasets: number;
  /** Uploads deleted with their dataset (cascade) or on their own expiry. */
  uploads: number;
}

/**
 * Deletes expired datasets (their uploads go with them: `on delete cascade`) and expired
 * uploads that were never merged, `batchSize` rows per statement so no statement holds locks
 * or runs long on a big backlog (DESIGN section 3 point 3).
 */
export async function deleteExpiredAnalytics(db: Db, batchSize = 200): Promise<ExpiredDeletion> {
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

/** What {@link insertDashboard} stores. */
export interface NewDashboardInput {
  userId: string;
  name: string;
  appName: string;
  territory: string;
  sessionId: string | null;
  /** contracts `TDashboardConfig`. */
  config: Record<string, unknown>;
}

/** Inserts a saved dashboard and returns the row. */
export async function insertDashboard(
  db: DbOrTrx,
  input: NewDashboardInput,
): Promise<DashboardRow> {
  return db
    .insertInto('dashboards')
    .values({
      user_id: input.userId,
      name: input.name,
      app_name: input.appName,
      territory: input.territory,
      session_id: input.sessionId,
      config_json: JSON.stringify(input.config),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `userId`'s dashboards, newest first. */
export async function listDashboards(db: DbOrTrx, userId: string): Promise<DashboardRow[]> {
  return db
    .selectFrom('dashboards')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** `userId`'s dashboard `id`, or undefined when there is none of theirs. */
export async function findDashboard(
  db: DbOrTrx,
  id: string,
  userId: string,
): Promise<DashboardRow | undefined> {
  if (!isUuid(id)) return undefined;
  return db
    .selectFrom('dashboards')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Deletes `userId`'s dashboard `id`. Returns false when there is none (or it is someone else's). */
export async function deleteDashboard(db: DbOrTrx, id: string, userId: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db
    .deleteFrom('dashboards')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
