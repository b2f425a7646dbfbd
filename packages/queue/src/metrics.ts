import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Job, Queue, Worker } from 'bullmq';

/** Prefix of the product's own metric names (Node process metrics keep their standard names). */
export const METRIC_PREFIX = 'aso_';

/**
 * Queue states whose job counts are reported as `aso_queue_jobs{queue,state}` (docs/OPERATIONS.md).
 * `prioritized` is its own state in BullMQ 5 (jobs with a priority, e.g. watched reads, are
 * not counted as waiting): the autoscalers add waiting + prioritized + delayed.
 */
export const MEASURED_JOB_STATES = [
  'waiting',
  'prioritized',
  'active',
  'delayed',
  'failed',
] as const;
export type TMeasuredJobState = (typeof MEASURED_JOB_STATES)[number];

/**
 * Buckets of `aso_job_duration_seconds` (seconds): a cached scrape takes tens of ms, a full one
 * a few seconds, an OpenAI analysis up to a few minutes.
 */
export const JOB_DURATION_BUCKETS_S = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** How long one scrape waits for a queue's job counts before leaving them out (ms). */
export const QUEUE_COUNTS_TIMEOUT_MS = 2_000;

/** Options of {@link createServiceMetrics}. */
export interface TServiceMetricsOptions {
  /** Value of the `service` label put on every sample, e.g. `api` or `scraper`. */
  service: string;
  /** Collect Node's process metrics (CPU, memory, event loop lag, GC). Default true. */
  defaultMetrics?: boolean;
}

/** A Prometheus registry of one service, with the job and queue metrics shared by api and workers. */
export interface TServiceMetrics {
  /** The registry; services add their own metrics to it (`registers: [metrics.registry]`). */
  readonly registry: Registry;
  /**
   * Counts the worker's jobs: `aso_jobs_completed_total{queue}`, `aso_jobs_failed_total{queue}`
   * (every failed attempt, retried or not) and `aso_job_duration_seconds{queue,status}` (from
   * the job's `processedOn` to its `finishedOn`, or now for an attempt that will be retried).
   * Returns a function that stops counting.
   */
  observeWorker(worker: Worker): () => void;
  /**
   * Reports the queue's job counts per state in {@link MEASURED_JOB_STATES} as
   * `aso_queue_jobs{queue,state}`, read from Redis on each scrape. `isReady` (e.g. the Redis
   * connection's `status === 'ready'`) skips the read while Redis is down, so a scrape never
   * queues commands on a connection that retries forever; a read that takes longer than
   * {@link QUEUE_COUNTS_TIMEOUT_MS} is left out of that scrape.
   */
  watchQueue(queue: Queue, isReady?: () => boolean): void;
  /** The exposition: content type (Prometheus text format 0.0.4) and body. */
  render(): Promise<[contentType: string, body: string]>;
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Seconds a job ran, or null when it never started. */
function jobSeconds(job: Pick<Job, 'processedOn' | 'finishedOn'>): number | null {
  if (!job.processedOn) return null;
  return Math.max(0, (job.finishedOn ?? Date.now()) - job.processedOn) / 1000;
}

/**
 * Creates a service's own registry (never prom-client's global one, so several services or
 * tests in one process do not collide) with the `service` label on every sample, Node's
 * process metrics, and the job and queue-depth metrics of {@link ServiceMetrics}.
 */
export function createServiceMetrics(opts: TServiceMetricsOptions): TServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: opts.service });
  if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: registry });

  const completed = new Counter({
    name: `${METRIC_PREFIX}jobs_completed_total`,
    help: 'Jobs completed, per queue.',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const failed = new Counter({
    name: `${METRIC_PREFIX}jobs_failed_total`,
    help: 'Job attempts that failed (retried or not), per queue.',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${METRIC_PREFIX}job_duration_seconds`,
    help: 'Time a job attempt ran, from start to completion or failure, per queue and status.',
    labelNames: ['queue', 'status'] as const,
    buckets: JOB_DURATION_BUCKETS_S,
    registers: [registry],
  });

  const watched: { queue: Queue; isReady?: () => boolean }[] = [];
  const depth: Gauge<'queue' | 'state'> = new Gauge({
    name: `${METRIC_PREFIX}queue_jobs`,
    help: 'Jobs in a queue per state (waiting, active, delayed, failed), read at scrape time.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      depth.reset();
      await Promise.all(
        watched.map(async ({ queue, isReady }) => {
          if (isReady && !isReady()) return;
          const counts = await withTimeout(
            queue.getJobCounts(...MEASURED_JOB_STATES).catch(() => null),
            QUEUE_COUNTS_TIMEOUT_MS,
          );
          if (!counts) return;
          for (const state of MEASURED_JOB_STATES) {
            depth.set({ queue: queue.name, state }, counts[state] ?? 0);
          }
        }),
      );
    },
  });

  return {
    registry,
    observeWorker(worker) {
      const queue = worker.name;
      // Labels exist from the start, so a dashboard shows 0 rather than no data.
      completed.inc({ queue }, 0);
      failed.inc({ queue }, 0);
      const onCompleted = (job: Job) => {
        completed.inc({ queue });
        const s = jobSeconds(job);
        if (s !== null) duration.observe({ queue, status: 'completed' }, s);
      };
      const onFailed = (job: Job | undefined) => {
        failed.inc({ queue });
        const s = job ? jobSeconds(job) : null;
        if (s !== null) duration.observe({ queue, status: 'failed' }, s);
      };
      worker.on('completed', onCompleted);
      worker.on('failed', onFailed);
      return () => {
        worker.off('completed', onCompleted);
        worker.off('failed', onFailed);
      };
    },
    watchQueue(queue, isReady) {
      watched.push({ queue, isReady });
    },
    async render() {
      return [registry.contentType, await registry.metrics()];
    },
  };
}
