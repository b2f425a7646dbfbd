import { runWorkerMain } from '@aso/queue';
import { loadRenderEnv } from './env';
import { startRender } from './service';

await runWorkerMain(loadRenderEnv, startRender);
