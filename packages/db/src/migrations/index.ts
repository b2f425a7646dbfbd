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
import * as m0011 from './0011_share_links';
import * as m0013 from './0013_keywords';
import * as m0014 from './0014_app_store_connect';
import * as m0015 from './0015_user_quotas_and_pages';
import * as m0016 from './0016_keyword_alerts';
import * as m0017 from './0017_asc_import_notice';

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
  '0011_share_links': m0011,
  '0013_keywords': m0013,
  '0014_app_store_connect': m0014,
  '0015_user_quotas_and_pages': m0015,
  '0016_keyword_alerts': m0016,
  '0017_asc_import_notice': m0017,
};

/** Kysely `MigrationProvider` over {@link migrations}. */
export const staticMigrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
