/**
 * Route `/settings/app-store-connect`: the user's App Store Connect keys. Add a key (where to
 * create one and which role it needs), or the offline demo's key in one click; per key the apps
 * it sees, per app "import now", the last import's state, progress, error and notice in words,
 * and once imported "open dashboard"; delete a key. The list is read again every two seconds while an import is queued or running.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { PlugIcon } from 'lucide-react';
import { LoadMore } from '@/components/load-more';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, ErrorState, LoadingRows } from '@/components/list-states';
import { WatchScreen } from '@/features/watchlist/watch-screen';
import { pageItems } from '@/lib/pages';
import { IMPORT_POLL_MS, ascConnectionPagesQuery } from './asc.api';
import { AddKeyCard } from './add-key-card';
import { isOpen, ConnectionRow } from './asc-connection-row';

/** The App Store Connect settings screen. */
export function AscSettingsPage() {
  const list = useInfiniteQuery({
    ...ascConnectionPagesQuery(),
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.data.some((c) => c.imports?.some(isOpen)))
        ? IMPORT_POLL_MS
        : false,
  });
  const connections = pageItems(list.data, (page) => page);
  return (
    <WatchScreen
      icon={PlugIcon}
      title="App Store Connect"
      description="Connect an App Store Connect API key: impressions, product page views and downloads by source type, territory and device are imported every day, no exports to upload."
      testId="asc-page"
    >
      <AddKeyCard />
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">
            Connected keys
            {connections ? ` (${connections.length}${list.hasNextPage ? '+' : ''})` : ''}
          </CardTitle>
          <CardDescription>
            The apps each key sees, and each app&apos;s last import.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {list.isPending ? (
            <LoadingRows rows={2} />
          ) : list.isError ? (
            <ErrorState
              error={list.error}
              what="your App Store Connect keys"
              onRetry={() => void list.refetch()}
            />
          ) : !connections?.length ? (
            <EmptyState text="No key connected yet. Add one above to import your App Store analytics." />
          ) : (
            <>
              <ul className="flex flex-col divide-y" data-testid="asc-connections">
                {connections.map((c) => (
                  <ConnectionRow key={c.id} connection={c} />
                ))}
              </ul>
              <LoadMore query={list} what="keys" shown={connections.length} />
            </>
          )}
        </CardContent>
      </Card>
    </WatchScreen>
  );
}
