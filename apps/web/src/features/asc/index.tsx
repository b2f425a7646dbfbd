/**
 * App Store Connect: the settings screen (keys, apps, imports), loaded lazily, and the
 * dashboard's imported-data view (`./asc-dashboard`, loaded with the dashboard tab).
 */
import { lazyScreen } from '@/components/lazy-screen';

const settings = lazyScreen(
  () => import('./asc-settings-page'),
  (m) => m.AscSettingsPage,
  { what: 'App Store Connect settings' },
);

/** Route `/settings/app-store-connect`. */
export const AscSettingsScreen = settings.Screen;
/** Starts loading the screen's code (on intent to open it). */
export const preloadAscSettings = settings.preload;
