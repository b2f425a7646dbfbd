import { loadWorkerEnv } from './env';
import { startScraper } from './service';

let env;
try {
  env = loadWorkerEnv();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
await startScraper(env);
