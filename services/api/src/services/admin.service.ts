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
  keywordAlarmStatus,
  listFeedbackForAdmin,
  readStoreHealth,
  summariseAudits,
  type TDb,
  type TPage,
  type TPageRequest,
} from '@aso/db';
import { AppError } from '../lib/app-error';

/** Maps the rows of a page, keeping its next key. */
function mapPage<R, T>(page: TPage<R>, map: (row: R) => T): TPage<T> {
  return { rows: page.rows.map(map), next: page.next };
}

/**
 * One page of the audits, newest first, with the access code each was started with, the rules
 * version that scored it and the tokens its model calls used.
 */
export async function auditHistory(db: TDb, page: TPageRequest): Promise<TPage<TAuditHistoryItem>> {
  return mapPage(
    await listAuditHistory(db, page),
    ({ promptTokens, completionTokens, modelCalls, ...r }) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      tokens:
        promptTokens === null || completionTokens === null
          ? null
          : { prompt: promptTokens, completion: completionTokens, calls: modelCalls ?? 0 },
    }),
  );
}

/** One page of the feedback, newest first, with their audit's app name. */
export async function adminFeedbacks(db: TDb, page: TPageRequest): Promise<TPage<TAdminFeedback>> {
  return mapPage(await listFeedbackForAdmin(db, page), (r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** The admin screen's counts and the latest audited apps (docs/product.md#entities). */
export async function auditsSummary(db: TDb): Promise<TAdminAuditsSummary> {
  const s = await summariseAudits(db);
  return {
    ...s,
    apps: s.apps.map((a) => ({
      ...a,
      audits: a.audits.map((x) => ({ id: x.id, createdAt: x.createdAt.toISOString() })),
    })),
  };
}

/** One page of the apps with cached store snapshots, per storefront, most recently fetched first. */
export async function cachedApps(db: TDb, page: TPageRequest): Promise<TPage<TCachedApp>> {
  return mapPage(await listCachedApps(db, page), (r) => ({
    ...r,
    lastFetchedAt: r.lastFetchedAt.toISOString(),
  }));
}

/** Retires app `appId`'s cached snapshots so its next audit scrapes the store again; the snapshots stay as history. */
export async function clearAppCache(db: TDb, appId: string): Promise<TClearCacheAnswer> {
  return { appId, cleared: await retireSnapshotsForApp(db, appId) };
}

/**
 * Deletes audit `id` with its feedback and saved entries.
 *
 * @throws AppError NOT_FOUND when no such audit exists.
 */
export async function removeAudit(db: TDb, id: string): Promise<TDeleteAuditAnswer> {
  const deleted = await deleteAudit(db, id);
  if (!deleted) throw new AppError('NOT_FOUND', 'Audit not found');
  return { success: true, deletedAudit: deleted };
}

/** Failed store reads the "Store data health" card lists at most. */
export const STORE_HEALTH_FAILURES = 10;

/**
 * The store reader's drift alarm over the last {@link STORE_HEALTH_HOURS} hours (contracts
 * `ZStoreHealth`): reads per layout, the share of reads whose page gave each field, the
 * latest {@link STORE_HEALTH_FAILURES} failed reads, and the keyword search reads'
 * empty-answer alarm (docs/product.md#keyword-ranks).
 */
export async function storeHealth(db: TDb): Promise<TStoreHealth> {
  const [h, keyword] = await Promise.all([
    readStoreHealth(db, { hours: STORE_HEALTH_HOURS, failures: STORE_HEALTH_FAILURES }),
    keywordAlarmStatus(db),
  ]);
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
    keywordSearch: {
      alarm: keyword.alarm
        ? {
            raisedAt: keyword.alarm.raisedAt.toISOString(),
            detail: keyword.alarm.detail,
            paused: 'keyword-rounds',
            pausedTerms: keyword.alarm.pausedTerms,
            suspectTerms: keyword.alarm.suspectTerms,
          }
        : null,
      lastClearedAt: keyword.lastClearedAt?.toISOString() ?? null,
    },
  };
}
