/**
 * The app's toaster, loaded with the first toast: most page views show none, so the first load
 * does not carry the toast library. The toast store (`./use-toast`) is plain and always there;
 * once a toast is queued the toaster's code is fetched and stays mounted, so later toasts, F8
 * and the focus handling behave as with a toaster mounted from the start.
 */
import { lazy, Suspense, useState } from 'react';
import { useToast } from './use-toast';

const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

/** Mounts {@link Toaster} once the first toast is queued; mount once at the app root. */
export function DeferredToaster() {
  const { toasts } = useToast();
  const [wanted, setWanted] = useState(false);
  if (!wanted && toasts.length > 0) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
