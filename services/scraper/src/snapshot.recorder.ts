import { randomUUID } from 'node:crypto';
import { detectListingChanges } from '@aso/appstore/node';
import {
  changeKind,
  ZAppListing,
  type TAppListing,
  type TDetectedChange,
  type TWebhookEvent,
} from '@aso/contracts';
import {
  findPreviousSnapshot,
  insertListingChanges,
  insertNotifications,
  insertSnapshot,
  insertWebhookDelivery,
  listTargetWatchers,
  lockListing,
  markTargetChanged,
  type TAppSnapshotRow,
} from '@aso/db';
import type { TWorkerDeps } from './worker.deps';

/** What {@link storeSnapshot} stored. */
export interface TStoredSnapshot {
  snapshot: TAppSnapshotRow;
  /** The fields that differ from the snapshot before it (empty for the first one). */
  changes: TDetectedChange[];
  /** Whether a listing change (not a store figure) was found: it raised the alerts. */
  listingChanged: boolean;
}

/** The previous snapshot's listing, or null when it no longer satisfies the listing schema. */
function listingOf(row: TAppSnapshotRow): TAppListing | null {
  const parsed = ZAppListing.safeParse(row.listing);
  return parsed.success ? parsed.data : null;
}

/**
 * Stores `listing` as a new snapshot of its app, storefront and page language `language` and
 * records what changed since the snapshot before it, in one transaction under the listing's
 * lock (so two snapshots stored at once are each compared with the one before):
 *
 * 1. the snapshot row (`app_snapshots`, the cache and the history);
 * 2. each field that differs (`detectListingChanges`) as a `listing_changes` row;
 * 3. when a listing change (texts, media, events, version, price, languages; not rating,
 *    rating count or rank) was found and users watch the listing: one notification per user,
 *    and for users with a webhook a `listing.changed` delivery, whose jobs are queued after the
 *    commit (a delivery whose job could not be queued stays `pending` until a watch round
 *    queues it again: `requeueStrandedDeliveries`).
 *
 * Used by every store read that stores a snapshot, audits' scrapes included, so a change is
 * found whichever read sees it first.
 */
export async function storeSnapshot(
  deps: Pick<TWorkerDeps, 'db' | 'producers' | 'log'>,
  listing: TAppListing,
  language: string | null,
): Promise<TStoredSnapshot> {
  const { result, deliveries } = await deps.db.transaction().execute(async (trx) => {
    await lockListing(trx, listing.appId, listing.storefront, language);
    const snapshot = await insertSnapshot(trx, {
      appId: listing.appId,
      storefront: listing.storefront,
      appName: listing.appName === '' ? null : listing.appName,
      fetchedAt: listing.fetchedAt,
      sourceLayout: listing.sourceLayout,
      listing,
      language,
    });
    const previous = await findPreviousSnapshot(trx, snapshot);
    const before = previous ? listingOf(previous) : null;
    const changes = previous && before ? detectListingChanges(before, listing) : [];
    const outcome: TStoredSnapshot = {
      snapshot,
      changes,
      listingChanged: changes.some((c) => changeKind(c.field) === 'listing'),
    };
    if (!previous || changes.length === 0) return { result: outcome, deliveries: [] };
    await insertListingChanges(
      trx,
      snapshot,
      previous,
      changes.map((c) => ({ ...c, detail: c.detail })),
    );
    if (!outcome.listingChanged) return { result: outcome, deliveries: [] };

    const listingChanges = changes.filter((c) => changeKind(c.field) === 'listing');
    await markTargetChanged(
      trx,
      { appId: listing.appId, storefront: listing.storefront, language },
      snapshot.fetched_at,
    );
    const watchers = await listTargetWatchers(trx, listing.appId, listing.storefront, language);
    await insertNotifications(
      trx,
      watchers.map((w) => ({
        userId: w.userId,
        watchItemId: w.itemId,
        snapshotId: snapshot.id,
        appId: listing.appId,
        storefront: listing.storefront,
        appName: snapshot.app_name,
        role: w.role,
        fields: listingChanges.map((c) => c.field),
        detectedAt: snapshot.fetched_at,
      })),
    );
    const queued: string[] = [];
    for (const w of watchers.filter((x) => x.hasWebhook)) {
      const event: TWebhookEvent = {
        id: randomUUID(),
        type: 'listing.changed',
        createdAt: new Date().toISOString(),
        app: {
          appId: listing.appId,
          storefront: listing.storefront,
          appName: snapshot.app_name,
          appStoreUrl: w.appStoreUrl,
          role: w.role,
        },
        detectedAt: snapshot.fetched_at.toISOString(),
        changes: listingChanges,
      };
      queued.push(await insertWebhookDelivery(trx, w.userId, event));
    }
    return { result: outcome, deliveries: queued };
  });
  for (const deliveryId of deliveries) {
    await deps.producers
      .add('webhook-deliver', { deliveryId }, { jobId: deliveryId })
      .catch((err: unknown) => deps.log.warn({ err, deliveryId }, 'webhook delivery not queued'));
  }
  return result;
}
