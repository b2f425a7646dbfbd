import type {
  ColumnType,
  Generated,
  Insertable,
  JSONColumnType,
  Selectable,
  Updateable,
} from 'kysely';

/** timestamptz: read as Date, written as Date or ISO string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/**
 * `access_codes`: codes that let people register and sign in (docs/product.md#access-and-sessions).
 */
export interface TAccessCodeTable {
  id: Generated<string>;
  /** The canonical code of an invite code; null for an admin code (stored only as its hash). */
  code: string | null;
  /** Hex SHA-256 of an admin code's canonical form; null for invite codes. */
  code_hash: string | null;
  max_uses: number;
  uses: Generated<number>;
  is_admin: Generated<boolean>;
  active: Generated<boolean>;
  expires_at: Timestamp | null;
  created_at: CreatedAt;
}

/** `users`: one row per email; `access_code_id` is the code the user registered with. */
export interface TUserTable {
  id: Generated<string>;
  email: string;
  access_code_id: string | null;
  /** Hex SHA-256 of the user's personal sign-in code; null until one was issued. */
  sign_in_code_hash: string | null;
  last_sign_in_at: Timestamp | null;
  /** Sign-in lock-outs of this email (attempts refused past a limit; migration 0015). */
  lockouts: Generated<number>;
  /** When the latest of them began (null: never). */
  last_lockout_at: Timestamp | null;
  created_at: CreatedAt;
}

/** `sessions`: only the SHA-256 hash of the bearer token is stored. */
export interface TSessionTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  access_code_id: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** `audits`: one ASO audit run: inputs, status, result JSON and error. */
export interface TAuditTable {
  id: Generated<string>;
  user_id: string | null;
  access_code_id: string | null;
  app_id: string;
  storefront: string;
  app_store_url: string;
  app_name: string | null;
  inputs: JSONColumnType<Record<string, unknown>>;
  status: Generated<'queued' | 'running' | 'done' | 'failed'>;
  result: JSONColumnType<Record<string, unknown>> | null;
  error: string | null;
  provider: string | null;
  created_at: CreatedAt;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  /** Rules catalogue version that scored the audit (null before it finished, or unknown). */
  rules_version: Generated<string | null>;
  /** Tokens of the audit's model calls (null for the heuristic provider or unknown). */
  prompt_tokens: Generated<number | null>;
  completion_tokens: Generated<number | null>;
  model_calls: Generated<number | null>;
}

/** `app_snapshots`: every scrape of one app in one storefront (cache and history). */
export interface TAppSnapshotTable {
  id: Generated<string>;
  app_id: string;
  storefront: string;
  app_name: string | null;
  fetched_at: Timestamp;
  source_layout: string;
  listing: JSONColumnType<Record<string, unknown>>;
  /** The `?l=` page language the listing was read in; null for the storefront's default. */
  language: ColumnType<string | null, string | null | undefined, string | null>;
  /** False once the admin cleared the app's cache: kept as history, never reused by audits. */
  reusable: Generated<boolean>;
}

/**
 * `store_reads`: one row per store read of an app (the drift alarm). `layout` is the product
 * page layout read (`ember`, `2025`, `jsonld`, `none` without a page, `unknown` when no parser
 * recognised it); `found_fields` / `missing_fields` the fields that layout carries which the
 * page gave / lacked; `error` why the page or the whole read failed.
 */
export interface TStoreReadTable {
  id: Generated<string>;
  app_id: string;
  storefront: string;
  app_name: string | null;
  layout: string;
  page_status: string;
  found_fields: ColumnType<string[], string[] | undefined, string[]>;
  missing_fields: ColumnType<string[], string[] | undefined, string[]>;
  error: string | null;
  read_at: ColumnType<Date, Date | string | undefined, never>;
}

/** `saved_audits`: audits a user kept in the sidebar. */
export interface TSavedAuditTable {
  id: Generated<string>;
  user_id: string;
  audit_id: string;
  name: string;
  storefront: string;
  created_at: CreatedAt;
}

/** `feedback`: free text about an audit. */
export interface TFeedbackTable {
  id: Generated<string>;
  audit_id: string;
  user_id: string | null;
  feedback: string;
  created_at: CreatedAt;
}

