import { loadWorkerEnv } from './env';
import { startCsvMerge } from './service';

let env;
try {
  env = loadWorkerEnv();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
await startCsvMerge(env);
