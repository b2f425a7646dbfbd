/**
 * @aso/appstore/node: the node-only half of the package (docs/product.md#how-an-audit-runs "Store
 * data sources"): the store client (global fetch with timeouts, retries, size cap and SSRF guard)
 * and the replay server that serves recorded store answers at Apple's paths. It re-exports the
 * browser-safe barrel too, so node code needs one import.
 */
export * from './index';
export * from './client/guarded-fetch';
export * from './client/store.client';
export * from './client/search.client';
export * from './client/search-hints.client';
export * from './replay/fixture.index';
export * from './replay/replay.faults';
export * from './replay/replay.page';
export * from './replay/replay.server';
export { DEFAULT_FIXTURES_DIR, parseReplayEnv, loadReplayEnv, ZReplayEnv } from './replay/env';
export type { TReplayEnv } from './replay/env';
