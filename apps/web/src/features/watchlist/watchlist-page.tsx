/**
 * Route `/watchlist`: the listings the user watches (their own apps and competitors), a form to
 * watch another one, and per listing its last read, its last change, the reason the last read
 * failed, a refresh button, the way to its timeline and to its keywords, and removal.
 */
import type { TWatchItem, TWatchRole } from '@aso/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  AlertTriangleIcon,
  EyeIcon,
  HistoryIcon,
  Loader2Icon,
  RefreshCwIcon,
  TagsIcon,
  Trash2Icon,
} from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadMore } from '@/components/load-more';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { EmptyState, ErrorState, LoadingRows } from '@/components/list-states';
import { preloadKeywords } from '@/features/keywords';
import { keywordsPath } from '@/features/keywords/keywords.paths';
import { AppIcon } from '@/features/results/app-icon';
import { serverMessage } from '@/lib/api';
import { pageItems } from '@/lib/pages';
import {
  NOTIFICATIONS_KEY,
  WATCHLIST_KEY,
  refreshWatchItem,
  unwatchApp,
  watchApp,
  watchlistPagesQuery,
} from './watch.api';
import {
  ROLE_LABELS,
  formatDateTime,
  storefrontName,
  timelinePath,
  watchItemName,
} from './watch.helpers';
import { WatchScreen } from './watch-screen';

/** The watchlist screen. */
export function WatchlistPage() {
  const list = useInfiniteQuery(watchlistPagesQuery());
  const items = pageItems(list.data, (page) => page);
  return (
    <WatchScreen
      icon={EyeIcon}
      title="Watchlist"
      description="Listings read from the App Store every day; each change of a title, subtitle, screenshots, description and more shows on the app's timeline."
      testId="watchlist-page"
    >
      <WatchForm />
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">
            Watched listings{items ? ` (${items.length}${list.hasNextPage ? '+' : ''})` : ''}
          </CardTitle>
          <CardDescription>Your own apps and your competitors, per storefront.</CardDescription>
        </CardHeader>
        <CardContent>
          {list.isPending ? (
            <LoadingRows rows={3} />
          ) : list.isError ? (
            <ErrorState
              error={list.error}
              what="the watchlist"
              onRetry={() => void list.refetch()}
            />
          ) : !items?.length ? (
            <EmptyState text="You are not watching any listing yet. Paste an App Store link above, or use 'watch' on an audit's results." />
          ) : (
            <>
              <ul className="flex flex-col divide-y" data-testid="watchlist">
                {items.map((item) => (
                  <WatchRow key={item.id} item={item} />
                ))}
              </ul>
              <LoadMore query={list} what="watched listings" shown={items.length} />
            </>
          )}
        </CardContent>
      </Card>
    </WatchScreen>
  );
}

