import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { TDb } from '../client';
import { datasetCsvStream } from '../dataset-csv.writer';
import type { TDatasetCell } from '../schema';
import { isUuid } from './audit.repository';
import {
  liveDataset,
  rowObject,
  SUMMARY_COLUMNS,
  type TDatasetSummary,
} from './dataset.repository';
import type { TDbOrTrx } from './expiry.sql';

/**
 * The rows of a live dataset (docs/product.md#how-a-dashboard-is-built): as objects for chart-data
 * and reports, as arrays in chunks, and as the CSV download. Every read treats a row whose
 * `expires_at` has passed (PostgreSQL's clock, `now()`) as gone, so an expired one answers "not
 * found" before the hourly cleanup deletes it. Ids from URLs that are not UUIDs read as "not found"
 * instead of a cast error.
 */

/** Chunks read per query when a dataset is streamed (the CSV download). */
const READ_PAGE_CHUNKS = 8;

/** A dataset's rows as objects (see {@link findLiveDatasetRows}). */
export interface TDatasetRows {
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
  db: TDbOrTrx,
  id: string,
  userId: string,
): Promise<TDatasetRows | null> {
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
  db: TDbOrTrx,
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
export interface TDatasetCsv {
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
  db: TDb,
  id: string,
  userId: string,
): Promise<TDatasetCsv | null> {
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
export interface TDatasetWithPreview {
  summary: TDatasetSummary;
  /** The first rows (at most the number asked), keyed by header like {@link findLiveDatasetRows}. */
  preview: Record<string, unknown>[];
}

/**
 * `userId`'s live dataset stored with `mergeKey` and its first `previewRows` rows, or null.
 * The merge worker answers a job that runs again with it, without merging again.
 */
export async function findLiveDatasetByMergeKey(
  db: TDbOrTrx,
  mergeKey: string,
  userId: string,
  previewRows: number,
): Promise<TDatasetWithPreview | null> {
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
