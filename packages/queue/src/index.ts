/**
 * @aso/queue: Redis connections, queue names, the typed job catalog and workers, producers,
 * and the progress event bus (DESIGN sections 1-2).
 */
export * from './redis';
export * from './catalog';
export * from './worker';
export * from './producer';
export * from './audit-flow';
export * from './progress-bus';
export {
  UnrecoverableError,
  DelayedError,
  RateLimitError,
  FlowProducer,
  QueueEvents,
} from 'bullmq';
export type { Job } from 'bullmq';
export * from './worker-runtime';
export * from './worker-env';
export * from './metrics';
export * from './job-logger';
