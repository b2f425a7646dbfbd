/**
 * Opening a saved dashboard (spec sections 4 and 8: "Loading a saved dashboard with a
 * downloadId opens it; without one the message 'Dashboard data is incomplete' is shown";
 * 'Load Failed' / 'Failed to load dashboard').
 */
import type { QueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { dashboardConfig, dashboardsQuery, type TSavedDashboard } from './dashboard.api';
import { openDataset } from './dashboard.store';

/** Toast texts of spec section 8 ("Load fails"). */
export const LOAD_TEXTS = {
  title: 'Load Failed',
  incomplete: 'Dashboard data is incomplete',
  failed: 'Failed to load dashboard',
} as const;

/**
 * Opens `dashboard`'s dataset in the dashboard tab. Returns false (after the 'Load Failed'
 * toast) when its config names no dataset.
 */
export function openSavedDashboard(dashboard: TSavedDashboard): boolean {
  const config = dashboardConfig(dashboard);
  if (!config) {
    toast({ variant: 'destructive', title: LOAD_TEXTS.title, description: LOAD_TEXTS.incomplete });
    return false;
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
    toast({ variant: 'destructive', title: LOAD_TEXTS.title, description: LOAD_TEXTS.failed });
    return false;
  }
}
