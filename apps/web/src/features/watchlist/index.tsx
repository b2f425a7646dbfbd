/**
 * Watched listings: the watchlist screen, a watched app's timeline (with echarts) and the
 * alerts screen, each loaded lazily. The results page uses `WatchButton`; the sidebar reads the
 * unread count through `notificationsQuery`.
 */
import { lazyScreen } from '@/components/lazy-screen';

const watchlist = lazyScreen(
  () => import('./watchlist-page'),
  (m) => m.WatchlistPage,
  { what: 'watchlist' },
);
const alerts = lazyScreen(
  () => import('./alerts-page'),
  (m) => m.AlertsPage,
  { what: 'alerts screen' },
);

/** Route `/watchlist`. */
export const WatchlistScreen = watchlist.Screen;
/** Starts loading the watchlist screen's code (on intent to open it). */
export const preloadWatchlist = watchlist.preload;
/** Route `/alerts`. */
export const AlertsScreen = alerts.Screen;
/** Starts loading the alerts screen's code (on intent to open it). */
export const preloadAlerts = alerts.preload;
/** Route `/apps/:appId?storefront=`. */
export const TimelineScreen = lazyScreen(
  () => import('./timeline-page'),
  (m) => m.default,
  { what: 'timeline', loadingText: 'Loading the timeline...' },
).Screen;
