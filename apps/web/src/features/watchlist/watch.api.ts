/**
 * Calls of watched listings (watchlist, history, notifications, webhook) as TanStack Query
 * factories and mutations' functions, through the app's one API client. Mutations invalidate
 * the keys they change: watch / remove / refresh -> {@link WATCHLIST_KEY}; mark read ->
 * {@link NOTIFICATIONS_KEY}; webhook set / delete -> {@link WEBHOOK_KEY}.
 */
import {
  ZHistoryAnswer,
  ZNotificationList,
  ZWatchItem,
  ZWatchRefreshAnswer,
  ZWebhook,
  ZWebhookAnswer,
  type TWatchBody,
  type TWatchItem,
} from '@aso/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '@/lib/api';
import { pagedQuery } from '@/lib/pages';

/** Key of `GET /api/watchlist`. */
export const WATCHLIST_KEY = ['/api/watchlist'] as const;
/** Key of `GET /api/notifications`; a prefix of {@link UNREAD_COUNT_KEY}, so one invalidation reaches both. */
export const NOTIFICATIONS_KEY = ['/api/notifications'] as const;
/** Key of `GET /api/notifications/unread-count`. */
export const UNREAD_COUNT_KEY = ['/api/notifications', 'unread-count'] as const;
/** Key of `GET /api/webhook`. */
export const WEBHOOK_KEY = ['/api/webhook'] as const;
/** Key of one app's history in one storefront. */
export const historyKey = (appId: string, storefront: string) =>
  ['/api/apps', appId, 'history', storefront] as const;

/** How often the unread count is read again while the app is open (ms). */
export const NOTIFICATIONS_POLL_MS = 60_000;

/**
 * The first page of the signed-in user's watched listings, as the server orders them: where a
 * listing is looked up (whether an app is watched; every watched listing with the default
 * limits, `WATCHLIST_MAX_PER_USER` below the page size).
 */
export function watchlistQuery() {
  return queryOptions({
    queryKey: WATCHLIST_KEY,
    queryFn: ({ signal }) => apiFetch('/api/watchlist', { signal, schema: z.array(ZWatchItem) }),
  });
}

/** The signed-in user's watched listings, newest first, page by page (the watchlist screen). */
export function watchlistPagesQuery() {
  return pagedQuery([...WATCHLIST_KEY, 'pages'], '/api/watchlist', z.array(ZWatchItem));
}

/**
 * Snapshots (oldest first) and changes (newest first) of a watched app in a storefront. A 404
 * means the app is not on the user's watchlist there.
 */
export function historyQuery(appId: string, storefront: string) {
  return queryOptions({
    queryKey: historyKey(appId, storefront),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/apps/${encodeURIComponent(appId)}/history?storefront=${encodeURIComponent(storefront)}`,
        { signal, schema: ZHistoryAnswer },
      ),
  });
}

/**
 * The notifications, newest first, page by page, each page with the unread count of all; the
 * pages loaded are read again every minute.
 */
export function notificationsQuery() {
  return {
    ...pagedQuery([...NOTIFICATIONS_KEY, 'pages'], '/api/notifications', ZNotificationList),
    refetchInterval: NOTIFICATIONS_POLL_MS,
  };
}

const ZUnread = z.object({ unread: z.number().int().nonnegative() });

/** The unread count alone (the sidebar's badge), read again every minute. */
export function unreadCountQuery() {
  return queryOptions({
    queryKey: UNREAD_COUNT_KEY,
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/notifications/unread-count', { signal, schema: ZUnread })).unread,
    refetchInterval: NOTIFICATIONS_POLL_MS,
  });
}

/** The user's webhook, or null when none is set. */
export function webhookQuery() {
  return queryOptions({
    queryKey: WEBHOOK_KEY,
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/webhook', { signal, schema: ZWebhookAnswer })).webhook,
  });
}

/**
 * `POST /api/watchlist`: watches the listing of `appStoreUrl` (its storefront) as `role`.
 * @throws {ApiError} with the server's message (invalid URL, watchlist full, already watched).
 */
export function watchApp(body: TWatchBody): Promise<TWatchItem> {
  return apiFetch('/api/watchlist', { method: 'POST', body, schema: ZWatchItem });
}

/** `DELETE /api/watchlist/{id}`: stops watching (its history goes with it). */
export async function unwatchApp(id: string): Promise<void> {
  await apiFetch(`/api/watchlist/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** `POST /api/watchlist/{id}/refresh`: queues a store read now (202). */
export function refreshWatchItem(id: string) {
  return apiFetch(`/api/watchlist/${encodeURIComponent(id)}/refresh`, {
    method: 'POST',
    schema: ZWatchRefreshAnswer,
  });
}

/** Marks the given notifications read, or every one when `ids` is absent. */
export async function markNotificationsRead(ids?: string[]): Promise<void> {
  await apiFetch('/api/notifications/read', { method: 'POST', body: ids ? { ids } : {} });
}

/**
 * `PUT /api/webhook`: sets the URL (a new signing secret comes back once).
 * @throws {ApiError} 400 with the server's reason, e.g. for a private address.
 */
export function saveWebhook(url: string) {
  return apiFetch('/api/webhook', { method: 'PUT', body: { url }, schema: ZWebhook });
}

/** `POST /api/webhook/test`: queues a signed test event to the webhook (202). */
export async function testWebhook(): Promise<void> {
  await apiFetch('/api/webhook/test', { method: 'POST' });
}

/** `DELETE /api/webhook`. */
export async function deleteWebhook(): Promise<void> {
  await apiFetch('/api/webhook', { method: 'DELETE' });
}

/** Starts an audit of a stored snapshot (no store read) and resolves with the audit id. */
export async function auditSnapshot(appId: string, snapshotId: string): Promise<string> {
  const answer = await apiFetch(
    `/api/apps/${encodeURIComponent(appId)}/history/${encodeURIComponent(snapshotId)}/audit`,
    { method: 'POST', schema: z.object({ id: z.string() }) },
  );
  return answer.id;
}
