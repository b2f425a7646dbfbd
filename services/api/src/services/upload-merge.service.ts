import type { FastifyBaseLogger } from 'fastify';
import { ZMergedData, ZUploadField, type TMergedData } from '@aso/contracts';
import { deleteUploads, markUploadsAnswered, type TDb } from '@aso/db';
import { randomUUID } from 'node:crypto';
import {
  mergeCancelKey,
  type Job,
  type JobWaiter,
  type Producers,
  type TRedisClient,
} from '@aso/queue';
import { AppError, badRequest } from '../lib/app-error';
import type { TReceivedUploads } from './upload.service';

/**
 * Answer when the merge does not finish within `UPLOAD_WAIT_MS`
 * (docs/product.md#uploading-exports).
 */
export const MERGE_TIMEOUT_MESSAGE = 'Merging the files took too long; please try again';
/** Answer when the merge failed for a reason that is not the user's file. */
export const MERGE_FAILED_MESSAGE = 'Merging the files failed on the server; please try again';

/**
 * A merge failure caused by the user's file starts with its field, e.g.
 * 'redownloadsCSV: no header row with a Date column found in the first 20 lines', or with
 * 'upload:' for a limit of the merge as a whole (its time budget) (the csv-merge worker's
 * `UnrecoverableError`); anything else is a server-side failure.
 */
const USER_FAILURE = new RegExp(`^(?:${[...ZUploadField.options, 'upload'].join('|')}): \\S`);

/** Deterministic id of the merge job of one upload request (three-part form BullMQ accepts). */
export function mergeJobId(
  uploads: Pick<TReceivedUploads, 'conversionUploadId' | 'redownloadsUploadId'>,
): string {
  return `${uploads.conversionUploadId ?? 'none'}:merge:${uploads.redownloadsUploadId ?? 'none'}`;
}

/** Answer to a user who sends an upload while their previous one is still being merged. */
export const ONE_MERGE_MESSAGE =
  'Only one upload per user is merged at a time, and yours is still being merged: wait for it to finish, then try again';

/** How long a cancel mark is kept for a merge that may still be waiting for a worker (s). */
const CANCEL_MARK_TTL_S = 600;

/** Deletes `key` only while it still holds `token` (another request's lock is left alone). */
const RELEASE_SCRIPT =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * Extends `key` to `ARGV[2]` ms while it holds `token`, or takes it again when it is gone (a
 * Redis restart emptied it); leaves another request's slot alone.
 */
const RENEW_SCRIPT =
  "local v = redis.call('get', KEYS[1]) if v == ARGV[1] or not v then return redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) else return 0 end";

/**
 * Lifetime of a merge slot that is not renewed (ms): the request holding it renews it every
 * {@link MERGE_SLOT_RENEW_MS} while it lives, so the slot of a gateway that died (kill -9, out
 * of memory) frees this long after, and the user's next upload is not refused for longer.
 */
export const MERGE_SLOT_LEASE_MS = 6_000;
/** How often a live request renews its merge slot (ms). */
export const MERGE_SLOT_RENEW_MS = 1_000;
/** How often a request finding the slot taken looks whether its holder still renews it (ms). */
const MERGE_SLOT_CHECK_MS = 250;

/**
 * Takes the user's merge slot: at most one upload request per user is stored and merged at a
 * time, so one user cannot fill the merge workers and slow everyone else's merges. The slot
 * is a Redis key (`<prefix>:merge-user:<userId>`, shared by every gateway), a lease of
 * {@link MERGE_SLOT_LEASE_MS} renewed every {@link MERGE_SLOT_RENEW_MS} until released. A slot
 * found taken is watched for up to one lease: it is refused once its holder renews it (the
 * holder lives), taken once it lapses (its holder died). Returns the release function.
 *
 * @throws AppError 409 {@link ONE_MERGE_MESSAGE} when the user's previous upload still holds it.
 */
