import type { Logger } from 'pino';
import type { Db } from '@aso/db';
import type { TWorkerEnv } from './env';

/** What the csv-merge handlers use. */
export interface WorkerDeps {
  env: TWorkerEnv;
  db: Db;
  log: Logger;
}
