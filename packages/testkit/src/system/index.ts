/**
 * `@aso/testkit/system`: the whole system started as processes on servers of its own, the
 * faults it is put through, and the helpers they wait with. Used by the fault suite (`faults/`)
 * and by `pnpm bench faults`.
 */
export * from './wait.helpers';
export * from './own-redis.server';
export * from './own-redis-cluster.server';
export * from './own-postgres.server';
export * from './fault.system';
export * from './fault.scenarios';
