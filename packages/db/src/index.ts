/**
 * @aso/db: kysely Database types, frozen migrations and repositories (functions taking a
 * `Db` or a transaction). DESIGN section 4.
 */
export * from './schema';
export * from './client';
export * from './dataset-csv.writer';
export { migrations } from './migrations/index';
export * from './repositories/access.repository';
export * from './repositories/audit.repository';
export * from './repositories/snapshot.repository';
export * from './repositories/store-read.repository';
export * from './repositories/analytics.repository';
export * from './repositories/admin.repository';
export * from './repositories/document.repository';
