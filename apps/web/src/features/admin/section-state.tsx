import { AlertTriangle, Inbox, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { formatDateTime } from './admin-form.validation';

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

/** Copies `text` to the clipboard and says so in a toast. */
export async function copyToClipboard(text: string, label = 'Code'): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied', description: `${label} ${text} copied to the clipboard.` });
  } catch {
    toast({
      variant: 'destructive',
      title: 'Copy Failed',
      description: `Could not copy; select the ${label.toLowerCase()} and copy it by hand.`,
    });
  }
}

/**
 * A date and time of the admin tables ('Dec 3, 2026, 12:27 PM'), kept on one line: a table
 * column narrows by wrapping words, and a time split over two lines reads as two values.
 */
export function AdminTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} className="whitespace-nowrap">
      {formatDateTime(iso)}
    </time>
  );
}
