import type { Logger } from 'pino';
import type { TDb } from '@aso/db';
import type { Producers, ProgressBus, Worker } from '@aso/queue';
import type { TWorkerEnv } from './env';
import type { TStoreReadMetrics } from './store-read.recorder';

/** What the scraper's handlers use. */
export interface TWorkerDeps {
  env: TWorkerEnv;
  db: TDb;
  bus: ProgressBus;
  /** Queues the reads of a round and webhook deliveries. */
  producers: Producers;
  log: Logger;
  /** The drift alarm's counter (`aso_store_fields_missing_total`). */
  metrics: TStoreReadMetrics;
  /** The running worker (for BullMQ's manual rate limit after a 429). Throws before start. */
  worker: () => Worker;
  /** The running `keyword-search` worker (its queue pauses after a throttled search). */
  keywordWorker: () => Worker;
}
