/**
 * @aso/scraper run in-process, for the suites that start the whole system in one process (the
 * api's integration tests, the browser suite's global setup): its environment parser and start
 * function, and the requeue of webhook deliveries a stopped worker left behind. The deployed
 * service is `src/main.ts`, built to `dist/main.js`; this entry is read from the sources only.
 */
export { parseWorkerEnv, ZWorkerEnv, type TWorkerEnv } from './env';
export { startScraper } from './service';
export { requeueStrandedDeliveries } from './webhook.handler';
