import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_initial';
import * as m0002 from './0002_dataset_chunks';
import * as m0003 from './0003_unfinished_audits_index';
import * as m0004 from './0004_store_reads';
import * as m0005 from './0005_audit_rules_usage';
import * as m0006 from './0006_personal_sign_in_codes';
import * as m0007 from './0007_saved_audit_once_and_documents';
import * as m0008 from './0008_watchlist';
import * as m0009 from './0009_pending_webhook_deliveries_index';
import * as m0010 from './0010_unanswered_uploads';

/**
 * Every migration, in order. Statically imported (not read from a folder at run time) so the
 * same list works under tsx, vitest and bundlers. Never edit a landed migration: append one.
 */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_dataset_chunks': m0002,
  '0003_unfinished_audits_index': m0003,
  '0004_store_reads': m0004,
  '0005_audit_rules_usage': m0005,
  '0006_personal_sign_in_codes': m0006,
  '0007_saved_audit_once_and_documents': m0007,
  '0008_watchlist': m0008,
  '0009_pending_webhook_deliveries_index': m0009,
  '0010_unanswered_uploads': m0010,
};

/** Kysely `MigrationProvider` over {@link migrations}. */
export const staticMigrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
