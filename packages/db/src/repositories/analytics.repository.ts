import { sql, type Transaction } from 'kysely';
import type { Db } from '../client';
import type { Database, DashboardRow, DatasetRow } from '../schema';
import { isUuid } from './audit.repository';

/**
 * `uploads`, `datasets` and `dashboards` (DESIGN sections 3 and 4). Every read of a dataset
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

/** The bytes of `userId`'s live upload `id` (one Buffer), or null when missing or expired. */
export async function readUploadContent(
  db: DbOrTrx,
  id: string,
  userId: string,
): Promise<Buffer | null> {
  if (!isUuid(id)) return null;
  const row = await db
    .selectFrom('uploads')
    .select('content')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.content ?? null;
}

/** What {@link storeDataset} stores: one merged dataset (DESIGN section 3 point 2). */
export interface NewDatasetInput {
  userId: string;
  appName: string | null;
  territory: string | null;
  /** Column names in order. */
  headers: string[];
  /** Merged rows: numbers as numbers, missing values null, date and territory as text. */
  rows: Record<string, unknown>[];
  /** The processed CSV (formula-escaped) offered by the download call. */
  processedCsv: string;
  /** First and last parsed day `YYYY-MM-DD`; null when no date parses. */
  dateSpan: { start: string; end: string } | null;
  /** Days until the dataset expires (fractional allowed). */
  ttlDays: number;
  /** Uploads merged into it: linked so they are deleted with it. */
  uploadIds: string[];
}

/**
 * Inserts a dataset and links its uploads to it, in one transaction. Returns the dataset id
 * (the client's downloadId) and its expiry.
 *
 * @throws RangeError for a bad `ttlDays`.
 */
export async function storeDataset(
  db: Db,
  input: NewDatasetInput,
): Promise<{ id: string; expiresAt: Date }> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('datasets')
      .values({
        user_id: input.userId,
        app_name: input.appName,
        territory: input.territory,
        headers: JSON.stringify(input.headers),
        rows: JSON.stringify(input.rows),
        processed_csv: input.processedCsv,
        total_rows: input.rows.length,
        date_start: input.dateSpan?.start ?? null,
        date_end: input.dateSpan?.end ?? null,
        expires_at: expiresIn(input.ttlDays),
      })
      .returning(['id', 'expires_at'])
      .executeTakeFirstOrThrow();
    const uploads = input.uploadIds.filter(isUuid);
    if (uploads.length > 0) {
      await trx
        .updateTable('uploads')
        .set({ dataset_id: row.id })
        .where('user_id', '=', input.userId)
        .where('id', 'in', uploads)
        .execute();
    }
    return { id: row.id, expiresAt: row.expires_at };
  });
}

/** A dataset without its rows and CSV. */
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

function liveDataset(db: DbOrTrx, id: string, userId: string) {
  return db
    .selectFrom('datasets')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`);
}

/** `userId`'s live dataset `id` without rows and CSV, or null (missing, expired or someone else's). */
export async function findLiveDataset(
  db: DbOrTrx,
  id: string,
  userId: string,
): Promise<DatasetSummary | null> {
  if (!isUuid(id)) return null;
  const row = await liveDataset(db, id, userId)
    .select([
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
    ])
    .executeTakeFirst();
  return row ?? null;
}

/** The rows and headers of `userId`'s live dataset `id`, or null (missing, expired or someone else's). */
export async function findLiveDatasetRows(
  db: DbOrTrx,
  id: string,
  userId: string,
): Promise<Pick<DatasetRow, 'id' | 'headers' | 'rows'> | null> {
  if (!isUuid(id)) return null;
  return (
    (await liveDataset(db, id, userId).select(['id', 'headers', 'rows']).executeTakeFirst()) ?? null
  );
}

/** The processed CSV, app name and territory of `userId`'s live dataset `id`, or null. */
export async function findLiveDatasetCsv(
  db: DbOrTrx,
  id: string,
  userId: string,
): Promise<Pick<DatasetRow, 'id' | 'app_name' | 'territory' | 'processed_csv'> | null> {
  if (!isUuid(id)) return null;
  return (
    (await liveDataset(db, id, userId)
      .select(['id', 'app_name', 'territory', 'processed_csv'])
      .executeTakeFirst()) ?? null
  );
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