export async function takeMergeSlot(
  redis: TRedisClient,
  prefix: string,
  userId: string,
): Promise<() => Promise<void>> {
  const key = `${prefix}:merge-user:${userId}`;
  const token = randomUUID();
  const watchUntil = Date.now() + MERGE_SLOT_LEASE_MS;
  let lastTtl = Infinity;
  while ((await redis.set(key, token, 'PX', MERGE_SLOT_LEASE_MS, 'NX')) !== 'OK') {
    const ttl = await redis.pttl(key);
    // A lease that grew was renewed: its holder lives.
    if (ttl > lastTtl || Date.now() > watchUntil) throw new AppError('CONFLICT', ONE_MERGE_MESSAGE);
    lastTtl = ttl;
    await new Promise((resolve) => setTimeout(resolve, MERGE_SLOT_CHECK_MS));
  }
  const renewal = setInterval(() => {
    redis
      .eval(RENEW_SCRIPT, 1, key, token, String(MERGE_SLOT_LEASE_MS))
      .catch(() => undefined /* Redis away: the next renewal tries again */);
  }, MERGE_SLOT_RENEW_MS);
  renewal.unref();
  return async () => {
    clearInterval(renewal);
    await redis.eval(RELEASE_SCRIPT, 1, key, token);
  };
}

/** What {@link mergeUploads} uses. */
export interface TMergeUploadsDeps {
  db: TDb;
  /** Command connection (the cancel mark). */
  redis: TRedisClient;
  producers: Producers;
  /** The gateway's waiter on the `csv-merge` queue. */
  waiter: JobWaiter;
  log: FastifyBaseLogger;
  /** `UPLOAD_WAIT_MS`. */
  waitMs: number;
  /**
   * Aborts when the upload's client went away: the merge is then cancelled (a queued job is
   * removed by the deadline logic; a running one stops at its next step, see
   * `mergeCancelKey`), since nobody will read its answer.
   */
  clientGone: AbortSignal;
}

/**
 * Enqueues the `merge` job of a stored upload request and waits for it
 * (docs/product.md#uploading-exports), returning the upload answer's `mergedData`.
 *
 * @throws AppError 400 with the worker's message when a file is not a usable export (it names
 *   the field; the request's uploads are deleted, as on any failure); 504 {@link MERGE_TIMEOUT_MESSAGE} past `waitMs` (uploads of a job that never
 *   started are deleted); 503 when Redis cannot take the job; 500 {@link MERGE_FAILED_MESSAGE}
 *   for any other failure.
 */
export async function mergeUploads(
  deps: TMergeUploadsDeps,
  userId: string,
  uploads: TReceivedUploads,
): Promise<TMergedData> {
  const enqueue = () =>
    deps.producers.add(
      'merge',
      {
        userId,
        conversionUploadId: uploads.conversionUploadId,
        redownloadsUploadId: uploads.redownloadsUploadId,
      },
      { jobId: mergeJobId(uploads) },
    );
  let job: Job;
  try {
    job = await enqueue();
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

  const cancel = () => {
    if (!job.id) return;
    deps.redis
      .set(mergeCancelKey(deps.producers.prefix, job.id), '1', 'EX', CANCEL_MARK_TTL_S)
      .then(
        () => deps.log.info({ jobId: job.id }, 'upload client went away; merge cancelled'),
        (err: unknown) => deps.log.warn({ err, jobId: job.id }, 'could not cancel the merge'),
      );
  };
  if (deps.clientGone.aborted) cancel();
  else deps.clientGone.addEventListener('abort', cancel, { once: true });
  let outcome;
  try {
    // A Redis restart loses the queued or running job, not the uploads (PostgreSQL): it is
    // queued again under its id, and a run that had stored the dataset answers that one.
    outcome = await deps.waiter.wait(job, deps.waitMs, {
      requeue: async () => {
        await enqueue();
        deps.log.warn({ jobId: job.id }, 'merge job lost by Redis; queued again');
      },
    });
  } finally {
    deps.clientGone.removeEventListener('abort', cancel);
  }
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
      // Answered: the same files sent later are a new upload, merged again.
      await markUploadsAnswered(deps.db, userId, [...uploads.ids, ...uploads.reused]).catch(
        (err: unknown) =>
          deps.log.warn({ err, jobId: job.id }, 'could not mark the uploads answered'),
      );
      return parsed.data;
    }
    case 'failed':
      // Nothing will read these files again: the user sends new ones.
      await deleteUploads(deps.db, userId, [...uploads.ids, ...uploads.reused]).catch(
        (err: unknown) =>
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
      if (outcome.removed)
        await deleteUploads(deps.db, userId, [...uploads.ids, ...uploads.reused]).catch(
          () => undefined,
        );
      throw new AppError('GATEWAY_TIMEOUT', MERGE_TIMEOUT_MESSAGE);
  }
}
