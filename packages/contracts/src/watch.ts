import { z } from 'zod';
import { URL_BOUND_CHARS, ZAppId, ZIsoDateTime, ZStorefront, ZText, ZUuid } from './common';
import { ZKeywordRankMove } from './keywords';
import { ZChartPosition, ZDeviceClass, ZPageLayout, type TDeviceClass } from './listing';

/**
 * Watching listings over time: the watchlist, the changes found between consecutive snapshots
 * of a watched app, its history, notifications and the webhook that carries them.
 */

/** Whose app a watched listing is: the user's own (`mine`) or a competitor's. */
export const ZWatchRole = z.enum(['mine', 'competitor']);
export type TWatchRole = z.infer<typeof ZWatchRole>;

/** Watched listings a user may have by default (`WATCHLIST_MAX_PER_USER`). */
export const WATCHLIST_MAX_PER_USER_DEFAULT = 20;

/** Body of `POST /api/watchlist`: the App Store URL of the listing (its storefront, `?l=`) and the role. */
export const ZWatchBody = z.object({
  appStoreUrl: ZText.max(URL_BOUND_CHARS, 'appStoreUrl is too long'),
  role: ZWatchRole,
});
export type TWatchBody = z.infer<typeof ZWatchBody>;

/**
 * One watched listing of a user. `lastCheckedAt` is when the store was last read for it
 * (ISO 8601, null before the first read); `lastError` the user-facing reason the last
 * scheduled or requested read failed after its retries (null when it succeeded).
 * `appName` and `iconUrl` come from the latest snapshot (null before the first one).
 */
export const ZWatchItem = z.object({
  id: ZUuid,
  appId: z.string(),
  storefront: z.string(),
  /** The `?l=` page language the listing is read in, or null for the storefront's default. */
  language: z.string().nullable(),
  role: ZWatchRole,
  appName: z.string().nullable(),
  iconUrl: z.string().nullable(),
  appStoreUrl: z.string(),
  lastCheckedAt: ZIsoDateTime.nullable(),
  lastError: z.string().nullable(),
  /** When the latest change of the listing was found (null when none yet). */
  lastChangeAt: ZIsoDateTime.nullable(),
  createdAt: ZIsoDateTime,
});
export type TWatchItem = z.infer<typeof ZWatchItem>;

/** Path parameters of `/api/watchlist/{id}`. */
export const ZWatchItemParams = z.object({ id: ZUuid });

/** Answer of `POST /api/watchlist/{id}/refresh` (202): the store read was queued. */
export const ZWatchRefreshAnswer = z.object({ id: ZUuid, queued: z.literal(true) });
export type TWatchRefreshAnswer = z.infer<typeof ZWatchRefreshAnswer>;

/** The fields whose changes are tracked, in the order a timeline lists a snapshot's changes. */
export const CHANGE_BASE_FIELDS = [
  'title',
  'subtitle',
  'icon',
  'description',
  'promotionalText',
  'screenshots',
  'previews',
  'inAppEvents',
  'version',
  'releaseNotes',
  'price',
  'languages',
  'rating',
  'ratingCount',
  'categoryRank',
] as const;
export type TChangeBaseField = (typeof CHANGE_BASE_FIELDS)[number];

/**
 * Names of stored changes: the base fields, with screenshots per device class
 * (`screenshots.iphone`, `screenshots.ipad`, ...), in timeline order.
 */
export const CHANGE_FIELDS = [
  'title',
  'subtitle',
  'icon',
  'description',
  'promotionalText',
  'screenshots.iphone',
  'screenshots.ipad',
  'screenshots.mac',
  'screenshots.watch',
  'screenshots.tv',
  'screenshots.vision',
  'previews',
  'inAppEvents',
  'version',
  'releaseNotes',
  'price',
  'languages',
  'rating',
  'ratingCount',
  'categoryRank',
] as const satisfies ReadonlyArray<
  Exclude<TChangeBaseField, 'screenshots'> | `screenshots.${TDeviceClass}`
>;
export const ZChangeField = z.enum(CHANGE_FIELDS);
export type TChangeField = z.infer<typeof ZChangeField>;

/** The base field of a change field (`screenshots.ipad` -> `screenshots`). */
export function changeBaseField(field: TChangeField): TChangeBaseField {
  return (field.startsWith('screenshots.') ? 'screenshots' : field) as TChangeBaseField;
}

/**
 * Changes the developer makes (`listing`: texts, media, events, version, price, languages)
 * versus figures the store measures (`store`: rating, rating count, category rank). Only
 * listing changes are shown as markers on the dashboard and judged in "Change impact", and
 * only they raise notifications; store figures are charted on the timeline.
 */
export type TChangeKind = 'listing' | 'store';

/** See {@link TChangeKind}. */
export function changeKind(field: TChangeField): TChangeKind {
  return field === 'rating' || field === 'ratingCount' || field === 'categoryRank'
    ? 'store'
    : 'listing';
}

