/**
 * The admin screen (docs/product.md#admin-screen, #states-and-transitions, #validation-rules and
 * #error-catalogue), rendered at route `/admin`. Its code is loaded lazily; the unlock state module
 * is imported here so that its logout cleanup is registered from the start
 * (docs/product.md#states-and-transitions: "logout clears it").
 */
import { lazyScreen } from '@/components/lazy-screen';
import './admin-session';

/** Route `/admin`. */
export const AdminPage = lazyScreen(
  () => import('./admin-page'),
  (m) => m.default,
  { what: 'admin screen' },
).Screen;
