import { AlertTriangle, Inbox, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { serverMessage } from '@/lib/api';

/*
 * The three states of a list of any screen besides its rows: loading, empty, failed to load
 * (with a retry). One look for every list of the app.
 */

/** Rows of grey bars while a list loads. */
export function LoadingRows({ rows = 3 }: { rows?: number }) {
  return (
    <div className="flex flex-col gap-2" role="status" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-9 w-full" />
      ))}
    </div>
  );
}

/** A list with nothing in it yet. */
export function EmptyState({ text }: { text: string }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
      <Inbox className="size-5" />
      {text}
    </div>
  );
}

/** A list that failed to load: the server's message and a retry button. */
export function ErrorState({
  error,
  what,
  onRetry,
}: {
  error: unknown;
  what: string;
  onRetry: () => void;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-6 text-center text-sm"
    >
      <AlertTriangle className="size-5 text-destructive" />
      <p>
        Failed to load {what}:{' '}
        <span className="text-muted-foreground">{serverMessage(error, 'please try again')}</span>
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCw /> retry
      </Button>
    </div>
  );
}
