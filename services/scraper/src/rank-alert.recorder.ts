import { randomUUID } from 'node:crypto';
import { buildAppStoreUrl } from '@aso/appstore/node';
import {
  isRankAlert,
  ZRankSource,
  type TKeywordRankMove,
  type TWebhookEvent,
} from '@aso/contracts';
import {
  findKeywordReadPair,
  insertKeywordNotifications,
  insertWebhookDelivery,
  listTermTrackers,
  type TKeywordReadPair,
  type TKeywordTracker,
} from '@aso/db';
import type { TWorkerDeps } from './worker.deps';

/** Rank of `appId` in a read's ordered ids (1-based), null when absent. */
const rankIn = (ids: readonly string[], appId: string): number | null => {
  const i = ids.indexOf(appId);
  return i === -1 ? null : i + 1;
};

/** One tracker's move between the two reads, when it is worth an alert. */
export interface TRankAlert {
  tracker: TKeywordTracker;
  move: TKeywordRankMove;
}

/**
 * The rank alerts of a read (pure): for each track of the term, the app's rank in the read
 * before and in this one, kept when {@link isRankAlert} with `delta`
 * (docs/product.md#keyword-ranks). A term's first read alerts nobody (nothing to compare).
 */
export function rankAlerts(
  pair: TKeywordReadPair,
  trackers: readonly TKeywordTracker[],
  delta: number,
): TRankAlert[] {
  const previous = pair.previousIds;
  if (previous === null) return [];
  const source = ZRankSource.parse(pair.source);
  return trackers.flatMap((tracker) => {
    const from = rankIn(previous, tracker.appId);
    const to = rankIn(pair.appIds, tracker.appId);
    if (!isRankAlert(from, to, delta)) return [];
    return [
      {
        tracker,
        move: {
          trackId: tracker.trackId,
          term: pair.term,
          storefront: pair.storefront,
          from,
          to,
          source,
        },
      },
    ];
  });
}

/**
 * Records the rank alerts of stored read `readId` in one transaction: one `keyword`
 * notification per user and app whose rank moved by `KEYWORD_ALERT_DELTA` or more or entered or
 * left the top 10 since the term's read before ({@link rankAlerts}), and for users with a
 * webhook a `keyword.rank_changed` delivery per NEW notification, whose jobs are queued after
 * the commit (one that could not be queued stays `pending` until a watch round queues it
 * again). Notifications are unique per user, read and app, so calling this again for the same
 * read (a retried job) stores and sends nothing twice. `names` gives app names from the read's
 * answer when the caller has it (else the watch's or latest snapshot's name).
 *
 * Returns how many notifications were new.
 */
export async function recordRankAlerts(
  deps: Pick<TWorkerDeps, 'db' | 'producers' | 'log' | 'env'>,
  readId: string,
  names: ReadonlyMap<string, string> = new Map(),
): Promise<number> {
  const { created, deliveries } = await deps.db.transaction().execute(async (trx) => {
    const pair = await findKeywordReadPair(trx, readId);
    if (!pair || pair.previousIds === null) return { created: 0, deliveries: [] };
    const alerts = rankAlerts(
      pair,
      await listTermTrackers(trx, pair.termId),
      deps.env.KEYWORD_ALERT_DELTA,
    );
    const byKey = new Map(alerts.map((a) => [`${a.tracker.userId}:${a.tracker.appId}`, a]));
    const inserted = await insertKeywordNotifications(
      trx,
      alerts.map(({ tracker, move }) => ({
        userId: tracker.userId,
        watchItemId: tracker.watchItemId,
        readId: pair.readId,
        trackId: tracker.trackId,
        appId: tracker.appId,
        storefront: tracker.storefront,
        appName: names.get(tracker.appId) ?? tracker.appName,
        role: tracker.role ?? 'mine',
        rankMove: move,
        detectedAt: pair.readAt,
      })),
    );
    const queued: string[] = [];
    for (const row of inserted) {
      const alert = byKey.get(`${row.user_id}:${row.app_id}`);
      if (!alert?.tracker.hasWebhook) continue;
      const event: TWebhookEvent = {
        id: randomUUID(),
        type: 'keyword.rank_changed',
        createdAt: new Date().toISOString(),
        app: {
          appId: row.app_id,
          storefront: row.storefront,
          appName: row.app_name,
          appStoreUrl: buildAppStoreUrl(row.app_id, row.storefront),
          role: row.role,
        },
        detectedAt: pair.readAt.toISOString(),
        changes: [],
        rankMove: alert.move,
      };
      queued.push(await insertWebhookDelivery(trx, row.user_id, event));
    }
    return { created: inserted.length, deliveries: queued };
  });
  for (const deliveryId of deliveries) {
    await deps.producers
      .add('webhook-deliver', { deliveryId }, { jobId: deliveryId })
      .catch((err: unknown) => deps.log.warn({ err, deliveryId }, 'webhook delivery not queued'));
  }
  return created;
}
