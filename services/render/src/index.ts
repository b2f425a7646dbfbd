/**
 * @aso/render run in-process, for the suites that start the whole system in one process (the
 * api's integration tests, the browser suite's global setup): its environment parser and start
 * function. The deployed service is `src/main.ts`, built to `dist/main.js`; this entry is read
 * from the sources only.
 */
export { parseRenderEnv, ZRenderEnv, type TRenderEnv } from './env';
export { startRender } from './service';
