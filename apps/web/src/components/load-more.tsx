/**
 * "Load more" under a paged list (docs/product.md#lists-and-pages): shown while the list has a
 * next page; busy while it loads; a page that failed says why and offers to try again, the
 * items already shown staying. A page loaded is announced to screen readers, and the focus
 * stays on the button, so the next press loads the page after.
 */
import { ChevronDownIcon, Loader2Icon } from 'lucide-react';
import { announce } from '@/components/ui/live-announcer';
import { Button } from '@/components/ui/button';
import { serverMessage } from '@/lib/api';
import { cn } from '@/lib/utils';

/** What {@link LoadMore} reads of an infinite query. */
export interface TLoadMoreQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  /** Resolves once the page arrived or failed (TanStack Query does not reject). */
  fetchNextPage: () => Promise<{ isError: boolean }>;
}

/** Props of {@link LoadMore}. */
export interface TLoadMoreProps {
  query: TLoadMoreQuery;
  /** What the list holds, plural ('users', 'share links'): in the button and the messages. */
  what: string;
  /** Items shown now (in the button's accessible name). */
  shown: number;
  /** `sidebar`: a full-width quiet row for the sidebar's lists; default a centred button. */
  appearance?: 'card' | 'sidebar';
  className?: string;
}

/** The button (and the error of a failed page) of a paged list; nothing on its last page. */
export function LoadMore({ query, what, shown, appearance = 'card', className }: TLoadMoreProps) {
  if (!query.hasNextPage && !query.isFetchNextPageError) return null;
  const sidebar = appearance === 'sidebar';
  const more = async () => {
    const result = await query.fetchNextPage();
    if (!result.isError) announce(`More ${what} loaded.`);
  };
  return (
    <div
      className={cn(
        'flex flex-col gap-1.5',
        sidebar ? 'px-2 py-1' : 'items-center pt-3',
        className,
      )}
      data-testid="load-more"
    >
      {query.isFetchNextPageError && (
        <p role="alert" className={cn('text-destructive', sidebar ? 'text-xs' : 'text-sm')}>
          Could not load more {what}: {serverMessage(query.error, 'please try again')}
        </p>
      )}
      <Button
        variant={sidebar ? 'ghost' : 'outline'}
        size="sm"
        className={sidebar ? 'w-full justify-start text-sidebar-muted-foreground' : undefined}
        onClick={() => void more()}
        disabled={query.isFetchingNextPage}
        focusableWhenDisabled
        aria-label={`Load more ${what} (${shown} shown)`}
      >
        {query.isFetchingNextPage ? <Loader2Icon className="animate-spin" /> : <ChevronDownIcon />}
        {query.isFetchingNextPage
          ? 'Loading…'
          : query.isFetchNextPageError
            ? 'Try again'
            : 'Load more'}
      </Button>
    </div>
  );
}
