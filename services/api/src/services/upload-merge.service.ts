import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { ZMergedData, ZUploadField, type TMergedData } from '@aso/contracts';
import { deleteUploads, type Db } from '@aso/db';
import type { Queue } from 'bullmq';
import { createRedis, QUEUES, QueueEvents, type Job, type Producers } from '@aso/queue';
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

/** How a waited-for merge ended. */
export type TMergeOutcome =
  | { status: 'completed'; value: unknown }
  | { status: 'failed'; reason: string }
  /** Still unfinished at the deadline; `removed` when it was still queued and got withdrawn. */
  | { status: 'timeout'; state: string; removed: boolean };

/** Options of {@link MergeWaiter}. */
export interface MergeWaiterOptions {
  redisUrl: string;
  prefix: string;
  /** Command connection used to read Redis' clock (the gateway's producer connection). */
  redis: Redis;
  log: FastifyBaseLogger;
}

/**
 * Waits for `merge` jobs of the `csv-merge` queue through ONE `QueueEvents` per gateway process
 * (one blocking Redis connection for every upload in flight), created on the first upload and
 * closed with the app.
 *
 * The QueueEvents starts reading the events stream from Redis' current time rather than '$',
 * so an event written between "connected" and its first XREAD is not missed.
 */
export class MergeWaiter {
  private events: Promise<QueueEvents> | null = null;
  private closed = false;

  constructor(private readonly opts: MergeWaiterOptions) {}

  private async open(): Promise<QueueEvents> {
    const [seconds, micros] = await this.opts.redis.time();
    const nowMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    // QueueEvents duplicates the connection it is given; this one only serves as the template.
    const template = createRedis(this.opts.redisUrl, { role: 'worker', name: 'api:merge-events' });
    try {
      const events = new QueueEvents(QUEUES.csvMerge, {
        connection: template,
        prefix: this.opts.prefix,
        lastEventId: `${Math.max(0, nowMs - 1)}-0`,
      });
      events.on('error', (err) => this.opts.log.debug({ err }, 'merge queue events error'));
      await events.waitUntilReady();
      return events;
    } finally {
      template.disconnect();
    }
  }

  /** The process's QueueEvents (opened on first use; a failed open is retried next time). */
  private queueEvents(): Promise<QueueEvents> {
    if (this.closed) return Promise.reject(new Error('merge waiter is closed'));
    if (!this.events) {
      this.events = this.open();
      this.events.catch(() => {
        this.events = null;
      });
    }
    return this.events;
  }

  /**
   * Waits up to `timeoutMs` for `job` (of `queue`) to finish. On the deadline a job still
   * queued is removed (nobody waits for it any more); a running one is left to finish.
   */
  async wait(job: Job, queue: Queue, timeoutMs: number): Promise<TMergeOutcome> {
    try {
      const deadline = Date.now() + timeoutMs;
      const events = await this.queueEvents();
      const left = Math.max(1, deadline - Date.now());
      const value: unknown = await job.waitUntilFinished(events, left);
      return { status: 'completed', value };
    } catch (err) {
      // waitUntilFinished rejects both for a failed job and for the deadline: ask the job.
      const state = await job.getState().catch(() => 'unknown');
      if (state === 'failed' || state === 'completed') {
        const current: Job =
          (job.id ? await queue.getJob(job.id).catch(() => undefined) : undefined) ?? job;
        if (state === 'completed') return { status: 'completed', value: current.returnvalue };
        return { status: 'failed', reason: current.failedReason || (err as Error).message };
      }
      let removed = false;
      if (state === 'waiting' || state === 'prioritized' || state === 'delayed') {
        // Refused by BullMQ when a worker took the job meanwhile: then it is left to finish.
        removed = await job.remove().then(
          () => true,
          () => false,
        );
      }
      return { status: 'timeout', state, removed };
    }
  }

  /** Closes the QueueEvents (bounded: a dead Redis must not hold the shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    const opening = this.events;
    this.events = null;
    if (!opening) return;
    const events = await opening.catch(() => null);
    if (!events) return;
    await Promise.race([
      events.close().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, 2_000).unref()),
    ]);
  }
}

/** What {@link mergeUploads} uses. */
export interface MergeUploadsDeps {
  db: Db;
  producers: Producers;
  waiter: MergeWaiter;
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

  const outcome = await deps.waiter.wait(job, deps.producers.queue(QUEUES.csvMerge), deps.waitMs);
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
