import { loadApiEnv } from './env';
import { startServer } from './server';

// The api process: parse the environment (fail fast naming the bad variable), then serve.
let config;
try {
  config = loadApiEnv();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
await startServer(config);
