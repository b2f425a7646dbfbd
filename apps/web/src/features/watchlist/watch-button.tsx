/**
 * 'watch' on an audit's results: puts the listing of an App Store URL (its storefront) on the
 * watchlist as the user's app or a competitor. Once watched it becomes a link to the timeline.
 */
import { parseAppStoreUrl } from '@aso/appstore';
import type { TWatchRole } from '@aso/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EyeIcon, HistoryIcon, Loader2Icon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { WATCHLIST_KEY, watchApp, watchlistQuery } from './watch.api';
import { storefrontName, timelinePath } from './watch.helpers';

/** Props of {@link WatchButton}. */
export interface TWatchButtonProps {
  appStoreUrl: string;
  role: TWatchRole;
  /** The app's name, for the button's accessible name and the toast. */
  appName: string | null;
  size?: 'sm' | 'default';
}

/** The watch button of one listing. Renders nothing for a URL that names no app. */
export function WatchButton({ appStoreUrl, role, appName, size = 'sm' }: TWatchButtonProps) {
  const queryClient = useQueryClient();
  const parsed = parseAppStoreUrl(appStoreUrl);
  const list = useQuery(watchlistQuery());
  const watched = list.data?.find(
    (item) => item.appId === parsed.appId && item.storefront === parsed.storefront,
  );
  const name = appName ?? 'this app';
  const watch = useMutation({
    mutationFn: () => watchApp({ appStoreUrl, role }),
    onSuccess: (item) => {
      toast({
        title: 'Watching',
        description: `${appName ?? 'The app'} (${storefrontName(item.storefront)}) is on your watchlist as ${role === 'mine' ? 'your app' : 'a competitor'}.`,
      });
      void queryClient.invalidateQueries({ queryKey: WATCHLIST_KEY });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Watch Failed',
        description: serverMessage(err, 'Could not watch this listing. Please try again.'),
      }),
  });
  if (parsed.status !== 'valid') return null;
  if (watched) {
    return (
      <Button asChild variant="outline" size={size} data-testid="watch-button" data-watched="true">
        <Link to={timelinePath(watched)} aria-label={`Watching ${name}: open its timeline`}>
          <HistoryIcon /> watching
        </Link>
      </Button>
    );
  }
  return (
    <Button
      variant="outline"
      size={size}
      onClick={() => watch.mutate()}
      focusableWhenDisabled
      disabled={watch.isPending || list.isPending}
      aria-label={`Watch ${name}${role === 'competitor' ? ' as a competitor' : ''}`}
      data-testid="watch-button"
      data-watched="false"
    >
      {watch.isPending ? <Loader2Icon className="animate-spin" /> : <EyeIcon />} watch
    </Button>
  );
}
