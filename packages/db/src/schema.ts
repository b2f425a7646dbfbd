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

/** `access_codes`: codes that let people register and sign in (DESIGN section 5). */
export interface AccessCodeTable {
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
export interface UserTable {
  id: Generated<string>;
  email: string;
  access_code_id: string | null;
  /** Hex SHA-256 of the user's personal sign-in code; null until one was issued. */
  sign_in_code_hash: string | null;
  last_sign_in_at: Timestamp | null;
  created_at: CreatedAt;
}

/** `sessions`: only the SHA-256 hash of the bearer token is stored. */
export interface SessionTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  access_code_id: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** `audits`: one ASO audit run: inputs, status, result JSON and error. */
export interface AuditTable {
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
export interface AppSnapshotTable {
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
export interface StoreReadTable {
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
export interface SavedAuditTable {
  id: Generated<string>;
  user_id: string;
  audit_id: string;
  name: string;
  storefront: string;
  created_at: CreatedAt;
}

/** `feedback`: free text about an audit. */
export interface FeedbackTable {
  id: Generated<string>;
  audit_id: string;
  user_id: string | null;
  feedback: string;
  created_at: CreatedAt;
}

/** `uploads`: raw CSV exports as uploaded (bytes), removed with their dataset. */
export interface UploadTable {
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
export interface DatasetTable {
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
export interface DatasetChunkTable {
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
export interface DashboardTable {
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
export interface DocumentTable {
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
 * `watch_targets`: one watched (app, storefront, page language), however many users watch it:
 * when it is next read (`next_check_at`), how the last read went, and the name and icon of
 * its latest snapshot.
 */
export interface WatchTargetTable {
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
export interface WatchItemTable {
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
export interface ListingChangeTable {
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

/** `notifications`: a watched listing of the user changed (one per user and snapshot). */
export interface NotificationTable {
  id: Generated<string>;
  user_id: string;
  watch_item_id: string | null;
  snapshot_id: string;
  app_id: string;
  storefront: string;
  app_name: string | null;
  role: 'mine' | 'competitor';
  fields: string[];
  detected_at: Timestamp;
  created_at: CreatedAt;
  read_at: Timestamp | null;
}

/** `webhooks`: a user's webhook URL and the secret its POSTs are signed with. */
export interface WebhookTable {
  user_id: string;
  url: string;
  secret: string;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}

/** `webhook_deliveries`: one event POSTed (or to be POSTed) to a user's webhook. */
export interface WebhookDeliveryTable {
  id: Generated<string>;
  user_id: string;
  event: JSONColumnType<Record<string, unknown>>;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: CreatedAt;
  delivered_at: Timestamp | null;
}

/** The whole database as kysely sees it. */
export interface Database {
  access_codes: AccessCodeTable;
  users: UserTable;
  sessions: SessionTable;
  audits: AuditTable;
  app_snapshots: AppSnapshotTable;
  store_reads: StoreReadTable;
  saved_audits: SavedAuditTable;
  feedback: FeedbackTable;
  uploads: UploadTable;
  datasets: DatasetTable;
  dataset_chunks: DatasetChunkTable;
  dashboards: DashboardTable;
  documents: DocumentTable;
  watch_targets: WatchTargetTable;
  watch_items: WatchItemTable;
  listing_changes: ListingChangeTable;
  notifications: NotificationTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
}

export type AccessCodeRow = Selectable<AccessCodeTable>;
export type NewAccessCode = Insertable<AccessCodeTable>;
export type UserRow = Selectable<UserTable>;
export type SessionRow = Selectable<SessionTable>;
export type AuditRow = Selectable<AuditTable>;
export type NewAudit = Insertable<AuditTable>;
export type AuditUpdate = Updateable<AuditTable>;
export type AppSnapshotRow = Selectable<AppSnapshotTable>;
export type StoreReadRow = Selectable<StoreReadTable>;
export type SavedAuditRow = Selectable<SavedAuditTable>;
export type FeedbackRow = Selectable<FeedbackTable>;
export type UploadRow = Selectable<UploadTable>;
export type DatasetRow = Selectable<DatasetTable>;
export type DatasetChunkRow = Selectable<DatasetChunkTable>;
export type DashboardRow = Selectable<DashboardTable>;
export type DocumentRow = Selectable<DocumentTable>;
export type WatchTargetRow = Selectable<WatchTargetTable>;
export type ListingChangeRow = Selectable<ListingChangeTable>;
export type NotificationRow = Selectable<NotificationTable>;
export type WebhookRow = Selectable<WebhookTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