function WatchForm() {
  const queryClient = useQueryClient();
  const urlId = useId();
  const errorId = useId();
  const [url, setUrl] = useState('');
  const [role, setRole] = useState<TWatchRole>('mine');
  const [error, setError] = useState<string | null>(null);
  const watch = useMutation({
    mutationFn: watchApp,
    onSuccess: (item) => {
      setUrl('');
      setError(null);
      toast({
        title: 'Watching',
        description: `${watchItemName(item)} (${storefrontName(item.storefront)}) is on your watchlist.`,
      });
      void queryClient.invalidateQueries({ queryKey: WATCHLIST_KEY });
    },
    onError: (err) =>
      setError(serverMessage(err, 'Could not watch this listing. Please try again.')),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (url.trim() === '') {
      setError('Paste the App Store link of the app to watch.');
      return;
    }
    watch.mutate({ appStoreUrl: url.trim(), role });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Watch a listing</CardTitle>
        <CardDescription>
          The storefront comes from the link (apps.apple.com/gb/... is the United Kingdom).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate data-testid="watch-form">
          <div className="flex flex-col gap-2">
            <Label htmlFor={urlId}>App Store link</Label>
            <Input
              id={urlId}
              type="url"
              inputMode="url"
              placeholder="https://apps.apple.com/us/app/.../id123456789"
              value={url}
              onChange={(e) => {
                setUrl(e.target.value);
                setError(null);
              }}
              aria-invalid={error !== null}
              aria-describedby={error ? errorId : undefined}
            />
            {error && (
              <p
                id={errorId}
                role="alert"
                className="text-sm text-destructive"
                data-testid="watch-error"
              >
                {error}
              </p>
            )}
          </div>
          <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-2 text-sm font-medium">Whose app is it?</legend>
              <div className="inline-flex w-fit rounded-md border p-0.5">
                {(['mine', 'competitor'] as const).map((r) => (
                  <label
                    key={r}
                    className="cursor-pointer rounded px-3 py-1.5 text-sm has-[:checked]:bg-primary has-[:checked]:text-primary-foreground has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50"
                  >
                    <input
                      type="radio"
                      name="watch-role"
                      value={r}
                      checked={role === r}
                      onChange={() => setRole(r)}
                      className="sr-only"
                    />
                    {ROLE_LABELS[r]}
                  </label>
                ))}
              </div>
            </fieldset>
            <Button
              type="submit"
              focusableWhenDisabled
              disabled={watch.isPending}
              data-testid="watch-submit"
            >
              {watch.isPending ? <Loader2Icon className="animate-spin" /> : <EyeIcon />}
              watch
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function WatchRow({ item }: { item: TWatchItem }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const name = watchItemName(item);
  const refresh = useMutation({
    mutationFn: () => refreshWatchItem(item.id),
    onSuccess: () => {
      toast({
        title: 'Refresh queued',
        description: `${name} will be read from the App Store in a moment.`,
      });
      // The read takes a few seconds: look again then, and once more a little later (the
      // listing, and the notifications a change raises).
      for (const ms of [5_000, 15_000]) {
        setTimeout(() => {
          void queryClient.invalidateQueries({ queryKey: WATCHLIST_KEY });
          void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
        }, ms);
      }
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Refresh Failed',
        description: serverMessage(err, 'Could not queue the refresh. Please try again.'),
      }),
  });
  const remove = useMutation({
    mutationFn: () => unwatchApp(item.id),
    onSuccess: () => {
      toast({ title: 'Removed', description: `${name} is no longer watched.` });
      void queryClient.invalidateQueries({ queryKey: WATCHLIST_KEY });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Remove Failed',
        description: serverMessage(err, 'Could not remove it. Please try again.'),
      }),
  });
  return (
    <li
      className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0"
      data-testid="watch-item"
      data-app-id={item.appId}
    >
      <div className="flex items-start gap-3">
        <AppIcon src={item.iconUrl} name={item.appName} className="size-12 rounded-[22%]" />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <Link
              to={timelinePath(item)}
              className="font-medium break-words hover:underline"
              data-testid="watch-item-name"
            >
              {name}
            </Link>
            <Badge variant={item.role === 'mine' ? 'default' : 'secondary'}>
              {ROLE_LABELS[item.role]}
            </Badge>
            <Badge variant="outline" title={storefrontName(item.storefront)}>
              {item.storefront.toUpperCase()}
              {item.language ? ` · ${item.language}` : ''}
            </Badge>
          </div>
          <p className="mt-1 text-xs text-muted-foreground" data-testid="watch-item-checked">
            {item.lastCheckedAt
              ? `Last read ${formatDateTime(item.lastCheckedAt)}`
              : 'Not read yet: the first read is on its way.'}
            {' · '}
            {item.lastChangeAt
              ? `last change found ${formatDateTime(item.lastChangeAt)}`
              : 'no change found yet'}
          </p>
        </div>
      </div>
      {item.lastError && (
        <p
          className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm"
          data-testid="watch-item-error"
        >
          <AlertTriangleIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
          <span>
            <span className="font-medium">The last read failed:</span> {item.lastError}
          </span>
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <Link to={timelinePath(item)} aria-label={`Timeline of ${name}`}>
            <HistoryIcon /> timeline
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link
            to={keywordsPath(item.appId, item.storefront)}
            aria-label={`Keywords of ${name}`}
            onPointerEnter={preloadKeywords}
            onFocus={preloadKeywords}
            data-testid="watch-item-keywords"
          >
            <TagsIcon /> keywords
          </Link>
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => refresh.mutate()}
          focusableWhenDisabled
          disabled={refresh.isPending}
          aria-label={`Refresh ${name}`}
          data-testid="watch-item-refresh"
        >
          {refresh.isPending ? <Loader2Icon className="animate-spin" /> : <RefreshCwIcon />} refresh
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => setConfirming(true)}
          focusableWhenDisabled
          disabled={remove.isPending}
          aria-label={`Remove ${name}`}
          data-testid="watch-item-remove"
        >
          <Trash2Icon /> remove
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        description={
          <>
            {name} ({storefrontName(item.storefront)}) will no longer be read from the App Store,
            and its changes will no longer notify you.
          </>
        }
        confirmLabel="Remove"
        onConfirm={() => remove.mutate()}
      />
    </li>
  );
}
