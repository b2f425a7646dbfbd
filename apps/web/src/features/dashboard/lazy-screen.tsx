import { AlertTriangle, Loader2 } from 'lucide-react';
import { Component, Suspense, type ComponentType, type ReactNode } from 'react';
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

/** Renders the lazily loaded `Screen` with a spinner while it loads and a reload offer if it fails. */
export function LazyScreen({
  screen: Screen,
  what,
  loadingText,
}: {
  screen: ComponentType;
  what: string;
  loadingText: string;
}) {
  return (
    <ScreenBoundary what={what}>
      <Suspense
        fallback={
          <div className="flex h-64 items-center justify-center gap-2 text-sm text-muted-foreground">
            <Loader2 className="size-4 animate-spin" /> {loadingText}
          </div>
        }
      >
        <Screen />
      </Suspense>
    </ScreenBoundary>
  );
}
