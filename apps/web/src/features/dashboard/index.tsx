/**
 * The dashboard feature (spec sections 2, 4, 5, 8, 9). The shell renders
 * `<DashboardTab />` as the main screen's dashboard tab and `<SavedDashboardsList />` in the
 * sidebar's saved dashboards group. The tab's content (and with it echarts) is loaded lazily,
 * so neither is in the first-load bundle.
 */
import { lazy } from 'react';
import { LazyScreen } from './lazy-screen';

const DashboardTabContent = lazy(() => import('./dashboard-tab'));

/** The main screen's dashboard tab. */
export function DashboardTab() {
  return (
    <LazyScreen screen={DashboardTabContent} what="dashboard" loadingText="Loading dashboard..." />
  );
}

export { SavedDashboardsList } from './saved-dashboards-list';
