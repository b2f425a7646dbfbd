/**
 * The admin screen (spec sections 2, 4, 5, 8), rendered at route `/admin`. Its code is
 * loaded lazily; the unlock state module is imported here so that its logout cleanup is
 * registered from the start (spec section 4: "logout clears it").
 */
import { lazyScreen } from '@/components/lazy-screen';
import './admin-session';

/** Route `/admin`. */
export const AdminPage = lazyScreen(
  () => import('./admin-page'),
  (m) => m.default,
  { what: 'admin screen' },
).Screen;
