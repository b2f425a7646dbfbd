/**
 * App Store Connect calls (connections, imports, imported figures) as TanStack Query factories
 * and mutations' functions, through the app's one API client. Adding, deleting and importing
 * invalidate {@link ASC_CONNECTIONS_KEY}; deleting drops the connection's figures
 * ({@link ascMetricsKey}).
 */
import {
  ZAscConnection,
  ZAscImportStarted,
  ZAscMetrics,
  type TAscConnectionBody,
} from '@aso/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '@/lib/api';
import { pagedQuery } from '@/lib/pages';

/** Key of `GET /api/asc/connections`. */
export const ASC_CONNECTIONS_KEY = ['/api/asc/connections'] as const;

/** How often the screen reads the connections again while an import is queued or running (ms). */
export const IMPORT_POLL_MS = 2_000;

/**
 * The first page of the user's connections, each with its apps and each app's last import:
 * the dashboard's source picker (every connection with the default limits,
 * `ASC_CONNECTIONS_MAX_PER_USER` below the page size).
 */
export function ascConnectionsQuery() {
  return queryOptions({
    queryKey: ASC_CONNECTIONS_KEY,
    queryFn: ({ signal }) =>
      apiFetch('/api/asc/connections', { signal, schema: z.array(ZAscConnection) }),
  });
}

/** The user's connections, newest first, page by page (the settings screen). */
export function ascConnectionPagesQuery() {
  return pagedQuery(
    [...ASC_CONNECTIONS_KEY, 'pages'],
    '/api/asc/connections',
    z.array(ZAscConnection),
  );
}

/** Whether the server offers the offline demo's key (`ASC_DEMO`). */
export function ascDemoQuery() {
  return queryOptions({
    queryKey: ['/api/asc/demo'] as const,
    queryFn: ({ signal }) =>
      apiFetch('/api/asc/demo', { signal, schema: z.object({ available: z.boolean() }) }),
    staleTime: Infinity,
  });
}

/** Adds a key (`POST /api/asc/connections`); the server checks it by listing its apps. */
export const addAscConnection = (body: TAscConnectionBody) =>
  apiFetch('/api/asc/connections', { method: 'POST', body, schema: ZAscConnection });

/** Adds the offline demo's key in one click. */
export const addDemoAscConnection = () =>
  apiFetch('/api/asc/connections/demo', { method: 'POST', schema: ZAscConnection });

/** Deletes a connection (its sealed key, imports and figures go with it). */
export const deleteAscConnection = (id: string) =>
  apiFetch(`/api/asc/connections/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** Queues an import of one app; answers its id. */
export const startAscImport = (id: string, appId: string) =>
  apiFetch(
    `/api/asc/connections/${encodeURIComponent(id)}/apps/${encodeURIComponent(appId)}/import`,
    { method: 'POST', schema: ZAscImportStarted },
  );

/** Key prefix of every figures read of connection `id` (all its apps and filters). */
export const ascMetricsKey = (id: string) => ['/api/asc/metrics', id] as const;

/** Daily figures of an app by source type (optionally one territory or device). */
export function ascMetricsQuery(
  id: string,
  appId: string,
  q: { from: string; to: string; territory?: string | null; device?: string | null },
) {
  const params = new URLSearchParams({ from: q.from, to: q.to });
  if (q.territory) params.set('territory', q.territory);
  if (q.device) params.set('device', q.device);
  return queryOptions({
    queryKey: [...ascMetricsKey(id), appId, params.toString()] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/asc/connections/${encodeURIComponent(id)}/apps/${encodeURIComponent(appId)}/metrics?${params.toString()}`,
        { signal, schema: ZAscMetrics },
      ),
  });
}
