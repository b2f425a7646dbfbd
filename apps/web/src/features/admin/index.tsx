/**
 * The admin screen (issue 8; spec sections 2, 4, 5, 8), rendered at route `/admin`. Its code is
 * loaded lazily; the unlock state module is imported here so that its logout cleanup is
 * registered from the start (spec section 4: "logout clears it").
 */
import { Loader2 } from 'lucide-react';
import { Suspense, lazy } from 'react';
import './admin-session';

const AdminPageContent = lazy(() => import('./admin-page'));

/** Route `/admin`. */
export function AdminPage() {
  return (
    <Suspense
      fallback={
        <div className="flex h-64 items-center justify-center gap-2 text-sm text-muted-foreground">
          <Loader2 className="size-4 animate-spin" /> Loading...
        </div>
      }
    >
      <AdminPageContent />
    </Suspense>
  );
}
