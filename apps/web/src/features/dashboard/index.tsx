/**
 * The dashboard feature (docs/product.md#dashboard-tab, #states-and-transitions,
 * #dashboard-computation and #error-catalogue). The shell renders `<DashboardTab />` as the main
 * screen's dashboard tab and `<SavedDashboardsList />` in the sidebar's saved dashboards group. The
 * tab's content (and with it echarts) is loaded lazily, so neither is in the first-load bundle.
 */
import { lazyScreen } from '@/components/lazy-screen';

const dashboard = lazyScreen(
  () => import('./dashboard-tab'),
  (m) => m.default,
  { what: 'dashboard', loadingText: 'Loading dashboard...' },
);

/** The main screen's dashboard tab. */
export const DashboardTab = dashboard.Screen;
/** Starts loading the dashboard tab's code (on intent to open it). */
export const preloadDashboard = dashboard.preload;

export { SavedDashboardsList } from './saved-dashboards-list';
