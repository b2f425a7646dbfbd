import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { isUuid } from './audit.repository';
import { type TDbOrTrx, expiresIn } from './expiry.sql';

/**
 * `uploads` (docs/product.md#how-a-dashboard-is-built and #storage): uploaded export files, stored
 * until their dataset's merge is done and they expire. Every read treats a row whose `expires_at`
 * has passed (PostgreSQL's clock, `now()`) as gone, so an expired one answers "not found" before
 * the hourly cleanup deletes it. Ids from URLs that are not UUIDs read as "not found" instead of a
 * cast error.
 */

/** Multipart field of an upload (docs/product.md#api-calls). */
export type TUploadFieldName = 'conversionCSV' | 'redownloadsCSV';

/** What {@link insertUpload} stores. */
export interface TNewUploadInput {
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
export async function insertUpload(db: TDbOrTrx, input: TNewUploadInput): Promise<string> {
  const row = await db
    .insertInto('uploads')
    .values({
      user_id: input.userId,
      field: input.field,
      filename: input.filename,
      size_bytes: input.content.length,
      content: input.content,
      unanswered_sha256: contentSha256(input.content),
      expires_at: expiresIn(input.ttlDays),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Hex SHA-256 of an upload's bytes (`uploads.unanswered_sha256`). */
export function contentSha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * The id of `userId`'s live, unanswered upload ({@link markUploadsAnswered} not called) of
 * the same field, file name and bytes stored within the last `withinMs` ms (the newest), or
 * null: an upload sent again because its first request was cut is merged as the same uploads,
 * into the same dataset.
 */
export async function findRecentSameUpload(
  db: TDbOrTrx,
  input: Omit<TNewUploadInput, 'ttlDays'> & { withinMs: number },
): Promise<string | null> {
  const row = await db
    .selectFrom('uploads')
    .select('id')
    .where('user_id', '=', input.userId)
    .where('unanswered_sha256', '=', contentSha256(input.content))
    .where('field', '=', input.field)
    .where('filename', '=', input.filename)
    .where('size_bytes', '=', input.content.length)
    .where('expires_at', '>', sql<Date>`now()`)
    .where('created_at', '>', sql<Date>`now() - make_interval(secs => ${input.withinMs / 1000})`)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Marks `userId`'s uploads `ids` answered (their request got its merged data): the same file
 * sent later is a new upload. Returns the count.
 */
export async function markUploadsAnswered(
  db: TDbOrTrx,
  userId: string,
  ids: readonly string[],
): Promise<number> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return 0;
  const result = await db
    .updateTable('uploads')
    .set({ unanswered_sha256: null })
    .where('user_id', '=', userId)
    .where('id', 'in', valid)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes `userId`'s uploads with these ids (a refused or abandoned upload). Returns the count. */
export async function deleteUploads(
  db: TDbOrTrx,
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
export interface TUploadInfo {
  id: string;
  field: TUploadFieldName;
  filename: string;
  sizeBytes: number;
}

/** `userId`'s live (unexpired) upload `id` without its bytes, or null. */
export async function findLiveUpload(
  db: TDbOrTrx,
  id: string,
  userId: string,
): Promise<TUploadInfo | null> {
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
 * `length` bytes of `userId`'s live upload `id` from byte `offset` (0-based; fewer at the
 * end, an empty Buffer past it), or null when the upload is missing or expired. Reading an
 * upload in slices keeps the worker from holding its bytes several times over while the
 * driver decodes one large value (docs/BENCHMARKS.md).
 *
 * @throws RangeError for a negative `offset` or a `length` below 1.
 */
export async function readUploadSlice(
  db: TDbOrTrx,
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
