import { runWorkerMain } from '@aso/queue';
import { loadAscImportEnv } from './env';
import { startAscImport } from './service';

await runWorkerMain(loadAscImportEnv, startAscImport);
