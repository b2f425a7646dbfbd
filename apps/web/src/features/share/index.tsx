/** The shared audit page (`/s/:token`), loaded lazily: only people opening a link fetch it. */
import { lazyScreen } from '@/components/lazy-screen';

/** Route `/s/:token`. */
export const SharedScreen = lazyScreen(
  () => import('./shared-page'),
  (m) => m.SharedPage,
  { what: 'shared audit', loadingText: 'Loading the audit...' },
).Screen;
