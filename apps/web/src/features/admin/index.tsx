/**
 * The admin screen (spec sections 2, 4, 5, 8), rendered at route `/admin`. Its code is
 * loaded lazily; the unlock state module is imported here so that its logout cleanup is
 * registered from the start (spec section 4: "logout clears it").
 */
import { lazy } from 'react';
import { LazyScreen } from '@/features/dashboard/lazy-screen';
import './admin-session';

const AdminPageContent = lazy(() => import('./admin-page'));

/** Route `/admin`. */
export function AdminPage() {
  return <LazyScreen screen={AdminPageContent} what="admin screen" loadingText="Loading..." />;
}
