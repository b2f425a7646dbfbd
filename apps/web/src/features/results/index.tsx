/**
 * An audit's result (spec section 2 "Results view" and "Standalone result page"), loaded
 * lazily: the audit tab shows it when an audit completes or a saved audit is opened, the
 * route `/results/:id` and the print page show it on their own.
 */
import { LazyScreen, lazyScreen } from '@/components/lazy-screen';
import type { AuditResultProps } from './audit-result';

const result = lazyScreen(
  () => import('./audit-result'),
  (m) => m.AuditResult,
);
const resultPage = lazyScreen(
  () => import('./result-page'),
  (m) => m.ResultPage,
);

/** Starts loading the result view's code (an audit started, a saved audit hovered). */
export const preloadAuditResult = result.preload;

/** The result of one audit, see `./audit-result`. */
export function LazyAuditResult(props: AuditResultProps) {
  return (
    <LazyScreen what="audit result" loadingText="Loading the result...">
      <result.Screen {...props} />
    </LazyScreen>
  );
}

/** Route `/results/:id`. */
export function ResultScreen() {
  return (
    <LazyScreen what="result page" loadingText="Loading the result...">
      <resultPage.Screen />
    </LazyScreen>
  );
}
