import {
  DelayedError,
  UnrecoverableError,
  Worker,
  type Job,
  type WorkerOptions,
  type ConnectionOptions,
} from 'bullmq';
import { JOBS, type TJobData, type TJobName, type TJobsOfQueue, type TQueueName } from './catalog';

/**
 * Handles one job of name `N`: gets the validated payload, the BullMQ job (for progress,
 * rate limiting, ids) and an AbortSignal that fires when the job is cancelled or the worker
 * shuts down. Throw `UnrecoverableError` for failures a retry cannot fix.
 */
export type TJobHandler<N extends TJobName, R = unknown> = (
  data: TJobData<N>,
  job: Job<TJobData<N>, R, N>,
  signal: AbortSignal,
) => Promise<R>;

/** One handler per job name of queue `Q`: leaving one out is a compile error. */
export type TQueueHandlers<Q extends TQueueName> = { [N in TJobsOfQueue<Q>]: TJobHandler<N> };

/** Options of {@link createTypedWorker}. */
export interface TTypedWorkerOptions extends Omit<
  WorkerOptions,
  'connection' | 'autorun' | 'prefix'
> {
  connection: ConnectionOptions;
  /** BullMQ key prefix (per test file in tests). */
  prefix: string;
  /**
   * Failures that say "not now" rather than "this job is wrong", e.g. the database is
   * unreachable: a job that throws one is put back as delayed for `delayMs` without using up
   * an attempt, so an outage of any length costs no audit or upload; it runs again once the
   * dependency answers.
   */
  deferOn?: {
    test: (err: unknown) => boolean;
    delayMs: number;
    onDefer?: (job: Job, err: unknown) => void;
  };
}

/**
 * Starts a BullMQ worker on `queue` that validates each payload with the catalog's zod schema
 * (an invalid payload fails at once, never retried) and dispatches to `handlers` by job name.
 */
export function createTypedWorker<Q extends TQueueName>(
  queue: Q,
  handlers: TQueueHandlers<Q>,
  opts: TTypedWorkerOptions,
): Worker {
  const table = handlers as unknown as Record<string, TJobHandler<TJobName>>;
  const { deferOn, ...workerOpts } = opts;
  return new Worker(
    queue,
    async (job: Job, token?: string, signal?: AbortSignal) => {
      const name = job.name as TJobName;
      const handler = table[name];
      const def = JOBS[name] as (typeof JOBS)[TJobName] | undefined;
      if (!handler || !def)
        throw new UnrecoverableError(`no handler for job "${job.name}" on ${queue}`);
      const parsed = def.schema.safeParse(job.data);
      if (!parsed.success) {
        throw new UnrecoverableError(`invalid ${job.name} payload: ${parsed.error.message}`);
      }
      // The catalog lookup above proved the name and payload; the handler table is keyed by it.
      const run = handler as (d: unknown, j: Job, s: AbortSignal) => Promise<unknown>;
      try {
        return await run(parsed.data, job, signal ?? new AbortController().signal);
      } catch (err) {
        if (!deferOn?.test(err) || !token) throw err;
        deferOn.onDefer?.(job, err);
        // BullMQ's documented way to retry later without counting an attempt.
        await job.moveToDelayed(Date.now() + deferOn.delayMs, token);
        throw new DelayedError();
      }
    },
    { ...workerOpts, autorun: true },
  );
}
