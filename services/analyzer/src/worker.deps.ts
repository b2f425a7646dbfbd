import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Db } from '@aso/db';
import type { ProgressBus, Worker } from '@aso/queue';
import type { TWorkerEnv } from './env';
import type { TAnalysisProvider } from './providers/provider.types';

/** What the analyzer's handlers use. */
export interface WorkerDeps {
  env: TWorkerEnv;
  db: Db;
  /** Command connection (progress appends, terminal-event guards, failed children's reasons). */
  redis: Redis;
  bus: ProgressBus;
  log: Logger;
  /** The configured provider, created on first use (the openai package loads lazily). */
  provider: () => Promise<TAnalysisProvider>;
  /** The running worker (for its rate limiter). */
  worker: () => Worker;
}
