/**
 * An audit's result (docs/product.md#results-view and "Standalone result page"), loaded
 * lazily: the audit tab shows it when an audit completes or a saved audit is opened, the
 * route `/results/:id` shows it on its own page.
 */
import { lazyScreen } from '@/components/lazy-screen';

const result = lazyScreen(
  () => import('./audit-result'),
  (m) => m.AuditResult,
  { what: 'audit result', loadingText: 'Loading the result...' },
);

/** The result of one audit, see `./audit-result`. */
export const LazyAuditResult = result.Screen;
/** Starts loading the result view's code (an audit started, a saved audit hovered). */
export const preloadAuditResult = result.preload;
/** Route `/results/:id`. */
export const ResultScreen = lazyScreen(
  () => import('./result-page'),
  (m) => m.ResultPage,
  { what: 'result page', loadingText: 'Loading the result...' },
).Screen;
