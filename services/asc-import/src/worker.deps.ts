import type { Logger } from 'pino';
import type { TDb } from '@aso/db';
import type { Producers } from '@aso/queue';
import type { TAscImportEnv } from './env';

/** What the importer's handlers use. */
export interface TWorkerDeps {
  env: TAscImportEnv;
  db: TDb;
  log: Logger;
  producers: Producers;
  /** The AES-256 key of `SECRETS_KEY`, held in this process's memory only (null: unset). */
  secretsKey: Buffer | null;
}
