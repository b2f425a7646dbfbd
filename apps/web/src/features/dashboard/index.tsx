/**
 * The dashboard feature (spec sections 2, 4, 5, 8, 9). The shell renders
 * `<DashboardTab />` as the main screen's dashboard tab and `<SavedDashboardsList />` in the
 * sidebar's saved dashboards group. The tab's content (and with it echarts) is loaded lazily,
 * so neither is in the first-load bundle.
 */
import { LazyScreen, lazyScreen } from '@/components/lazy-screen';

const dashboard = lazyScreen(
  () => import('./dashboard-tab'),
  (m) => m.default,
);

/** Starts loading the dashboard tab's code (on intent to open it). */
export const preloadDashboard = dashboard.preload;

/** The main screen's dashboard tab. */
export function DashboardTab() {
  return (
    <LazyScreen what="dashboard" loadingText="Loading dashboard...">
      <dashboard.Screen />
    </LazyScreen>
  );
}

export { SavedDashboardsList } from './saved-dashboards-list';
