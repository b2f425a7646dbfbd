/** @aso/testkit: real PostgreSQL and Redis fixtures for integration tests (DESIGN section 8). */
export * from './pg';
export * from './redis';
export * from './fixtures';