/** User-facing label of a change field ('Screenshots (iPad)', 'Promotional text', ...). */
export function changeFieldLabel(field: TChangeField): string {
  const device = field.startsWith('screenshots.') ? field.slice('screenshots.'.length) : null;
  if (device !== null) return `Screenshots (${DEVICE_LABELS[device as TDeviceLabelKey]})`;
  return FIELD_LABELS[field as Exclude<TChangeBaseField, 'screenshots'>];
}

type TDeviceLabelKey = TDeviceClass;
const DEVICE_LABELS: Record<TDeviceLabelKey, string> = {
  iphone: 'iPhone',
  ipad: 'iPad',
  mac: 'Mac',
  watch: 'Apple Watch',
  tv: 'Apple TV',
  vision: 'Apple Vision Pro',
};
const FIELD_LABELS: Record<Exclude<TChangeBaseField, 'screenshots'>, string> = {
  title: 'Title',
  subtitle: 'Subtitle',
  icon: 'Icon',
  description: 'Description',
  promotionalText: 'Promotional text',
  previews: 'Preview videos',
  inAppEvents: 'In-app events',
  version: 'Version',
  releaseNotes: 'Release notes',
  price: 'Price',
  languages: 'Languages',
  rating: 'Rating',
  ratingCount: 'Rating count',
  categoryRank: 'Category rank',
};

/** A preview video as a change records it. */
export const ZChangePreview = z.object({
  device: ZDeviceClass,
  videoUrl: z.string(),
  posterUrl: z.string().nullable(),
});
export type TChangePreview = z.infer<typeof ZChangePreview>;

/** An in-app event as a change records it (dates ISO 8601 UTC). */
export const ZChangeEvent = z.object({
  id: z.string(),
  name: z.string(),
  badge: z.string(),
  timeIndicator: z.string(),
  imageUrl: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
});
export type TChangeEvent = z.infer<typeof ZChangeEvent>;

/** A price as a change records it: amount in the storefront's currency units. */
export const ZChangePrice = z.object({
  amount: z.number(),
  currency: z.string().nullable(),
  formatted: z.string().nullable(),
});

/**
 * What changed inside a list value: screenshots (`added`, `removed` URLs, `reordered` when the
 * kept ones moved), preview videos (`added`, `removed` video URLs), in-app events (`started`,
 * `ended`: event ids), languages (`added`, `removed` names); `delta` for numbers (after minus
 * before).
 */
export const ZChangeDetail = z.object({
  added: z.array(z.string()).optional(),
  removed: z.array(z.string()).optional(),
  reordered: z.boolean().optional(),
  started: z.array(z.string()).optional(),
  ended: z.array(z.string()).optional(),
  delta: z.number().optional(),
});
export type TChangeDetail = z.infer<typeof ZChangeDetail>;

/**
 * One field that differs between two consecutive snapshots of a listing, as detected:
 * - texts (title, subtitle, description, promotionalText, version, releaseNotes, categoryRank)
 *   and the icon URL: string or null;
 * - `screenshots.<device>`: the screenshot URLs in store order;
 * - `previews`: {@link ZChangePreview}[]; `inAppEvents`: {@link ZChangeEvent}[];
 * - `rating` (0-5) and `ratingCount`: numbers; `price`: {@link ZChangePrice} or null;
 * - `languages`: names as the storefront lists them.
 */
export const ZDetectedChange = z.object({
  field: ZChangeField,
  before: z.unknown(),
  after: z.unknown(),
  detail: ZChangeDetail.nullable(),
});
export type TDetectedChange = z.infer<typeof ZDetectedChange>;

/** A stored change: the detected change with when it was found and its two snapshots. */
export const ZListingChange = ZDetectedChange.extend({
  id: z.string(),
  /** When the snapshot that shows the change was read (ISO 8601). */
  detectedAt: ZIsoDateTime,
  /** When the snapshot before it was read: the change happened between the two. */
  previousAt: ZIsoDateTime,
  snapshotId: z.string(),
  previousSnapshotId: z.string(),
});
export type TListingChange = z.infer<typeof ZListingChange>;

/**
 * One snapshot of a watched listing in its history: the figures charted over time and what a
 * timeline shows of it (the full listing stays in the database).
 */
export const ZHistorySnapshot = z.object({
  id: z.string(),
  fetchedAt: ZIsoDateTime,
  appName: z.string().nullable(),
  iconUrl: z.string().nullable(),
  /** Average rating 0-5, null when the read could not give it. */
  rating: z.number().nullable(),
  ratingCount: z.number().int().nullable(),
  /** The store chart position, null when not ranked or unknown. */
  chartPosition: ZChartPosition.nullable(),
  categoryRank: z.string().nullable(),
  version: z.string().nullable(),
  sourceLayout: ZPageLayout,
});
export type THistorySnapshot = z.infer<typeof ZHistorySnapshot>;

/** Query of `GET /api/apps/{appId}/history`: the storefront (default `us`). */
export const ZHistoryQuery = z.object({ storefront: ZStorefront.default('us') });
export const ZHistoryParams = z.object({ appId: ZAppId });

/**
 * Answer of `GET /api/apps/{appId}/history?storefront=`: the snapshots oldest first and the
 * changes newest first (by `detectedAt`, then field order).
 */
