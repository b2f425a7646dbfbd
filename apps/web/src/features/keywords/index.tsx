/**
 * Keywords (docs/product.md#keywords): the start screen and the Keywords page of an app in a
 * storefront, each loaded lazily. The sidebar, the watchlist, the timeline and the results link
 * to them through `keywordsPath` (`./keywords.api`) and preload them on intent.
 */
import { lazyScreen } from '@/components/lazy-screen';

const start = lazyScreen(
  () => import('./keywords-index-page'),
  (m) => m.default,
  { what: 'keywords screen' },
);
const page = lazyScreen(
  () => import('./keywords-page'),
  (m) => m.default,
  { what: 'keywords page', loadingText: 'Loading the keywords...' },
);

/** Route `/keywords`. */
export const KeywordsIndexScreen = start.Screen;
/** Starts loading the keywords start screen's code (on intent to open it). */
export const preloadKeywordsIndex = start.preload;
/** Route `/apps/:appId/keywords?storefront=`. */
export const KeywordsScreen = page.Screen;
/** Starts loading the Keywords page's code (on intent to open it). */
export const preloadKeywords = page.preload;
