import { sql } from 'kysely';
import type { Db } from '../client';

/** One row of the admin audit history: an audit with the access code it was started with. */
export interface AuditHistoryRow {
  id: string;
  appName: string | null;
  appStoreUrl: string;
  accessCode: string | null;
  isAdminCode: boolean;
  status: string;
  error: string | null;
  createdAt: Date;
  provider: string | null;
  rulesVersion: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  modelCalls: number | null;
}

/**
 * The latest `limit` audits, newest first, each with the code of the access code it was
 * started with (null when none was recorded or the code was deleted) and whether that was
 * an admin code.
 */
export async function listAuditHistory(db: Db, limit: number): Promise<AuditHistoryRow[]> {
  const rows = await db
    .selectFrom('audits as a')
    .leftJoin('access_codes as c', 'c.id', 'a.access_code_id')
    .select([
      'a.id as id',
      'a.app_name as appName',
      'a.app_store_url as appStoreUrl',
      'c.code as accessCode',
      'c.is_admin as isAdminCode',
      'a.status as status',
      'a.error as error',
      'a.created_at as createdAt',
      'a.provider as provider',
      'a.rules_version as rulesVersion',
      'a.prompt_tokens as promptTokens',
      'a.completion_tokens as completionTokens',
      'a.model_calls as modelCalls',
    ])
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, isAdminCode: r.isAdminCode === true }));
}

/** One feedback as the admin list shows it, with the name of the audited app. */
export interface AdminFeedbackRow {
  id: string;
  auditId: string;
  feedback: string;
  appName: string | null;
  createdAt: Date;
}

/** The latest `limit` feedbacks, newest first, with their audit's app name. */
export async function listFeedbackForAdmin(db: Db, limit: number): Promise<AdminFeedbackRow[]> {
  return db
    .selectFrom('feedback as f')
    .innerJoin('audits as a', 'a.id', 'f.audit_id')
    .select([
      'f.id as id',
      'f.audit_id as auditId',
      'f.feedback as feedback',
      'a.app_name as appName',
      'f.created_at as createdAt',
    ])
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id')
    .limit(limit)
    .execute();
}

/** Audits grouped by app id (spec section 3: Admin audits summary). */
export interface AuditsSummaryRows {
  totalAudits: number;
  uniqueApps: number;
  /** Apps ordered by their latest audit; each app's audits newest first. */
  apps: {
    appId: string;
    /** The latest non-null app name among the app's audits. */
    appName: string | null;
    audits: { id: string; createdAt: Date }[];
  }[];
}

/** Every audit grouped by app id, for the admin summary. */
export async function summariseAudits(db: Db): Promise<AuditsSummaryRows> {
  const rows = await db
    .selectFrom('audits')
    .select(['id', 'app_id', 'app_name', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  const apps = new Map<string, AuditsSummaryRows['apps'][number]>();
  for (const r of rows) {
    let app = apps.get(r.app_id);
    if (!app) {
      app = { appId: r.app_id, appName: null, audits: [] };
      apps.set(r.app_id, app);
    }
    app.appName ??= r.app_name;
    app.audits.push({ id: r.id, createdAt: r.created_at });
  }
  return { totalAudits: rows.length, uniqueApps: apps.size, apps: [...apps.values()] };
}

/** One app's cached store snapshots in one storefront. */
export interface CachedAppRow {
  appId: string;
  storefront: string;
  appName: string | null;
  snapshots: number;
  lastFetchedAt: Date;
}

/**
 * Apps with cached (reusable) snapshots, per storefront, most recently fetched first; snapshots
 * a cache clear retired are history, not cache.
 */
export async function listCachedApps(db: Db): Promise<CachedAppRow[]> {
  const rows = await db
    .selectFrom('app_snapshots')
    .select((eb) => [
      'app_id as appId',
      'storefront',
      sql<
        string | null
      >`(array_agg(app_name order by fetched_at desc) filter (where app_name is not null))[1]`.as(
        'appName',
      ),
      eb.fn.countAll<string>().as('snapshots'),
      eb.fn.max('fetched_at').as('lastFetchedAt'),
    ])
    .where('reusable', '=', true)
    .groupBy(['app_id', 'storefront'])
    .orderBy('lastFetchedAt', 'desc')
    .orderBy('app_id')
    .orderBy('storefront')
    .execute();
  return rows.map((r) => ({ ...r, snapshots: Number(r.snapshots) }));
}

/**
 * Deletes audit `id` (its feedback and saved-audit entries go with it by cascade). Returns
 * its id and app name, or undefined when no such audit exists.
 */
export async function deleteAudit(
  db: Db,
  id: string,
): Promise<{ id: string; appName: string | null } | undefined> {
  return db
    .deleteFrom('audits')
    .where('id', '=', id)
    .returning(['id', 'app_name as appName'])
    .executeTakeFirst();
}
