/**
 * @aso/csv-merge run in-process, for the suites that start the whole system in one process (the
 * api's integration tests, the browser suite's global setup): its environment parser and start
 * function. The deployed service is `src/main.ts`, built to `dist/main.js`; this entry is read
 * from the sources only. The merge itself (`parseAndMergeExports`) is exported for the benchmark
 * that compares its CPU with the parse library's.
 */
export { parseWorkerEnv, ZWorkerEnv, type TWorkerEnv } from './env';
export { startCsvMerge } from './service';
export { parseAndMergeExports } from './merge/index';
