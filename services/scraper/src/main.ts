import { runWorkerMain } from '@aso/queue';
import { loadWorkerEnv } from './env';
import { startScraper } from './service';

await runWorkerMain(loadWorkerEnv, startScraper);
