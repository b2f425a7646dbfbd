import type { Readable } from 'node:stream';
import type { TChartDataRow, TMergedData, TUploadField } from '@aso/contracts';
import {
  DATASET_CHUNK_ROWS,
  deleteExpiredAnalytics,
  findLiveDatasetByMergeKey,
  findLiveUpload,
  readUploadSlice,
  storeDataset,
} from '@aso/db';
import { mergeCancelKey, UnrecoverableError, type TJobHandler, type TMergeJob } from '@aso/queue';
import { createJobPause } from './job-pause';
import { CsvExportError, parseAndMergeExports, PREVIEW_ROWS, toMergedData } from './merge/index';
import type { TWorkerDeps } from './worker.deps';
import { lazyUploadStream } from './upload.reader';

/**
 * The merge key of a job (`datasets.merge_key`): the uploads it merges, e.g.
 * 'conversionCSV:<uuid>,redownloadsCSV:-'. Upload ids are unique per upload request, so a
 * second run of the same job (a stalled job run again) finds the dataset the first stored.
 */
export function mergeKeyOf(
  data: Pick<TMergeJob, 'conversionUploadId' | 'redownloadsUploadId'>,
): string {
  return `conversionCSV:${data.conversionUploadId ?? '-'},redownloadsCSV:${data.redownloadsUploadId ?? '-'}`;
}

/**
 * Largest pair of uploads (bytes, both files together) that a merge parses on the worker's own
 * thread when no other merge of this process is parsing. Real exports (ten years of daily rows
 * are about 500 KB for both) parse in a few tens of ms, less than the hop to a parse thread
 * costs (the bytes copied there and the columns back: about 15 ms of CPU for such a pair, a
 * tenth of the whole job's). Larger pairs, and every merge that starts while another parses,
 * go to the threads, so that both cores parse.
 */
export const LONE_PARSE_MAX_BYTES = 1024 * 1024;

/** How often a running merge looks for its gateway's cancel mark, at most (ms). */
export const CANCEL_CHECK_EVERY_MS = 250;

/** Why a merge whose client went away stopped (nobody reads it: the upload request is gone). */
export const CANCELLED_MESSAGE =
  'upload: the merge was cancelled because its upload request was closed before it ended';

/**
 * Builds the `merge` job handler (docs/product.md#merging-exports).
 *
 * For each upload named by the job (the caller's own, unexpired), the bytes are read from
 * PostgreSQL as a stream, parsed and merged by `./merge`; the headers, app name, territory,
 * date span and the merged rows (in `dataset_chunks` of 500 rows) are stored as one dataset
 * expiring `DATASET_TTL_DAYS` from now, the uploads are linked to it, and the upload answer's
 * `mergedData` (contracts `TMergedData`) is the job's return value. The processed CSV is not
 * stored: the download renders it from the rows.
 *
 * The files are parsed in the process's parse threads (`deps.parsePool`, `PARSE_THREADS`),
 * both at once, while this thread only reads the uploads and stores datasets; without threads,
 * or for a merge of at most {@link LONE_PARSE_MAX_BYTES} while no other merge parses, one
 * after the other here.
 *
 * Long merges (docs/BENCHMARKS.md): parsing and storing pause about every 50 ms for a turn of the
 * event loop and extend the job's lock (see `createJobPause`), so BullMQ never takes the job for
 * stalled. Storing is idempotent per job: the dataset carries the job's merge key ({@link
 * mergeKeyOf}); a job that runs again answers with the dataset already stored.
 *
 * Limits (docs/product.md#how-a-dashboard-is-built; docs/OPERATIONS.md#upload-limits): each export at most
 * `MERGE_MAX_ROWS` data rows and `MERGE_MAX_COLUMNS` columns, checked while it streams in; the
 * whole merge at most `MERGE_TIME_BUDGET_MS`; a merge whose gateway set its cancel mark ({@link
 * mergeCancelKey}: the client went away) stops at its next pause. Each stop is an
 * `UnrecoverableError` whose message starts with the field (caps) or 'upload:' (budget, cancel) and
 * names the limit.
 *
 * Failures:
 * - a file that is not a usable export, or an upload that is missing or expired:
 *   `UnrecoverableError` whose message starts with the field, e.g.
 *   'redownloadsCSV: no header row with a Date column found in the first 20 lines'. The gateway
 *   answers it as a 400; BullMQ never retries it.
 * - a job naming no upload: `UnrecoverableError` (a caller bug, not the user's input).
 * - PostgreSQL failures: thrown as they are (transient; the gateway answers 500). Their
 *   messages never start with a field name, which is how the gateway tells the two apart.
 */
