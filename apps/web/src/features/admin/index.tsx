/**
 * The admin screen (spec sections 2, 4, 5, 8), rendered at route `/admin`. Its code is
 * loaded lazily; the unlock state module is imported here so that its logout cleanup is
 * registered from the start (spec section 4: "logout clears it").
 */
import { LazyScreen, lazyScreen } from '@/components/lazy-screen';
import './admin-session';

const admin = lazyScreen(
  () => import('./admin-page'),
  (m) => m.default,
);

/** Route `/admin`. */
export function AdminPage() {
  return (
    <LazyScreen what="admin screen" loadingText="Loading...">
      <admin.Screen />
    </LazyScreen>
  );
}