/** `uploads`: raw CSV exports as uploaded (bytes), removed with their dataset. */
export interface TUploadTable {
  id: Generated<string>;
  user_id: string;
  field: 'conversionCSV' | 'redownloadsCSV';
  filename: string;
  size_bytes: number;
  content: Buffer;
  /**
   * Hex SHA-256 of `content` while the request that stored it is unanswered (migration 0010):
   * the same file sent again reuses the upload. Null once answered.
   */
  unanswered_sha256: string | null;
  dataset_id: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

/**
 * `datasets`: one merged analytics dataset; the id is the client's downloadId. Its rows are in
 * `dataset_chunks` (migration 0002); the processed CSV is rendered from them on download.
 */
export interface TDatasetTable {
  id: Generated<string>;
  user_id: string;
  app_name: string | null;
  territory: string | null;
  /** Column names in order; every row of the chunks is aligned with them. */
  headers: JSONColumnType<string[]>;
  total_rows: number;
  date_start: string | null;
  date_end: string | null;
  /**
   * The uploads merged into this dataset (unique; null for datasets stored before migration
   * 0002): a merge job that runs again finds the dataset its first run stored.
   */
  merge_key: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

/** A value of a dataset row: numbers as numbers, missing values null, other cells as text. */
export type TDatasetCell = number | string | null;

/**
 * `dataset_chunks`: a dataset's rows in order, in slices of up to a few thousand rows
 * (docs/BENCHMARKS.md). `rows` is a JSON array of rows, each an array of values aligned with the
 * dataset's `headers`; `first_day`/`last_day` bound the parsed days of the slice's rows (null when
 * none parses); deleted with their dataset.
 */
export interface TDatasetChunkTable {
  dataset_id: string;
  /** 0, 1, 2, ...: the slice's place in the dataset's row order. */
  seq: number;
  first_day: string | null;
  last_day: string | null;
  row_count: number;
  /** Written as JSON text (a string, or its UTF-8 bytes); read back parsed. */
  rows: ColumnType<TDatasetCell[][], string | Buffer, never>;
}

/** `dashboards`: saved dashboards pointing at a dataset. */
export interface TDashboardTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  app_name: string;
  territory: string;
  session_id: string | null;
  config_json: JSONColumnType<Record<string, unknown>>;
  created_at: CreatedAt;
}

/**
 * `documents`: the rendered PDF of an audit or a dashboard, one per owner and subject;
 * `version` fingerprints what it was rendered from (a changed subject renders again).
 */
export interface TDocumentTable {
  id: Generated<string>;
  user_id: string;
  kind: 'audit' | 'dashboard';
  subject_id: string;
  version: string;
  file_name: string;
  pdf: Buffer;
  pages: number;
  rendered_at: Generated<Date>;
}

/**
 * `share_links`: a read-only link to one audit (`/s/{token}`); only the token's SHA-256 is
 * stored, with its first characters for the owner's list.
 */
export interface TShareLinkTable {
  id: Generated<string>;
  user_id: string;
  audit_id: string;
  /** Hex SHA-256 of the token. */
  token_hash: string;
  /** The token's first characters (shown in the owner's list, never enough to open it). */
  token_prefix: string;
  created_at: CreatedAt;
  /** Null: never expires. */
  expires_at: Timestamp | null;
}

/**
 * `watch_targets`: one watched (app, storefront, page language), however many users watch it:
 * when it is next read (`next_check_at`), how the last read went, and the name and icon of
 * its latest snapshot.
 */
export interface TWatchTargetTable {
  id: Generated<string>;
  app_id: string;
  storefront: string;
  language: string | null;
  app_store_url: string;
  app_name: string | null;
  icon_url: string | null;
  next_check_at: Generated<Date>;
  last_checked_at: Timestamp | null;
  last_error: string | null;
  last_change_at: Timestamp | null;
  created_at: CreatedAt;
}

/** `watch_items`: a user's watch of a target, as their own app or a competitor's. */
export interface TWatchItemTable {
  id: Generated<string>;
  user_id: string;
  target_id: string;
  role: 'mine' | 'competitor';
  app_store_url: string;
  created_at: CreatedAt;
}

/**
 * `listing_changes`: one field that differs between snapshot `snapshot_id` and the snapshot
 * before it (`previous_snapshot_id`) of the same app, storefront and page language; `before`,
 * `after` and `detail` as contracts `ZDetectedChange` holds them.
 */
export interface TListingChangeTable {
  id: Generated<string>;
  app_id: string;
  storefront: string;
  language: string | null;
  snapshot_id: string;
  previous_snapshot_id: string;
  detected_at: Timestamp;
  previous_at: Timestamp;
  field: string;
  before: ColumnType<unknown, string, string>;
  after: ColumnType<unknown, string, string>;
  detail: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
}

/**
 * `notifications`: a watched listing of the user changed (one per user and snapshot), or a
 * tracked term's rank moved (one per user, read and app).
 */
export interface TNotificationTable {
  id: Generated<string>;
  user_id: string;
  watch_item_id: string | null;
  /** What raised it: a listing change (`snapshot_id`) or a rank move (`rank_move`). */
  kind: Generated<'listing' | 'keyword'>;
  /** Set for `listing` notifications. */
  snapshot_id: string | null;
  app_id: string;
  storefront: string;
  app_name: string | null;
  role: 'mine' | 'competitor';
  fields: string[];
  /** `keyword`: the read that showed the move and the track it concerns (null once gone). */
  keyword_read_id: string | null;
  keyword_track_id: string | null;
  /** `keyword`: {trackId, term, storefront, from, to, source} (contracts `TKeywordRankMove`). */
  rank_move: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
  detected_at: Timestamp;
  created_at: CreatedAt;
  read_at: Timestamp | null;
}

/** `webhooks`: a user's webhook URL and the secret its POSTs are signed with. */
export interface TWebhookTable {
  user_id: string;
  url: string;
  secret: string;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}

/** `webhook_deliveries`: one event POSTed (or to be POSTed) to a user's webhook. */
export interface TWebhookDeliveryTable {
  id: Generated<string>;
  user_id: string;
  event: JSONColumnType<Record<string, unknown>>;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: CreatedAt;
  delivered_at: Timestamp | null;
}

/** `asc_connections`: a user's App Store Connect API key, its private key sealed (never clear). */
export interface TAscConnectionTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  issuer_id: string;
  key_id: string;
  /** AES-256-GCM under SECRETS_KEY (`sealSecret` of @aso/asc, the connection id as AAD). */
  private_key_sealed: string;
  apps: JSONColumnType<Array<{ appId: string; name: string; bundleId: string }>>;
  created_at: CreatedAt;
}

