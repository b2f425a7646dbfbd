/**
 * @aso/db: kysely Database types, frozen migrations and repositories (functions taking a
 * `Db` or a transaction). docs/product.md#storage.
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
export type { TDbOrTrx } from './repositories/expiry.sql';
export * from './repositories/page.sql';
export * from './repositories/admin.repository';
export * from './repositories/document.repository';
export * from './repositories/watchlist.repository';
export * from './repositories/listing-change.repository';
export * from './repositories/notification.repository';
export * from './repositories/webhook.repository';
export * from './repositories/asc-connection.repository';
export * from './repositories/asc-import.repository';
export * from './repositories/asc-figure.repository';
export * from './repositories/share-link.repository';
export * from './repositories/keyword-track.repository';
export * from './repositories/keyword-read.repository';
export * from './repositories/keyword-history.repository';
export * from './repositories/keyword-research.repository';
export * from './repositories/keyword-alarm.repository';
export * from './repositories/storage.repository';
