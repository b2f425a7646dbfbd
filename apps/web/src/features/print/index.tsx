/**
 * The print pages (`/print/audit/:id`, `/print/dashboard/:id`), opened by the render worker
 * only: loaded lazily so no other screen carries them.
 */
import { lazyScreen } from '@/components/lazy-screen';

const load = () => import('./print-pages');

/** Route `/print/audit/:id`. */
export const PrintAuditScreen = lazyScreen(load, (m) => m.PrintAuditPage, {
  what: 'audit report',
}).Screen;
/** Route `/print/dashboard/:id`. */
export const PrintDashboardScreen = lazyScreen(load, (m) => m.PrintDashboardPage, {
  what: 'dashboard report',
}).Screen;
