/**
 * Screens whose code is loaded on demand (route-level code splitting), so the first load carries
 * only the sign-in page and the main screen. A screen is declared once with {@link lazyScreen}:
 * its `Screen` for the route (in a quiet fallback and a reload offer), its `preload` for the
 * links leading to it.
 */
import { AlertTriangle, Loader2 } from 'lucide-react';
import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';

interface BoundaryState {
  failed: boolean;
}

/**
 * Catches a lazily loaded screen that fails to load or render (e.g. its chunk is gone after a
 * redeploy) and offers a reload instead of a blank page.
 */
class ScreenBoundary extends Component<{ children: ReactNode; what: string }, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(`the ${this.props.what} failed to load`, error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="flex h-64 flex-col items-center justify-center gap-3 text-sm">
        <AlertTriangle className="size-5 text-destructive" />
        <p>The {this.props.what} could not be loaded.</p>
        <Button variant="outline" size="sm" onClick={() => window.location.reload()}>
          reload the page
        </Button>
      </div>
    );
  }
}

/**
 * What shows while a screen's code loads: the screen's area, empty at first, so a load that is
 * quick (a cached or preloaded chunk) does not flash anything; the spinner and its text fade in
 * only after 400 ms. It takes no focus: the screen focuses its own heading when it mounts.
 */
function QuietFallback({ text }: { text: string }) {
  return (
    <div className="flex h-64 items-center justify-center" aria-busy="true">
      <div className="flex animate-fade-in items-center gap-2 text-sm text-muted-foreground [animation-delay:400ms] [animation-fill-mode:both]">
        <Loader2 className="size-4 animate-spin" aria-hidden /> <span role="status">{text}</span>
      </div>
    </div>
  );
}

/**
 * Renders `children` (a lazily loaded screen's element) with a quiet fallback while its code
 * loads and a reload offer if it fails; `what` names the screen in that offer.
 */
function LazyScreen({
  children,
  what,
  loadingText,
}: {
  children: ReactNode;
  what: string;
  loadingText: string;
}) {
  return (
    <ScreenBoundary what={what}>
      <Suspense fallback={<QuietFallback text={loadingText} />}>{children}</Suspense>
    </ScreenBoundary>
  );
}

/** A screen loaded on demand: the component to render and a preload for the links leading to it. */
export interface TLazyScreen<P extends object = object> {
  /** The screen, with the quiet fallback while its code loads and the reload offer if it fails. */
  Screen: (props: P) => ReactNode;
  /** Starts fetching the screen's code (on hover or focus of a link to it); safe to call often. */
  preload: () => void;
}

/**
 * Declares a screen loaded on demand: `load` is the dynamic `import()` of its module, `pick`
 * takes the component from it; `what` names it in the reload offer and `loadingText` is what
 * the fallback says. The import runs once (the first `preload` or render); a failed import is
 * retried by the next call.
 */
export function lazyScreen<M, P extends object = object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
  { what, loadingText = 'Loading...' }: { what: string; loadingText?: string },
): TLazyScreen<P> {
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const get = () => {
    pending ??= load().then(
      (m) => ({ default: pick(m) }),
      (err: unknown) => {
        pending = null;
        throw err;
      },
    );
    return pending;
  };
  const Loaded = lazy(get);
  return {
    Screen: (props: P) => (
      <LazyScreen what={what} loadingText={loadingText}>
        <Loaded {...props} />
      </LazyScreen>
    ),
    preload: () => void get().catch(() => undefined),
  };
}
