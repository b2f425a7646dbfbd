/**
 * @aso/asc-import run in-process, for the suites that start the whole system in one process (the
 * api's integration tests, the browser suite's global setup): its environment parser and start
 * function, and the notice a refused snapshot leaves on the connection. The deployed service is
 * `src/main.ts`, built to `dist/main.js`; this entry is read from the sources only.
 */
export { parseAscImportEnv, ZAscImportEnv, ZReencryptEnv, type TAscImportEnv } from './env';
export { startAscImport } from './service';
export { SNAPSHOT_REFUSED_NOTICE } from './import.handler';
