import type { Logger } from 'pino';
import type { Db } from '@aso/db';
import type { ProgressBus, Worker } from '@aso/queue';
import type { TWorkerEnv } from './env';

/** What the scraper's handlers use. */
export interface WorkerDeps {
  env: TWorkerEnv;
  db: Db;
  bus: ProgressBus;
  log: Logger;
  /** The running worker (for BullMQ's manual rate limit after a 429). Throws before start. */
  worker: () => Worker;
}
