import { sql } from 'kysely';
import type { TDb } from '../client';
import { afterKey, pageAt, toPage, type TPage, type TPageRequest } from './page.sql';

/** One row of the admin audit history: an audit with the access code it was started with. */
export interface TAuditHistoryRow {
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
 * One page of the audits, newest first, each with the code of the access code it was started
 * with (null when none was recorded or the code was deleted) and whether that was an admin
 * code.
 */
export async function listAuditHistory(
  db: TDb,
  page: TPageRequest,
): Promise<TPage<TAuditHistoryRow>> {
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
    .select(pageAt('a'))
    .where(afterKey('a', page.after, 'desc'))
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const listed = toPage(rows, page.limit);
  return {
    rows: listed.rows.map((r) => ({ ...r, isAdminCode: r.isAdminCode === true })),
    next: listed.next,
  };
}

/** One feedback as the admin list shows it, with the name of the audited app. */
export interface TAdminFeedbackRow {
  id: string;
  auditId: string;
  feedback: string;
  appName: string | null;
  createdAt: Date;
}

/** One page of the feedback, newest first, with their audit's app name. */
export async function listFeedbackForAdmin(
  db: TDb,
  page: TPageRequest,
): Promise<TPage<TAdminFeedbackRow>> {
  const rows = await db
    .selectFrom('feedback as f')
    .innerJoin('audits as a', 'a.id', 'f.audit_id')
    .select([
      'f.id as id',
      'f.audit_id as auditId',
      'f.feedback as feedback',
      'a.app_name as appName',
      'f.created_at as createdAt',
    ])
    .select(pageAt('f'))
    .where(afterKey('f', page.after, 'desc'))
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit);
}

/** Audits grouped by app id (docs/product.md#entities: Admin audits summary). */
export interface TAuditsSummaryRows {
  totalAudits: number;
  uniqueApps: number;
  /** Active access codes (the admin screen's count beside the audits). */
  activeCodes: number;
  /** Feedback entries in all. */
  feedbackEntries: number;
  /**
   * The {@link SUMMARY_APPS} apps audited last, by their latest audit; each with its number
   * of audits and its {@link SUMMARY_AUDITS_PER_APP} latest, newest first.
   */
  apps: {
    appId: string;
    /** The latest non-null app name among the app's audits. */
    appName: string | null;
    auditCount: number;
    audits: { id: string; createdAt: Date }[];
  }[];
}

/** Apps the admin summary lists at most (the latest audited). */
export const SUMMARY_APPS = 100;
/** Audits listed per app in the admin summary at most (the latest). */
export const SUMMARY_AUDITS_PER_APP = 20;

/**
 * The admin summary: totals counted in the database, and the latest audited apps with their
 * latest audits, each list bounded ({@link SUMMARY_APPS}, {@link SUMMARY_AUDITS_PER_APP}) so
 * the answer's size does not grow with the number of audits.
 */
export async function summariseAudits(db: TDb): Promise<TAuditsSummaryRows> {
  const [totals, codes, feedback, apps] = await Promise.all([
    db
      .selectFrom('audits')
      .select((eb) => [
        eb.fn.countAll<string>().as('audits'),
        sql<string>`count(distinct app_id)`.as('apps'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('access_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('active', '=', true)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('feedback')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
    sql<{
      app_id: string;
      app_name: string | null;
      audit_count: string;
      audits: Array<{ id: string; createdAt: string }>;
    }>`
      select g.app_id, g.audit_count,
        (select a.app_name from audits a
          where a.app_id = g.app_id and a.app_name is not null
          order by a.created_at desc, a.id desc limit 1) as app_name,
        (select json_agg(json_build_object('id', x.id, 'createdAt', x.created_at)
                         order by x.created_at desc, x.id desc)
          from (select a.id, a.created_at from audits a where a.app_id = g.app_id
                order by a.created_at desc, a.id desc limit ${SUMMARY_AUDITS_PER_APP}) x) as audits
      from (select app_id, count(*) as audit_count, max(created_at) as latest
            from audits group by app_id
            order by latest desc, app_id limit ${SUMMARY_APPS}) g
      order by g.latest desc, g.app_id
    `.execute(db),
  ]);
  return {
    totalAudits: Number(totals.audits),
    uniqueApps: Number(totals.apps),
    activeCodes: Number(codes.n),
    feedbackEntries: Number(feedback.n),
    apps: apps.rows.map((r) => ({
      appId: r.app_id,
      appName: r.app_name,
      auditCount: Number(r.audit_count),
      audits: r.audits.map((a) => ({ id: a.id, createdAt: new Date(a.createdAt) })),
    })),
  };
}

/** One app's cached store snapshots in one storefront. */
export interface TCachedAppRow {
  appId: string;
  storefront: string;
  appName: string | null;
  snapshots: number;
  lastFetchedAt: Date;
}

/**
 * One page of the apps with cached (reusable) snapshots, per storefront, most recently fetched
 * first; snapshots a cache clear retired are history, not cache. The page key is the latest
 * fetch and `appId:storefront`.
 */
export async function listCachedApps(db: TDb, page: TPageRequest): Promise<TPage<TCachedAppRow>> {
  const key = sql`app_id || ':' || storefront`;
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
      sql<string>`max(fetched_at)::text`.as('page_at'),
    ])
    .where('reusable', '=', true)
    .groupBy(['app_id', 'storefront'])
    .having(afterKey({ at: sql`max(fetched_at)`, id: key }, page.after, 'desc'))
    .orderBy('lastFetchedAt', 'desc')
    .orderBy(key, 'desc')
    .limit(page.limit + 1)
    .execute();
  const listed = toPage(rows, page.limit, (r) => `${r.appId}:${r.storefront}`);
  return {
    rows: listed.rows.map((r) => ({ ...r, snapshots: Number(r.snapshots) })),
    next: listed.next,
  };
}

/**
 * Deletes audit `id` (its feedback and saved-audit entries go with it by cascade). Returns
 * its id and app name, or undefined when no such audit exists.
 */
export async function deleteAudit(
  db: TDb,
  id: string,
): Promise<{ id: string; appName: string | null } | undefined> {
  return db
    .deleteFrom('audits')
    .where('id', '=', id)
    .returning(['id', 'app_name as appName'])
    .executeTakeFirst();
}
