import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Db } from '@aso/db';
import type { TWorkerEnv } from './env';
import type { ExportParsePool } from './merge/index';

/** What the csv-merge handlers use. */
export interface WorkerDeps {
  env: TWorkerEnv;
  db: Db;
  log: Logger;
  /** Command connection (the gateway's cancel marks of merges whose client went away). */
  redis: Redis;
  /** The parse threads (`PARSE_THREADS`); null: files are parsed on the worker's own thread. */
  parsePool: ExportParsePool | null;
}
