import {
  changeKind,
  isAppStoreStorefront,
  listingFieldState,
  ZAppListing,
  ZChangeField,
  ZChartPosition,
  ZKeywordRankMove,
  ZPageLayout,
  type TAppListing,
  type THistoryAnswer,
  type TKeywordRankMove,
  type THistorySnapshot,
  type TListingChange,
  type TNotification,
  type TWatchBody,
  type TWatchItem,
} from '@aso/contracts';
import { parseAppStoreUrl } from '@aso/appstore';
import {
  findSnapshot,
  findWatchItem,
  findWatchItemForApp,
  listListingChanges,
  listSnapshotSummaries,
  watchListing,
  type TDb,
  type TListingChangeRow,
  type TNotificationRow,
  type TSessionIdentity,
  type TSnapshotSummaryRow,
  type TWatchItemView,
} from '@aso/db';
import { watchReadJobId, type Producers } from '@aso/queue';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, badRequest, notFound } from '../lib/app-error';
import { startAudit } from './audit.service';

/** What the watchlist calls use. */
export interface TWatchDeps {
  db: TDb;
  producers: Producers;
  log: FastifyBaseLogger;
  /** `WATCHLIST_MAX_PER_USER`. */
  maxPerUser: number;
}

/**
 * How long a new target waits for the read its watch request queued before a scheduler round
 * reads it instead (seconds): a read lost with Redis is made up by a round after it.
 */
const FIRST_READ_LEASE_S = 15 * 60;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The contracts' watch item of a stored one. */
export function toWatchItem(v: TWatchItemView): TWatchItem {
  return {
    id: v.id,
    appId: v.appId,
    storefront: v.storefront,
    language: v.language,
    role: v.role,
    appName: v.appName,
    iconUrl: v.iconUrl,
    appStoreUrl: v.appStoreUrl,
    lastCheckedAt: iso(v.lastCheckedAt),
    lastError: v.lastError,
    lastChangeAt: iso(v.lastChangeAt),
    createdAt: v.createdAt.toISOString(),
  };
}

/**
 * Watches the listing of `body.appStoreUrl` (its storefront and `?l=` page language) for the
 * user as `body.role`. A listing the user already watches keeps its item and takes the new
 * role (`created: false`). A listing nobody watched before gets its first store read queued
 * at once; if Redis refuses it, the next scheduler round reads it.
 *
 * @throws AppError 400 naming a URL that is not an App Store app URL or storefront; 409 when
 *   the user already watches `maxPerUser` listings.
 */
export async function watch(
  deps: TWatchDeps,
  userId: string,
  body: TWatchBody,
): Promise<{ created: boolean; item: TWatchItem }> {
  const parsed = parseAppStoreUrl(body.appStoreUrl);
  if (parsed.status !== 'valid' || !parsed.appId || !parsed.normalizedUrl) {
    throw badRequest(`appStoreUrl: ${parsed.error ?? 'Enter a valid App Store URL.'}`);
  }
  if (!isAppStoreStorefront(parsed.storefront)) {
    throw badRequest(`appStoreUrl: "${parsed.storefront}" is not an App Store storefront`);
  }
  const outcome = await watchListing(deps.db, {
    userId,
    appId: parsed.appId,
    storefront: parsed.storefront,
    language: parsed.language ?? null,
    appStoreUrl: parsed.normalizedUrl,
    role: body.role,
    maxPerUser: deps.maxPerUser,
    firstReadLeaseSeconds: FIRST_READ_LEASE_S,
  });
  if (outcome.status === 'full') {
    throw new AppError(
      'CONFLICT',
      `You can watch at most ${deps.maxPerUser} listings (WATCHLIST_MAX_PER_USER); remove one to watch another`,
    );
  }
  if (outcome.newTarget) {
    const targetId = outcome.item.targetId;
    await deps.producers
      .add('watch-read', { targetId }, { jobId: watchReadJobId(targetId, 'first') })
      .catch((err: unknown) =>
        deps.log.warn({ err, targetId }, 'first read not queued; the next round reads it'),
      );
  }
  return { created: outcome.status === 'created', item: toWatchItem(outcome.item) };
}

/**
 * Queues a store read of the user's watched listing `id` now, whatever the snapshot cache
 * holds. Requests within one minute for one listing queue one read.
 *
 * @throws AppError 404 for an item that is not the user's; 503 when Redis refuses the job.
 */
export async function refreshWatchItem(
  deps: Pick<TWatchDeps, 'db' | 'producers'>,
  userId: string,
  id: string,
): Promise<void> {
  const item = await findWatchItem(deps.db, userId, id);
  if (!item) throw notFound('Watched listing not found');
  const minute = Math.floor(Date.now() / 60_000);
  try {
    await deps.producers.add(
      'watch-read',
      { targetId: item.targetId, refresh: true },
      { jobId: watchReadJobId(item.targetId, `r${minute}`), priority: 1 },
    );
  } catch (err) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'The refresh could not be queued; try again shortly',
      {
        cause: err,
      },
    );
  }
}

