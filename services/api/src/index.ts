/**
 * @aso/api run in-process, for the browser suite's global setup, which starts the whole system
 * in one process: its environment parser and the server builder. The deployed service is
 * `src/main.ts`, built to `dist/main.js`; this entry is read from the sources only.
 */
export { parseApiEnv, ZApiEnv, type TApiEnv } from './env';
export { buildServer } from './server';
