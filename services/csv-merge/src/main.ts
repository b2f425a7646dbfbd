import { runWorkerMain } from '@aso/queue';
import { loadWorkerEnv } from './env';
import { startCsvMerge } from './service';

await runWorkerMain(loadWorkerEnv, startCsvMerge);
