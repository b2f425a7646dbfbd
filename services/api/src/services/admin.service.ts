import type {
  TAdminAuditsSummary,
  TAdminFeedback,
  TAuditHistoryItem,
  TCachedApp,
  TClearCacheAnswer,
  TDeleteAuditAnswer,
  TStoreHealth,
} from '@aso/contracts';
import { STORE_HEALTH_HOURS } from '@aso/contracts';
import {
  retireSnapshotsForApp,
  deleteAudit,
  listAuditHistory,
  listCachedApps,
  listFeedbackForAdmin,
  readStoreHealth,
  summariseAudits,
  type Db,
} from '@aso/db';
import { AppError } from '../lib/app-error';

/** Rows the admin lists return at most (newest first). */
export const ADMIN_LIST_LIMIT = 500;

/**
 * The latest {@link ADMIN_LIST_LIMIT} audits with the access code each was started with, the
 * rules version that scored it and the tokens its model calls used.
 */
export async function auditHistory(db: Db): Promise<TAuditHistoryItem[]> {
  const rows = await listAuditHistory(db, ADMIN_LIST_LIMIT);
  return rows.map(({ promptTokens, completionTokens, modelCalls, ...r }) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    tokens:
      promptTokens === null || completionTokens === null
        ? null
        : { prompt: promptTokens, completion: completionTokens, calls: modelCalls ?? 0 },
  }));
}

/** The latest {@link ADMIN_LIST_LIMIT} feedbacks with their audit's app name. */
export async function adminFeedbacks(db: Db): Promise<TAdminFeedback[]> {
  const rows = await listFeedbackForAdmin(db, ADMIN_LIST_LIMIT);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** All audits grouped by app (spec section 3: Admin audits summary). */
export async function auditsSummary(db: Db): Promise<TAdminAuditsSummary> {
  const s = await summariseAudits(db);
  return {
    totalAudits: s.totalAudits,
    uniqueApps: s.uniqueApps,
    apps: s.apps.map((a) => ({
      appId: a.appId,
      appName: a.appName,
      audits: a.audits.map((x) => ({ id: x.id, createdAt: x.createdAt.toISOString() })),
    })),
  };
}

/** Apps with cached store snapshots, per storefront, most recently fetched first. */
export async function cachedApps(db: Db): Promise<TCachedApp[]> {
  const rows = await listCachedApps(db);
  return rows.map((r) => ({ ...r, lastFetchedAt: r.lastFetchedAt.toISOString() }));
}

/** Retires app `appId`'s cached snapshots so its next audit scrapes the store again; the snapshots stay as history. */
export async function clearAppCache(db: Db, appId: string): Promise<TClearCacheAnswer> {
  return { appId, cleared: await retireSnapshotsForApp(db, appId) };
}

/**
 * Deletes audit `id` with its feedback and saved entries.
 *
 * @throws AppError NOT_FOUND when no such audit exists.
 */
export async function removeAudit(db: Db, id: string): Promise<TDeleteAuditAnswer> {
  const deleted = await deleteAudit(db, id);
  if (!deleted) throw new AppError('NOT_FOUND', 'Audit not found');
  return { success: true, deletedAudit: deleted };
}

/** Failed store reads the "Store data health" card lists at most. */
export const STORE_HEALTH_FAILURES = 10;

/**
 * The store reader's drift alarm over the last {@link STORE_HEALTH_HOURS} hours (contracts
 * `ZStoreHealth`): reads per layout, the share of reads whose page gave each field, and the
 * latest {@link STORE_HEALTH_FAILURES} failed reads.
 */
export async function storeHealth(db: Db): Promise<TStoreHealth> {
  const h = await readStoreHealth(db, {
    hours: STORE_HEALTH_HOURS,
    failures: STORE_HEALTH_FAILURES,
  });
  return {
    since: h.since.toISOString(),
    hours: STORE_HEALTH_HOURS,
    reads: h.reads,
    byLayout: h.byLayout,
    fields: h.fields.map((f) => ({
      ...f,
      share: f.expected === 0 ? 0 : Math.round((f.found / f.expected) * 1000) / 1000,
    })),
    failures: h.failures.map((f) => ({ ...f, readAt: f.readAt.toISOString() })),
  };
}