export function createMergeHandler(deps: TWorkerDeps): TJobHandler<'merge'> {
  const { db, env, log, parsePool } = deps;
  /** Merges of this handler between the start and the end of their parse. */
  let parsing = 0;
  return async (data, job): Promise<TMergedData> => {
    const slots: [TUploadField, string | null][] = [
      ['conversionCSV', data.conversionUploadId],
      ['redownloadsCSV', data.redownloadsUploadId],
    ];
    const named = slots.filter((s): s is [TUploadField, string] => s[1] !== null);
    if (named.length === 0) {
      throw new UnrecoverableError(
        'merge job names no upload (conversionUploadId and redownloadsUploadId are both null)',
      );
    }

    const sizes: Partial<Record<TUploadField, number>> = {};
    for (const [field, id] of named) {
      const upload = await findLiveUpload(db, id, data.userId);
      if (!upload || upload.field !== field) {
        throw new UnrecoverableError(
          `${field}: the uploaded file is no longer available; please upload it again`,
        );
      }
      sizes[field] = upload.sizeBytes;
    }

    const mergeKey = mergeKeyOf(data);
    const earlier = await findLiveDatasetByMergeKey(db, mergeKey, data.userId, PREVIEW_ROWS);
    if (earlier) {
      log.info(
        { jobId: job.id, datasetId: earlier.summary.id },
        'dataset already stored by an earlier run of this job',
      );
      return {
        headers: earlier.summary.headers,
        preview: earlier.preview as TChartDataRow[],
        totalRows: earlier.summary.total_rows,
        downloadId: earlier.summary.id,
        appName: earlier.summary.app_name,
        territory: earlier.summary.territory,
        // The first run's answer went to the upload that waited for it; this one is the same
        // dataset, whose roles the first run settled.
        swapped: false,
        notices: [],
      };
    }
    // A merge whose client went away while it waited in the queue is not started at all.
    if (job.id && (await deps.redis.exists(mergeCancelKey(env.QUEUE_PREFIX, job.id)))) {
      throw new UnrecoverableError(CANCELLED_MESSAGE);
    }
    // The merge stops at its next pause once its time budget is spent or its client went away.
    const stop = new AbortController();
    const budget = setTimeout(
      () =>
        stop.abort(
          new UnrecoverableError(
            `upload: merging these files took longer than ${env.MERGE_TIME_BUDGET_MS / 1000} s, the most one merge may take; export a shorter date range`,
          ),
        ),
      env.MERGE_TIME_BUDGET_MS,
    );
    const lockPause = createJobPause(job, env.LOCK_DURATION_MS, log);
    let cancelCheckedAt = 0;
    const pause = async () => {
      await lockPause();
      if (!stop.signal.aborted && job.id && Date.now() - cancelCheckedAt >= CANCEL_CHECK_EVERY_MS) {
        cancelCheckedAt = Date.now();
        if (await deps.redis.exists(mergeCancelKey(env.QUEUE_PREFIX, job.id))) {
          stop.abort(new UnrecoverableError(CANCELLED_MESSAGE));
        }
      }
      if (stop.signal.aborted) throw stop.signal.reason;
    };

    // A storage failure while a stream loads must not pass for a bad file (a 400).
    const storage: { error: Error | null } = { error: null };
    const streams: { conversionCSV?: Readable; redownloadsCSV?: Readable } = {};
    for (const [field, id] of named) {
      streams[field] = lazyUploadStream(
        async (offset, length) => {
          const bytes = await readUploadSlice(db, id, data.userId, offset, length);
          if (!bytes) throw new Error(`upload ${id} (${field}) disappeared while merging`);
          return bytes;
        },
        sizes[field]!,
        (error) => {
          storage.error ??=
            error instanceof Error
              ? error
              : new Error(`reading upload ${id} (${field}) failed`, { cause: error });
        },
      );
    }

    // A parse thread stops when its input does.
    stop.signal.addEventListener('abort', () => {
      for (const stream of Object.values(streams)) stream.destroy();
    });

    const uploadBytes = named.reduce((sum, [field]) => sum + sizes[field]!, 0);
    const pool = parsing > 0 || uploadBytes > LONE_PARSE_MAX_BYTES ? parsePool : null;
    const startedAt = performance.now();
    let merged;
    parsing += 1;
    try {
      merged = await parseAndMergeExports(streams, {
        pause,
        pool,
        maxRows: env.MERGE_MAX_ROWS,
        maxColumns: env.MERGE_MAX_COLUMNS,
      });
    } catch (error) {
      clearTimeout(budget);
      if (stop.signal.aborted) throw stop.signal.reason;
      if (storage.error) throw storage.error;
      if (error instanceof CsvExportError) {
        log.info({ jobId: job.id, field: error.field, reason: error.reason }, 'upload refused');
        throw new UnrecoverableError(error.message);
      }
      throw error;
    } finally {
      parsing -= 1;
    }

    const mergedAt = performance.now();
    let stored;
    try {
      stored = await storeDataset(db, {
        userId: data.userId,
        appName: merged.appName,
        territory: merged.territory,
        headers: merged.headers,
        chunks: merged.chunks(DATASET_CHUNK_ROWS, pause),
        dateSpan: merged.dateSpan,
        ttlDays: env.DATASET_TTL_DAYS,
        uploadIds: named.map(([, id]) => id),
        mergeKey,
      });
    } finally {
      clearTimeout(budget);
    }
    log.info(
      {
        jobId: job.id,
        datasetId: stored.id,
        created: stored.created,
        rows: merged.rowCount,
        parseMs: Math.round(mergedAt - startedAt),
        parsedInThreads: pool !== null,
        storeMs: Math.round(performance.now() - mergedAt),
        columns: merged.headers.length,
        files: merged.files.map((f) => ({
          field: f.field,
          rows: f.rows,
          skippedRows: f.skippedRows,
          encoding: f.encoding,
          delimiter: f.delimiter,
        })),
        warnings: merged.warnings,
      },
      'dataset stored',
    );
    return toMergedData(merged, stored.id);
  };
}

/**
 * Builds the hourly `cleanup-expired` handler (docs/product.md#reading-datasets): deletes expired
 * datasets with their uploads, and expired uploads never merged; logs and returns the counts.
 */
export function createCleanupHandler(deps: TWorkerDeps): TJobHandler<'cleanup-expired'> {
  return async (_data, job) => {
    const deleted = await deleteExpiredAnalytics(deps.db);
    deps.log.info({ jobId: job.id, ...deleted }, 'expired datasets and uploads deleted');
    return deleted;
  };
}