export const ZHistoryAnswer = z.object({
  appId: z.string(),
  storefront: z.string(),
  language: z.string().nullable(),
  appName: z.string().nullable(),
  watchItemId: ZUuid,
  role: ZWatchRole,
  snapshots: z.array(ZHistorySnapshot),
  changes: z.array(ZListingChange),
});
export type THistoryAnswer = z.infer<typeof ZHistoryAnswer>;

/** Body of `POST /api/apps/{appId}/history/{snapshotId}/audit`: none; answers the audit id. */
export const ZSnapshotAuditParams = z.object({
  appId: ZAppId,
  snapshotId: z.string().regex(/^\d+$/),
});

/**
 * What raised a notification: a watched listing changed (`listing`), or a tracked term's rank
 * moved (`keyword`: by `KEYWORD_ALERT_DELTA` places or more, or into or out of the top 10).
 */
export const ZNotificationKind = z.enum(['listing', 'keyword']);
export type TNotificationKind = z.infer<typeof ZNotificationKind>;

/**
 * A notification. `listing`: `fields` are the changed fields of the snapshot that raised it
 * (`rankMove` null). `keyword`: `rankMove` is the term's move between two reads (`fields`
 * empty; `watchItemId` the user's watch of the app when there is one; `role` that watch's
 * role, `mine` when the app is not watched). `detectedAt` is when the snapshot or the read was
 * made; `readAt` null while unread.
 */
export const ZNotification = z.object({
  id: ZUuid,
  kind: ZNotificationKind,
  createdAt: ZIsoDateTime,
  readAt: ZIsoDateTime.nullable(),
  watchItemId: ZUuid.nullable(),
  appId: z.string(),
  storefront: z.string(),
  appName: z.string().nullable(),
  role: ZWatchRole,
  fields: z.array(ZChangeField),
  rankMove: ZKeywordRankMove.nullable(),
  detectedAt: ZIsoDateTime,
});
export type TNotification = z.infer<typeof ZNotification>;

/** Answer of `GET /api/notifications`: the newest notifications and the unread count. */
export const ZNotificationList = z.object({
  items: z.array(ZNotification),
  unread: z.number().int().nonnegative(),
});
export type TNotificationList = z.infer<typeof ZNotificationList>;

/** Answer of `GET /api/notifications/unread-count` and `POST /api/notifications/read`. */
export const ZUnreadCount = z.object({ unread: z.number().int().nonnegative() });
export type TUnreadCount = z.infer<typeof ZUnreadCount>;

/** Body of `POST /api/notifications/read`: the ids to mark read, or every one when absent. */
export const ZNotificationsReadBody = z
  .object({ ids: z.array(ZUuid).max(500).optional() })
  .nullish()
  .transform((b) => b ?? {});

/** Body of `PUT /api/webhook`: where to POST change events (http or https). */
export const ZWebhookBody = z.object({
  url: ZText.trim().min(1, 'url is required').max(URL_BOUND_CHARS, 'url is too long'),
});

/** The last delivery of a user's webhook. */
export const ZWebhookDelivery = z.object({
  id: ZUuid,
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: ZIsoDateTime,
  deliveredAt: ZIsoDateTime.nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/**
 * A user's webhook: the URL, the last characters of its signing secret and the latest
 * deliveries. `secret` is present only in the answer that created or rotated it.
 */
export const ZWebhook = z.object({
  url: z.string(),
  secretHint: z.string(),
  secret: z.string().optional(),
  createdAt: ZIsoDateTime,
  deliveries: z.array(ZWebhookDelivery),
});
export type TWebhook = z.infer<typeof ZWebhook>;

/** Answer of `GET /api/webhook`: the webhook, or null when none is set. */
export const ZWebhookAnswer = z.object({ webhook: ZWebhook.nullable() });

/** Types of webhook events (also sent as the `X-Aso-Event` header). */
export const ZWebhookEventType = z.enum([
  'listing.changed',
  'keyword.rank_changed',
  'webhook.test',
]);
export type TWebhookEventType = z.infer<typeof ZWebhookEventType>;

/**
 * The JSON body POSTed to a user's webhook when a watched listing changed (type
 * `listing.changed`: `changes`), when a tracked term's rank moved (type
 * `keyword.rank_changed`: `rankMove`, `changes` empty, `detectedAt` the read's time), or by
 * "send a test" (type `webhook.test`, no changes). Signed with HMAC-SHA256 (see
 * `X-Aso-Signature`).
 */
export const ZWebhookEvent = z.object({
  id: ZUuid,
  type: ZWebhookEventType,
  createdAt: ZIsoDateTime,
  app: z
    .object({
      appId: z.string(),
      storefront: z.string(),
      appName: z.string().nullable(),
      appStoreUrl: z.string(),
      role: ZWatchRole,
    })
    .nullable(),
  detectedAt: ZIsoDateTime.nullable(),
  changes: z.array(ZDetectedChange),
  /** Present on `keyword.rank_changed` events only. */
  rankMove: ZKeywordRankMove.optional(),
});
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;
