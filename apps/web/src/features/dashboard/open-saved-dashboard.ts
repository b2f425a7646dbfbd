/**
 * Opening a saved dashboard (docs/product.md#states-and-transitions and #error-catalogue: "Loading
 * a saved dashboard with a downloadId opens it; without one the message 'Dashboard data is
 * incomplete' is shown"; 'Load Failed' / 'Failed to load dashboard').
 */
import type { QueryClient } from '@tanstack/react-query';
import { dismissToasts, toast } from '@/components/ui/use-toast';
import { dashboardConfig, dashboardsQuery, type TSavedDashboard } from './dashboard.api';
import { openAscDashboard, openDataset } from './dashboard.store';

/** Topic of the 'Load Failed' toasts: closed once a saved dashboard opens. */
const LOAD_TOPIC = 'load-dashboard';

/** Toast texts of docs/product.md#error-catalogue ("Load fails"). */
export const LOAD_TEXTS = {
  title: 'Load Failed',
  incomplete: 'Dashboard data is incomplete',
  failed: 'Failed to load dashboard',
} as const;

/**
 * Opens `dashboard` in the dashboard tab: its dataset, or the imported app with its filters.
 * Returns false (after the 'Load Failed' toast) when its config names neither.
 */
export function openSavedDashboard(dashboard: TSavedDashboard): boolean {
  const config = dashboardConfig(dashboard);
  if (!config) {
    toast({
      variant: 'destructive',
      title: LOAD_TEXTS.title,
      description: LOAD_TEXTS.incomplete,
      topic: LOAD_TOPIC,
    });
    return false;
  }
  if (config.createdFrom === 'app_store_connect') {
    openAscDashboard({
      connectionId: config.connectionId,
      appId: config.appId,
      appName: dashboard.appName ?? `App ${config.appId}`,
      territory: config.territory,
      device: config.device,
      appliedRange: config.dateRange ?? null,
      selectedMetrics: config.selectedMetrics ?? null,
      savedId: dashboard.id,
      name: dashboard.name,
      watchedApp: config.watchedApp ?? null,
    });
    return true;
  }
  openDataset(
    {
      downloadId: config.downloadId,
      appName: dashboard.appName,
      territory: dashboard.territory,
      headers: config.headers,
      totalRows: config.totalRows,
      savedId: dashboard.id,
      name: dashboard.name,
      watchedApp: config.watchedApp ?? null,
    },
    // The view saved with it: its date range and the metrics selected in the chart.
    { appliedRange: config.dateRange ?? null, selectedMetrics: config.selectedMetrics ?? null },
  );
  dismissToasts(LOAD_TOPIC);
  return true;
}

/**
 * Opens the saved dashboard `id`, reading the (cached) dashboards list. A dashboard missing from
 * the list or a failed list call ends in 'Load Failed' / 'Failed to load dashboard'.
 */
export async function openSavedDashboardById(
  queryClient: QueryClient,
  id: string,
): Promise<boolean> {
  try {
    const list = await queryClient.fetchQuery(dashboardsQuery());
    const dashboard = list.find((d) => d.id === id);
    if (!dashboard) throw new Error(`dashboard ${id} is not in the list`);
    return openSavedDashboard(dashboard);
  } catch {
    toast({
      variant: 'destructive',
      title: LOAD_TEXTS.title,
      description: LOAD_TEXTS.failed,
      topic: LOAD_TOPIC,
    });
    return false;
  }
}
