/**
 * The dashboard feature (issue 8; spec sections 2, 4, 5, 8, 9). The shell renders
 * `<DashboardTab />` as the main screen's dashboard tab and `<SavedDashboardsList />` in the
 * sidebar's saved dashboards group. The tab's content (and with it echarts) is loaded lazily,
 * so neither is in the first-load bundle.
 */
import { Loader2 } from 'lucide-react';
import { Suspense, lazy } from 'react';

const DashboardTabContent = lazy(() => import('./dashboard-tab'));

/** The main screen's dashboard tab. */
export function DashboardTab() {
  return (
    <Suspense
      fallback={
        <div className="flex h-64 items-center justify-center gap-2 text-sm text-muted-foreground">
          <Loader2 className="size-4 animate-spin" /> Loading dashboard...
        </div>
      }
    >
      <DashboardTabContent />
    </Suspense>
  );
}

export { SavedDashboardsList } from './saved-dashboards-list';
