/**
 * The print pages (`/print/audit/:id`, `/print/dashboard/:id`), opened by the render worker
 * only: loaded lazily so no other screen carries them.
 */
import { LazyScreen, lazyScreen } from '@/components/lazy-screen';

const printAudit = lazyScreen(
  () => import('./print-pages'),
  (m) => m.PrintAuditPage,
);
const printDashboard = lazyScreen(
  () => import('./print-pages'),
  (m) => m.PrintDashboardPage,
);

/** Route `/print/audit/:id`. */
export function PrintAuditScreen() {
  return (
    <LazyScreen what="audit report" loadingText="Loading...">
      <printAudit.Screen />
    </LazyScreen>
  );
}

/** Route `/print/dashboard/:id`. */
export function PrintDashboardScreen() {
  return (
    <LazyScreen what="dashboard report" loadingText="Loading...">
      <printDashboard.Screen />
    </LazyScreen>
  );
}
