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
export * from './repositories/upload.repository';
export * from './repositories/dataset.repository';
export * from './repositories/dataset-rows.repository';
export * from './repositories/dashboard.repository';
export type { DbOrTrx } from './repositories/expiry.sql';
export * from './repositories/admin.repository';
export * from './repositories/document.repository';
export * from './repositories/watchlist.repository';
export * from './repositories/listing-change.repository';
export * from './repositories/notification.repository';
export * from './repositories/webhook.repository';
