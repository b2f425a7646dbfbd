import type { TRedisClient } from '@aso/queue';
import type { Logger } from 'pino';
import type { TDb } from '@aso/db';
import type { TWorkerEnv } from './env';
import type { ExportParsePool } from './merge/index';

/** What the csv-merge handlers use. */
export interface TWorkerDeps {
  env: TWorkerEnv;
  db: TDb;
  log: Logger;
  /** Command connection (the gateway's cancel marks of merges whose client went away). */
  redis: TRedisClient;
  /** The parse threads (`PARSE_THREADS`); null: files are parsed on the worker's own thread. */
  parsePool: ExportParsePool | null;
}
