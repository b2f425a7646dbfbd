/**
 * Calls of the dashboard feature (docs/product.md#api-calls: uploads, download-merged, chart-data,
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
import { ApiError, apiFetch } from '@/lib/api';
import { pagedQuery } from '@/lib/pages';
import { dashboardsKey } from '@/lib/queries';
import type { TUploadSlot } from './csv-file.validation';
import { ZSavedDashboardList } from './saved-dashboard.helpers';

export { dashboardConfig, isExpiredError, type TSavedDashboard } from './saved-dashboard.helpers';

/** Upload waits for the merge job on the server (bounded there at about a minute): allow 2 min. */
export const UPLOAD_TIMEOUT_MS = 120_000;

/** Query key of the saved dashboards list (the app-wide key of `@/lib/queries`). */
export const DASHBOARDS_KEY = dashboardsKey;

/**
 * The first page of the signed-in user's saved dashboards, newest first as the server sends
 * them: where a dashboard is looked up by id (every one of them with the default limits,
 * `DASHBOARDS_MAX_PER_USER` not above the page size).
 */
export function dashboardsQuery() {
  return queryOptions({
    queryKey: DASHBOARDS_KEY,
    queryFn: ({ signal }) => apiFetch('/api/dashboards', { signal, schema: ZSavedDashboardList }),
  });
}

/** The signed-in user's saved dashboards, newest first, page by page (the sidebar). */
export function dashboardPagesQuery() {
  return pagedQuery([...DASHBOARDS_KEY, 'pages'], '/api/dashboards', ZSavedDashboardList);
}

/**
 * Rows of a merged dataset; a 404 means the dataset expired
 * (docs/product.md#states-and-transitions).
 */
export function chartDataQuery(downloadId: string) {
  return queryOptions({
    queryKey: ['/api/chart-data', downloadId] as const,
    queryFn: ({ signal }): Promise<TChartData> =>
      apiFetch(`/api/chart-data/${encodeURIComponent(downloadId)}`, { signal, schema: ZChartData }),
  });
}

/**
 * `POST /api/uploads` with the chosen files as multipart fields `conversionCSV` and/or
 * `redownloadsCSV` (docs/product.md#api-calls).
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

/**
 * The sample exports the web app ships (`public/samples/`, CONSTRUCTED data of an invented app,
 * see the README there): a conversion rate export and a redownloads export of the same days.
 */
export const SAMPLE_EXPORTS: Record<TUploadSlot, string> = {
  conversionCSV:
    '/samples/constructed_conversion_sample-app_united-states_2025-06-01_2025-08-31.csv',
  redownloadsCSV:
    '/samples/constructed_redownloads_sample-app_united-states_2025-06-01_2025-08-31.csv',
};

/**
 * The sample exports as files to upload, fetched from the web app's own origin (they then go
 * through `uploadCsvFiles` as any chosen file does).
 *
 * @throws {ApiError} when a file does not answer 200; a `TimeoutError` DOMException after 30 s.
 */
export async function fetchSampleExports(): Promise<Record<TUploadSlot, File>> {
  const entries = await Promise.all(
    (Object.entries(SAMPLE_EXPORTS) as [TUploadSlot, string][]).map(async ([slot, path]) => {
      const res = await fetch(path, { signal: AbortSignal.timeout(30_000) });
      if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
      const name = path.split('/').at(-1)!;
      return [slot, new File([await res.blob()], name, { type: 'text/csv' })] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<TUploadSlot, File>;
}

/** Body of a save (docs/product.md#entities: Dashboard; docs/product.md#api-calls). */
export interface TSaveDashboardInput {
  appName: string | null;
  territory: string | null;
  config: TDashboardConfig;
}

/**
 * A client session string sent as `sessionId` on save (docs/product.md#entities: "sessionId is sent
 * on save").
 */
export function newSessionId(): string {
  return `session-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * `POST /api/dashboards`. The caller checks app name and territory first
 * (docs/product.md#validation-rules).
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
