/**
 * @aso/queue: the one queue layer (docs/product.md#system-shape and #how-an-audit-runs). Redis
 * connections, queue names, the typed job catalog, producers (jobs, the audit flow, job
 * schedulers), the job waiter (QueueEvents), typed workers and the worker services' bootstrap, and
 * the progress event bus. Nothing outside this package constructs a BullMQ object.
 */
export * from './redis';
export * from './catalog';
export * from './worker';
export * from './producer';
export * from './audit-flow';
export * from './job-waiter';
export * from './progress-bus';
export { UnrecoverableError, DelayedError, RateLimitError } from 'bullmq';
export type { Job, Queue, QueueEvents, Worker } from 'bullmq';
export * from './worker-runtime';
export * from './cpu-priority';
export * from './worker-bootstrap';
export * from './worker-env';
export * from './metrics';
export * from './job-logger';
export * from './cache-invalidation';
export * from './render-line';