/** `asc_imports`: one import of one app of a connection. */
export interface TAscImportTable {
  id: Generated<string>;
  connection_id: string;
  app_id: string;
  state: Generated<'queued' | 'running' | 'done' | 'failed'>;
  reports_found: Generated<number>;
  instances: Generated<number>;
  segments: Generated<number>;
  rows: Generated<number>;
  error: string | null;
  /** What a successful import could not do, in words (migration 0017); null: nothing. */
  notice: Generated<string | null>;
  created_at: CreatedAt;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

/** `asc_instances`: a report instance already stored. */
export interface TAscInstanceTable {
  connection_id: string;
  instance_id: string;
  app_id: string;
  kind: string;
  /** YYYY-MM-DD. */
  processing_date: string;
  rows: number;
  stored_at: Generated<Date>;
}

/** `asc_day_owners`: the newest instance that stated a Date of an app's report. */
export interface TAscDayOwnerTable {
  connection_id: string;
  app_id: string;
  kind: string;
  date: string;
  instance_id: string;
  processing_date: string;
}

/** `asc_figures`: sum of Counts per Date, measure, source type, territory and device. */
export interface TAscFigureTable {
  connection_id: string;
  app_id: string;
  kind: string;
  date: string;
  measure: string;
  source_type: string;
  territory: string;
  device: string;
  /** bigint: read as a string by pg. */
  counts: ColumnType<string, number, number>;
}

/**
 * `keyword_terms`: one (normalised term, storefront), however many users and apps track it:
 * when it is next read, how the last read went, and the top results of the last read.
 */
export interface TKeywordTermTable {
  id: Generated<string>;
  term: string;
  storefront: string;
  next_check_at: Generated<Date>;
  last_checked_at: Timestamp | null;
  last_error: string | null;
  result_count: number | null;
  had_results: Generated<boolean>;
  suspect_empty_at: Timestamp | null;
  throttled_until: Timestamp | null;
  top: JSONColumnType<unknown[] | null, string | null, string | null>;
  created_at: CreatedAt;
}

/** `keyword_reads`: one read of a term: the ordered app ids (at most 200) and its source. */
export interface TKeywordReadTable {
  id: Generated<string>;
  term_id: string;
  read_at: Generated<Date>;
  source: string;
  result_count: number;
  app_ids: string[];
  /** The job that stored the read (its id and creation time), so a retry stores none twice. */
  job_key: string | null;
}

/** `keyword_tracks`: a user's tracking of a term for an app in a storefront. */
export interface TKeywordTrackTable {
  id: Generated<string>;
  user_id: string;
  term_id: string;
  app_id: string;
  storefront: string;
  best_rank: number | null;
  created_at: CreatedAt;
}

/** `keyword_alarms`: the empty-answer alarm of search reads (open while `cleared_at` is null). */
export interface TKeywordAlarmTable {
  id: Generated<string>;
  raised_at: Generated<Date>;
  cleared_at: Timestamp | null;
  detail: string;
}

/** The whole database as kysely sees it. */
export interface TDatabase {
  access_codes: TAccessCodeTable;
  users: TUserTable;
  sessions: TSessionTable;
  audits: TAuditTable;
  app_snapshots: TAppSnapshotTable;
  store_reads: TStoreReadTable;
  saved_audits: TSavedAuditTable;
  feedback: TFeedbackTable;
  uploads: TUploadTable;
  datasets: TDatasetTable;
  dataset_chunks: TDatasetChunkTable;
  dashboards: TDashboardTable;
  documents: TDocumentTable;
  share_links: TShareLinkTable;
  watch_targets: TWatchTargetTable;
  watch_items: TWatchItemTable;
  listing_changes: TListingChangeTable;
  notifications: TNotificationTable;
  webhooks: TWebhookTable;
  webhook_deliveries: TWebhookDeliveryTable;
  asc_connections: TAscConnectionTable;
  asc_imports: TAscImportTable;
  asc_instances: TAscInstanceTable;
  asc_day_owners: TAscDayOwnerTable;
  asc_figures: TAscFigureTable;
  keyword_terms: TKeywordTermTable;
  keyword_reads: TKeywordReadTable;
  keyword_tracks: TKeywordTrackTable;
  keyword_alarms: TKeywordAlarmTable;
}

export type TAccessCodeRow = Selectable<TAccessCodeTable>;
export type TNewAccessCode = Insertable<TAccessCodeTable>;
export type TUserRow = Selectable<TUserTable>;
export type TSessionRow = Selectable<TSessionTable>;
export type TAuditRow = Selectable<TAuditTable>;
export type TNewAudit = Insertable<TAuditTable>;
export type TAuditUpdate = Updateable<TAuditTable>;
export type TAppSnapshotRow = Selectable<TAppSnapshotTable>;
export type TStoreReadRow = Selectable<TStoreReadTable>;
export type TSavedAuditRow = Selectable<TSavedAuditTable>;
export type TFeedbackRow = Selectable<TFeedbackTable>;
export type TUploadRow = Selectable<TUploadTable>;
export type TDatasetRow = Selectable<TDatasetTable>;
export type TDatasetChunkRow = Selectable<TDatasetChunkTable>;
export type TDashboardRow = Selectable<TDashboardTable>;
export type TDocumentRow = Selectable<TDocumentTable>;
export type TShareLinkRow = Selectable<TShareLinkTable>;
export type TWatchTargetRow = Selectable<TWatchTargetTable>;
export type TListingChangeRow = Selectable<TListingChangeTable>;
export type TNotificationRow = Selectable<TNotificationTable>;
export type TWebhookRow = Selectable<TWebhookTable>;
export type TWebhookDeliveryRow = Selectable<TWebhookDeliveryTable>;
