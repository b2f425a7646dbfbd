import type { FastifyBaseLogger } from 'fastify';
import { ZMergedData, ZUploadField, type TMergedData } from '@aso/contracts';
import { deleteUploads, type Db } from '@aso/db';
import type { Job, JobWaiter, Producers } from '@aso/queue';
import { AppError, badRequest } from '../lib/app-error';
import type { TReceivedUploads } from './upload.service';

/** Answer when the merge does not finish within `UPLOAD_WAIT_MS` (DESIGN section 3 point 1). */
export const MERGE_TIMEOUT_MESSAGE = 'Merging the files took too long; please try again';
/** Answer when the merge failed for a reason that is not the user's file. */
export const MERGE_FAILED_MESSAGE = 'Merging the files failed on the server; please try again';

/**
 * A merge failure caused by the user's file starts with its field, e.g.
 * 'redownloadsCSV: no header row with a Date column found in the first 20 lines' (the
 * csv-merge worker's `UnrecoverableError`); anything else is a server-side failure.
 */
const USER_FAILURE = new RegExp(`^(?:${ZUploadField.options.join('|')}): \\S`);

/** Deterministic id of the merge job of one upload request (three-part form BullMQ accepts). */
export function mergeJobId(
  uploads: Pick<TReceivedUploads, 'conversionUploadId' | 'redownloadsUploadId'>,
): string {
  return `${uploads.conversionUploadId ?? 'none'}:merge:${uploads.redownloadsUploadId ?? 'none'}`;
}

/** What {@link mergeUploads} uses. */
export interface MergeUploadsDeps {
  db: Db;
  producers: Producers;
  /** The gateway's waiter on the `csv-merge` queue. */
  waiter: JobWaiter;
  log: FastifyBaseLogger;
  /** `UPLOAD_WAIT_MS`. */
  waitMs: number;
}

/**
 * Enqueues the `merge` job of a stored upload request and waits for it (DESIGN section 3
 * point 1), returning the upload answer's `mergedData`.
 *
 * @throws AppError 400 with the worker's message when a file is not a usable export (it names
 *   the field; the request's uploads are deleted, as on any failure); 504 {@link MERGE_TIMEOUT_MESSAGE} past `waitMs` (uploads of a job that never
 *   started are deleted); 503 when Redis cannot take the job; 500 {@link MERGE_FAILED_MESSAGE}
 *   for any other failure.
 */
export async function mergeUploads(
  deps: MergeUploadsDeps,
  userId: string,
  uploads: TReceivedUploads,
): Promise<TMergedData> {
  let job: Job;
  try {
    job = await deps.producers.add(
      'merge',
      {
        userId,
        conversionUploadId: uploads.conversionUploadId,
        redownloadsUploadId: uploads.redownloadsUploadId,
      },
      { jobId: mergeJobId(uploads) },
    );
  } catch (err) {
    await deleteUploads(deps.db, userId, uploads.ids).catch(() => undefined);
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'The service is temporarily unavailable. Please try again shortly.',
      {
        cause: err,
      },
    );
  }

  const outcome = await deps.waiter.wait(job, deps.waitMs);
  switch (outcome.status) {
    case 'completed': {
      const parsed = ZMergedData.safeParse(outcome.value);
      if (!parsed.success) {
        deps.log.error(
          { jobId: job.id, issues: parsed.error.issues },
          'merge result does not match its contract',
        );
        throw new AppError('INTERNAL', MERGE_FAILED_MESSAGE);
      }
      return parsed.data;
    }
    case 'failed':
      // Nothing will read these files again: the user sends new ones.
      await deleteUploads(deps.db, userId, uploads.ids).catch((err: unknown) =>
        deps.log.warn({ err, jobId: job.id }, 'could not delete the uploads of a failed merge'),
      );
      if (USER_FAILURE.test(outcome.reason)) throw badRequest(outcome.reason);
      deps.log.error({ jobId: job.id, reason: outcome.reason }, 'merge job failed');
      throw new AppError('INTERNAL', MERGE_FAILED_MESSAGE);
    case 'timeout':
      deps.log.warn(
        { jobId: job.id, state: outcome.state, removed: outcome.removed, waitMs: deps.waitMs },
        'merge wait timed out',
      );
      if (outcome.removed) await deleteUploads(deps.db, userId, uploads.ids).catch(() => undefined);
      throw new AppError('GATEWAY_TIMEOUT', MERGE_TIMEOUT_MESSAGE);
  }
}
