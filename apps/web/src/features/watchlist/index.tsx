/**
 * Watched listings: the watchlist screen, a watched app's timeline (loaded lazily with
 * echarts) and the alerts screen. The results page uses `WatchButton`; the sidebar reads the
 * unread count through `notificationsQuery`.
 */
import { lazy } from 'react';
import { LazyScreen } from '@/features/dashboard/lazy-screen';

const TimelinePage = lazy(() => import('./timeline-page'));

/** Route `/apps/:appId?storefront=`. */
export function TimelineScreen() {
  return <LazyScreen screen={TimelinePage} what="timeline" loadingText="Loading the timeline..." />;
}

export { AlertsPage } from './alerts-page';
export { WatchlistPage } from './watchlist-page';
