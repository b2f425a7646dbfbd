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
  code: string;
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
  dataset_id: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

/** `datasets`: merged analytics rows; the id is the client's downloadId. */
export interface DatasetTable {
  id: Generated<string>;
  user_id: string;
  app_name: string | null;
  territory: string | null;
  headers: JSONColumnType<string[]>;
  rows: JSONColumnType<Record<string, unknown>[]>;
  processed_csv: string;
  total_rows: number;
  date_start: string | null;
  date_end: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
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

/** The whole database as kysely sees it. */
export interface Database {
  access_codes: AccessCodeTable;
  users: UserTable;
  sessions: SessionTable;
  audits: AuditTable;
  app_snapshots: AppSnapshotTable;
  saved_audits: SavedAuditTable;
  feedback: FeedbackTable;
  uploads: UploadTable;
  datasets: DatasetTable;
  dashboards: DashboardTable;
}

export type AccessCodeRow = Selectable<AccessCodeTable>;
export type NewAccessCode = Insertable<AccessCodeTable>;
export type UserRow = Selectable<UserTable>;
export type SessionRow = Selectable<SessionTable>;
export type AuditRow = Selectable<AuditTable>;
export type NewAudit = Insertable<AuditTable>;
export type AuditUpdate = Updateable<AuditTable>;
export type AppSnapshotRow = Selectable<AppSnapshotTable>;
export type SavedAuditRow = Selectable<SavedAuditTable>;
export type FeedbackRow = Selectable<FeedbackTable>;
export type UploadRow = Selectable<UploadTable>;
export type DatasetRow = Selectable<DatasetTable>;
export type DashboardRow = Selectable<DashboardTable>;
