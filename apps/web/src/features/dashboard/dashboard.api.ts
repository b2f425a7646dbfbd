/**
 * Calls of the dashboard feature (spec section 7: uploads, download-merged, chart-data,
 * dashboards) as TanStack Query factories and plain functions, all through the app's one API
 * client (`apiFetch`: bearer header, `"<status>: <body text>"` errors).
 */
import {
  ZChartData,
  ZDashboard,
  ZUploadResult,
  type TChartData,
  type TDashboard,
  type TDashboardConfig,
  type TMergedData,
} from '@aso/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { dashboardsKey } from '@/lib/queries';
import type { TUploadSlot } from './csv-file.rules';
import { ZSavedDashboardList } from './saved-dashboard.rules';

export { dashboardConfig, isExpiredError, type TSavedDashboard } from './saved-dashboard.rules';

/** Upload waits for the merge job on the server (bounded there at about a minute): allow 2 min. */
export const UPLOAD_TIMEOUT_MS = 120_000;

/** Query key of the saved dashboards list (the app-wide key of `@/lib/queries`). */
export const DASHBOARDS_KEY = dashboardsKey;

/** Saved dashboards of the signed-in user, newest first as the server sends them. */
export function dashboardsQuery() {
  return queryOptions({
    queryKey: DASHBOARDS_KEY,
    queryFn: ({ signal }) => apiFetch('/api/dashboards', { signal, schema: ZSavedDashboardList }),
  });
}

/** Rows of a merged dataset; a 404 means the dataset expired (spec section 4). */
export function chartDataQuery(downloadId: string) {
  return queryOptions({
    queryKey: ['/api/chart-data', downloadId] as const,
    queryFn: ({ signal }): Promise<TChartData> =>
      apiFetch(`/api/chart-data/${encodeURIComponent(downloadId)}`, { signal, schema: ZChartData }),
  });
}

/**
 * `POST /api/uploads` with the chosen files as multipart fields `conversionCSV` and/or
 * `redownloadsCSV` (spec section 7).
 *
 * @throws {ApiError} with the server's `{ message }` on a refused upload.
 * @throws {TypeError} on a network failure; a `TimeoutError` DOMException after 2 minutes.
 */
export async function uploadCsvFiles(
  files: Partial<Record<TUploadSlot, File>>,
): Promise<TMergedData> {
  const form = new FormData();
  for (const slot of ['conversionCSV', 'redownloadsCSV'] as const) {
    const file = files[slot];
    if (file) form.append(slot, file, file.name);
  }
  const answer = await apiFetch('/api/uploads', {
    method: 'POST',
    body: form,
    schema: ZUploadResult,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  return answer.mergedData;
}

/** Body of a save (spec section 3: Dashboard; section 7). */
export interface TSaveDashboardInput {
  appName: string | null;
  territory: string | null;
  config: TDashboardConfig;
}

/** A client session string sent as `sessionId` on save (spec section 3: "sessionId is sent on save"). */
export function newSessionId(): string {
  return `session-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * `POST /api/dashboards`. The caller checks app name and territory first (spec section 5).
 *
 * @throws {ApiError} on a refused save (e.g. 400 with the naming message).
 */
export function saveDashboard(input: TSaveDashboardInput): Promise<TDashboard> {
  return apiFetch('/api/dashboards', {
    method: 'POST',
    body: {
      sessionId: newSessionId(),
      appName: input.appName,
      territory: input.territory,
      configJson: input.config,
    },
    schema: ZDashboard,
  });
}

/** `DELETE /api/dashboards/{id}`. */
export async function deleteDashboard(id: string): Promise<void> {
  await apiFetch(`/api/dashboards/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/**
 * Fetches the processed CSV of `GET /api/download-merged/{downloadId}` with the bearer header
 * (a plain link could not send it) and returns it with the server's file name.
 *
 * @throws {ApiError} `"<status>: <body>"` on a non-2xx answer (404 when expired).
 */
export async function fetchMergedCsv(
  downloadId: string,
): Promise<{ blob: Blob; fileName: string }> {
  // Loaded on use: the saved dashboards list (first load) imports this module too.
  const { fetchDownload } = await import('@/lib/download');
  return fetchDownload(
    `/api/download-merged/${encodeURIComponent(downloadId)}`,
    `${downloadId}-merged.csv`,
    60_000,
  );
}
