import type { EventEmitter } from 'node:events';
import { QueueEvents, type Job } from 'bullmq';
import type { TQueueName } from './catalog';
import type { Producers } from './producer';
import { createRedis, type TRedisClient, type TRedisTarget } from './redis';

/** How a waited-for job ended. */
export type TJobOutcome =
  | { status: 'completed'; value: unknown }
  | { status: 'failed'; reason: string }
  /** Still unfinished at the deadline; `removed` when it was still queued and got withdrawn. */
  | { status: 'timeout'; state: string; removed: boolean };

/**
 * How often a waited-for job is checked to still be in Redis (ms) when its caller can queue it
 * again ({@link JobWaitOptions.requeue}): a Redis restart loses it within this much.
 */
export const VANISHED_CHECK_MS = 2_000;

/** Options of one {@link JobWaiter.wait}. */
export interface TJobWaitOptions {
  /**
   * Queues the job again (same id and data): called when the job is no longer in Redis while
   * it is waited for (Redis restarted empty and lost it; BullMQ answers its state `unknown`),
   * checked every {@link VANISHED_CHECK_MS}. The wait goes on for the job of the same id. Only
   * for jobs whose second run is harmless (idempotent handlers). Its errors are ignored: the
   * next check calls it again.
   */
  requeue?: () => Promise<unknown>;
}

/** Options of {@link JobWaiter}. */
export interface TJobWaiterOptions {
  /** The queue whose jobs are waited for. */
  queue: TQueueName;
  /** Where Redis is (the QueueEvents opens its own blocking connection there). */
  target: TRedisTarget;
  /** The producers of the process (same prefix): used to read a finished job back. */
  producers: Producers;
  /** Command connection used to read Redis' clock (the process's producer connection). */
  redis: TRedisClient;
  /** Where connection errors of the QueueEvents go (debug level). */
  onError?: (err: Error) => void;
  /** Name of the QueueEvents connection in `CLIENT LIST`. Default `<queue>:events`. */
  connectionName?: string;
}

/**
 * Waits for jobs of one queue through ONE BullMQ `QueueEvents` per process (one blocking Redis
 * connection for every job in flight), opened on the first wait and closed with {@link close}.
 *
 * The QueueEvents starts reading the events stream from Redis' current time rather than '$',
 * so an event written between "connected" and its first XREAD is not missed.
 */
export class JobWaiter {
  private events: Promise<QueueEvents> | null = null;
  private closed = false;

  constructor(private readonly opts: TJobWaiterOptions) {}

  private async open(): Promise<QueueEvents> {
    const [seconds, micros] = await this.opts.redis.time();
    const nowMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    // QueueEvents duplicates the connection it is given; this one only serves as the template.
    const template = createRedis(this.opts.target, {
      role: 'worker',
      name: this.opts.connectionName ?? `${this.opts.queue}:events`,
    });
    try {
      const events = new QueueEvents(this.opts.queue, {
        connection: template,
        prefix: this.opts.producers.prefix,
        lastEventId: `${Math.max(0, nowMs - 1)}-0`,
      });
      events.on('error', (err) => this.opts.onError?.(err));
      await events.waitUntilReady();
      return events;
    } finally {
      template.disconnect();
    }
  }

  /** The process's QueueEvents (opened on first use; a failed open is retried next time). */
  private queueEvents(): Promise<QueueEvents> {
    if (this.closed) return Promise.reject(new Error('job waiter is closed'));
    if (!this.events) {
      this.events = this.open();
      this.events.catch(() => {
        this.events = null;
      });
    }
    return this.events;
  }

  /**
   * Waits up to `timeoutMs` (ms) for `job` to finish. On the deadline a job still queued is
   * removed (nobody waits for it any more); a running one is left to finish. Never rejects for
   * the job's own failure: that is the `failed` outcome with BullMQ's failed reason. With
   * `opts.requeue`, a job lost by Redis meanwhile is queued again and waited for.
   */
  async wait(job: Job, timeoutMs: number, opts: TJobWaitOptions = {}): Promise<TJobOutcome> {
    const stopWatch = opts.requeue ? requeueWhenVanished(job, opts.requeue) : () => undefined;
    try {
      const deadline = Date.now() + timeoutMs;
      const events = await this.queueEvents().catch(() => null);
      if (events) {
        const completed = await completedEvent(events, job, Math.max(1, deadline - Date.now()));
        if (completed) return { status: 'completed', value: completed.value };
      }
      // Failed, finished before the wait listened, past the deadline, or no events: ask the job.
      const state = await job.getState().catch(() => 'unknown');
      if (state === 'failed' || state === 'completed') {
        const queue = this.opts.producers.queue(this.opts.queue);
        const current: Job =
          (job.id ? await queue.getJob(job.id).catch(() => undefined) : undefined) ?? job;
        if (state === 'completed') return { status: 'completed', value: current.returnvalue };
        return { status: 'failed', reason: current.failedReason || 'the job failed' };
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
    } finally {
      stopWatch();
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

/**
 * Resolves with `{ value }` (the job's return value) when the `completed` event of `job`
 * arrives on `events` within `timeoutMs` (ms); with null on its `failed` event, at the
 * deadline, or when the job had already finished before the listeners were on (the caller
 * then reads the job). Never rejects. BullMQ's `Job.waitUntilFinished` does the same with its
 * first check inside an async Promise executor, so a Redis error at that moment escaped as an
 * unhandled rejection and ended the process.
 */
function completedEvent(
  events: QueueEvents,
  job: Job,
  timeoutMs: number,
): Promise<{ value: unknown } | null> {
  // The per-job events (`completed:<id>`) are not in BullMQ's typed listener map.
  const emitter = events as unknown as EventEmitter;
  return new Promise((resolve) => {
    const onCompleted = ({ returnvalue }: { returnvalue: unknown }) =>
      settle({ value: returnvalue });
    const onOther = () => settle(null);
    const completed = `completed:${job.id}`;
    const failed = `failed:${job.id}`;
    const timer = setTimeout(onOther, timeoutMs);
    function settle(outcome: { value: unknown } | null) {
      clearTimeout(timer);
      emitter.off(completed, onCompleted);
      emitter.off(failed, onOther);
      resolve(outcome);
    }
    emitter.on(completed, onCompleted);
    emitter.on(failed, onOther);
    // The job may have finished before the listeners were on. A Redis error here is left to
    // the events and the deadline: once Redis is back, the job's end is still announced.
    job.getState().then(
      (state) => {
        if (state === 'completed' || state === 'failed') onOther();
      },
      () => undefined,
    );
  });
}

/**
 * Checks every {@link VANISHED_CHECK_MS} that `job` is still in Redis and calls `requeue` when
 * it is not (one call at a time); answers the function that stops the checks.
 */
function requeueWhenVanished(job: Job, requeue: () => Promise<unknown>): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    // A Redis still down rejects: the next check asks again.
    void job
      .getState()
      .then((state) => (state === 'unknown' ? requeue() : undefined))
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, VANISHED_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Opens a `QueueEvents` on `queue` for a caller that reads the events itself (tests, tools),
 * with its own blocking connection from `connection`'s options; resolves once it listens.
 */
export async function openQueueEvents(
  queue: TQueueName,
  opts: { target: TRedisTarget; prefix: string },
): Promise<QueueEvents> {
  const template = createRedis(opts.target, { role: 'worker', name: `${queue}:events` });
  try {
    const events = new QueueEvents(queue, { connection: template, prefix: opts.prefix });
    await events.waitUntilReady();
    return events;
  } finally {
    template.disconnect();
  }
}
