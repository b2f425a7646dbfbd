/**
 * @aso/testkit: real PostgreSQL and Redis for tests, e2e setups and benchmarks
 * (docs/product.md#testing-rules): a migrated database per caller, cloned from a template, and a
 * Redis key prefix. Usable anywhere; the vitest fixtures built on it are the `@aso/testkit/vitest`
 * entry, which only loads inside the test runner.
 */
export * from './pg';
export * from './redis';
export * from './queues';
export * from './factories';
