import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Db } from '@aso/db';
import type { TWorkerEnv } from './env';

/** What the csv-merge handlers use. */
export interface WorkerDeps {
  env: TWorkerEnv;
  db: Db;
  log: Logger;
  /** Command connection (the gateway's cancel marks of merges whose client went away). */
  redis: Redis;
}