/** A number from a listing's text field, or null. */
function numberOf(text: unknown): number | null {
  if (typeof text !== 'string' || text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** The history's view of a stored snapshot; fields the read could not give are null. */
function toHistorySnapshot(row: TSnapshotSummaryRow): THistorySnapshot {
  const f = row.fields as Partial<TAppListing> & Pick<TAppListing, 'unknownFields'>;
  const read = (field: Parameters<typeof listingFieldState>[1]) =>
    listingFieldState(f, field) !== 'unreadable';
  const chart = ZChartPosition.safeParse(f.chartPosition);
  const layout = ZPageLayout.safeParse(row.sourceLayout);
  const ratingCount = read('reviewCount') ? numberOf(f.reviewCount) : null;
  return {
    id: row.id,
    fetchedAt: row.fetchedAt.toISOString(),
    appName: row.appName ?? (typeof f.appName === 'string' && f.appName !== '' ? f.appName : null),
    iconUrl: typeof f.iconUrl === 'string' && f.iconUrl !== '' ? f.iconUrl : null,
    rating: read('rating') ? numberOf(f.rating) : null,
    ratingCount: ratingCount === null ? null : Math.round(ratingCount),
    chartPosition: chart.success ? chart.data : null,
    categoryRank:
      read('categoryRank') && typeof f.categoryRank === 'string' && f.categoryRank !== 'N/A'
        ? f.categoryRank
        : null,
    version: typeof f.version === 'string' && f.version !== '' ? f.version : null,
    sourceLayout: layout.success ? layout.data : 'none',
  };
}

/** The contracts' change of a stored one (null for a field this version does not know). */
function toListingChange(row: TListingChangeRow): TListingChange | null {
  const field = ZChangeField.safeParse(row.field);
  if (!field.success) return null;
  return {
    id: row.id,
    field: field.data,
    before: row.before,
    after: row.after,
    detail: row.detail,
    detectedAt: row.detected_at.toISOString(),
    previousAt: row.previous_at.toISOString(),
    snapshotId: row.snapshot_id,
    previousSnapshotId: row.previous_snapshot_id,
  };
}

/**
 * The history of app `appId` in `storefront` as the user watches it (the page language of
 * their item): its snapshots oldest first, its changes newest first (then in timeline field
 * order). Every snapshot of the listing counts, whoever's read stored it (scheduled reads,
 * refreshes, audits).
 *
 * @throws AppError 404 when the user does not watch the app in that storefront.
 */
export async function listingHistory(
  db: TDb,
  userId: string,
  appId: string,
  storefront: string,
): Promise<THistoryAnswer> {
  const item = await findWatchItemForApp(db, userId, appId, storefront);
  if (!item) throw notFound('You do not watch this app in this storefront');
  const [snapshots, changes] = await Promise.all([
    listSnapshotSummaries(db, appId, storefront, item.language),
    listListingChanges(db, appId, storefront, item.language),
  ]);
  return {
    appId,
    storefront,
    language: item.language,
    appName: item.appName,
    watchItemId: item.id,
    role: item.role,
    snapshots: snapshots.map(toHistorySnapshot),
    changes: changes.map(toListingChange).filter((c): c is TListingChange => c !== null),
  };
}

/**
 * Starts an audit of stored snapshot `snapshotId` of app `appId` ("audit this snapshot"): the
 * main app's listing is that snapshot (no store read), no competitors, no keywords.
 *
 * @throws AppError 404 when the snapshot does not exist or the user does not watch the app in
 *   its storefront; 400 when the stored listing no longer satisfies the listing schema.
 */
export async function auditSnapshot(
  deps: Pick<TWatchDeps, 'db' | 'producers'>,
  identity: TSessionIdentity,
  appId: string,
  snapshotId: string,
): Promise<string> {
  const snapshot = await findSnapshot(deps.db, appId, snapshotId);
  const item = snapshot
    ? await findWatchItemForApp(deps.db, identity.userId, appId, snapshot.storefront)
    : null;
  if (!snapshot || !item) throw notFound('Snapshot not found');
  if (!ZAppListing.safeParse(snapshot.listing).success) {
    throw badRequest(
      'snapshotId: this snapshot was stored in a form that can no longer be audited',
    );
  }
  return startAudit(deps, identity, {
    main: { appId, storefront: snapshot.storefront, appStoreUrl: item.appStoreUrl },
    competitors: [],
    keywords: '',
    snapshotId,
  });
}

/** The rank move of a `keyword` notification (null for a listing change, or an unreadable one). */
function rankMoveOf(row: TNotificationRow): TKeywordRankMove | null {
  if (row.kind !== 'keyword') return null;
  const move = ZKeywordRankMove.safeParse(row.rank_move);
  return move.success ? { ...move.data, trackId: row.keyword_track_id } : null;
}

/** The contracts' notification of a stored one. */
export function toNotification(row: TNotificationRow): TNotification {
  return {
    id: row.id,
    kind: row.kind,
    createdAt: row.created_at.toISOString(),
    readAt: iso(row.read_at),
    watchItemId: row.watch_item_id,
    appId: row.app_id,
    storefront: row.storefront,
    appName: row.app_name,
    role: row.role,
    fields: row.fields.flatMap((f) => {
      const field = ZChangeField.safeParse(f);
      return field.success && changeKind(field.data) === 'listing' ? [field.data] : [];
    }),
    rankMove: rankMoveOf(row),
    detectedAt: row.detected_at.toISOString(),
  };
}
