import { runWorkerMain } from '@aso/queue';
import { loadWorkerEnv } from './env';
import { startAnalyzer } from './service';

await runWorkerMain(loadWorkerEnv, startAnalyzer);
