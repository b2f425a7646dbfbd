/**
 * Watched listings: the watchlist screen, a watched app's timeline (with echarts) and the
 * alerts screen, each loaded lazily. The results page uses `WatchButton`; the sidebar reads the
 * unread count through `notificationsQuery`.
 */
import { LazyScreen, lazyScreen } from '@/components/lazy-screen';

const timeline = lazyScreen(
  () => import('./timeline-page'),
  (m) => m.default,
);
const watchlist = lazyScreen(
  () => import('./watchlist-page'),
  (m) => m.WatchlistPage,
);
const alerts = lazyScreen(
  () => import('./alerts-page'),
  (m) => m.AlertsPage,
);

/** Starts loading the watchlist screen's code (on intent to open it). */
export const preloadWatchlist = watchlist.preload;
/** Starts loading the alerts screen's code (on intent to open it). */
export const preloadAlerts = alerts.preload;

/** Route `/apps/:appId?storefront=`. */
export function TimelineScreen() {
  return (
    <LazyScreen what="timeline" loadingText="Loading the timeline...">
      <timeline.Screen />
    </LazyScreen>
  );
}

/** Route `/watchlist`. */
export function WatchlistScreen() {
  return (
    <LazyScreen what="watchlist" loadingText="Loading...">
      <watchlist.Screen />
    </LazyScreen>
  );
}

/** Route `/alerts`. */
export function AlertsScreen() {
  return (
    <LazyScreen what="alerts screen" loadingText="Loading...">
      <alerts.Screen />
    </LazyScreen>
  );
}
