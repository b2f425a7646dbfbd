import type { Readable } from 'node:stream';
import type { TMergedData, TUploadField } from '@aso/contracts';
import { deleteExpiredAnalytics, findLiveUpload, readUploadContent, storeDataset } from '@aso/db';
import { UnrecoverableError, type JobHandler } from '@aso/queue';
import {
  CsvExportError,
  parseAndMergeExports,
  toMergedData,
  writeProcessedCsv,
} from './merge/index';
import type { WorkerDeps } from './service';
import { lazyUploadStream } from './upload.reader';

/**
 * Builds the `merge` job handler (DESIGN section 3 point 2; issue 6 points 1-3).
 *
 * For each upload named by the job (the caller's own, unexpired), the bytes are read from
 * PostgreSQL as a stream, parsed and merged by `./merge`; the merged rows, headers, app name,
 * territory, date span and the processed (formula-escaped) CSV are stored as one `datasets`
 * row expiring `DATASET_TTL_DAYS` from now, the uploads are linked to it, and the upload
 * answer's `mergedData` (contracts `TMergedData`) is the job's return value.
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
export function createMergeHandler(deps: WorkerDeps): JobHandler<'merge'> {
  const { db, env, log } = deps;
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

    for (const [field, id] of named) {
      const upload = await findLiveUpload(db, id, data.userId);
      if (!upload || upload.field !== field) {
        throw new UnrecoverableError(
          `${field}: the uploaded file is no longer available; please upload it again`,
        );
      }
    }

    // A storage failure while a stream loads must not pass for a bad file (a 400).
    const storage: { error: Error | null } = { error: null };
    const streams: { conversionCSV?: Readable; redownloadsCSV?: Readable } = {};
    for (const [field, id] of named) {
      streams[field] = lazyUploadStream(
        async () => {
          const bytes = await readUploadContent(db, id, data.userId);
          if (!bytes) throw new Error(`upload ${id} (${field}) disappeared while merging`);
          return bytes;
        },
        (error) => {
          storage.error ??=
            error instanceof Error
              ? error
              : new Error(`reading upload ${id} (${field}) failed`, { cause: error });
        },
      );
    }

    let merged;
    try {
      merged = await parseAndMergeExports(streams);
    } catch (error) {
      if (storage.error) throw storage.error;
      if (error instanceof CsvExportError) {
        log.info({ jobId: job.id, field: error.field, reason: error.reason }, 'upload refused');
        throw new UnrecoverableError(error.message);
      }
      throw error;
    }

    const stored = await storeDataset(db, {
      userId: data.userId,
      appName: merged.appName,
      territory: merged.territory,
      headers: merged.headers,
      rows: merged.rows,
      processedCsv: writeProcessedCsv(merged),
      dateSpan: merged.dateSpan,
      ttlDays: env.DATASET_TTL_DAYS,
      uploadIds: named.map(([, id]) => id),
    });
    log.info(
      {
        jobId: job.id,
        datasetId: stored.id,
        rows: merged.rows.length,
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
 * Builds the hourly `cleanup-expired` handler (DESIGN section 3 point 3): deletes expired
 * datasets with their uploads, and expired uploads never merged; logs and returns the counts.
 */
export function createCleanupHandler(deps: WorkerDeps): JobHandler<'cleanup-expired'> {
  return async (_data, job) => {
    const deleted = await deleteExpiredAnalytics(deps.db);
    deps.log.info({ jobId: job.id, ...deleted }, 'expired datasets and uploads deleted');
    return deleted;
  };
}
