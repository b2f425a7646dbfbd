import type { Logger } from 'pino';
import type { TDb } from '@aso/db';
import type { ProgressBus, Worker, TRedisClient } from '@aso/queue';
import type { TWorkerEnv } from './env';
import type { TAnalysisProvider } from './providers/provider.types';

/** What the analyzer's handlers use. */
export interface TWorkerDeps {
  env: TWorkerEnv;
  db: TDb;
  /** Command connection (progress appends, terminal-event guards, failed children's reasons). */
  redis: TRedisClient;
  bus: ProgressBus;
  log: Logger;
  /** The configured provider, created on first use (the openai package loads lazily). */
  provider: () => Promise<TAnalysisProvider>;
  /** The running worker (for its rate limiter). */
  worker: () => Worker;
}
