import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Database, Loader2, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { LoadMore } from '@/components/load-more';
import { serverMessage } from '@/lib/api';
import { pageItems } from '@/lib/pages';
import { adminCacheQuery, adminKeys, clearAppCache } from './admin.api';
import { EmptyState, ErrorState, LoadingRows } from '@/components/list-states';
import { AdminTime } from './section-state';

/**
 * Cache Management (docs/product.md#admin-screen): the apps with cached store data and a Clear
 * Cache button per app; the next audit of a cleared app fetches the store again.
 */
export function CacheCard({ adminCode }: { adminCode: string }) {
  const queryClient = useQueryClient();
  const cache = useInfiniteQuery(adminCacheQuery(adminCode));
  const apps = pageItems(cache.data, (page) => page);

  const clear = useMutation({
    mutationFn: (appId: string) => clearAppCache(adminCode, appId),
    onSuccess: async (cleared, appId) => {
      toast({
        title: 'Cache Cleared',
        description: `Removed ${cleared} cached ${cleared === 1 ? 'snapshot' : 'snapshots'} of app ${appId}.`,
      });
      await queryClient.invalidateQueries({ queryKey: adminKeys.cache });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Clear Cache Failed',
        description: serverMessage(err, 'Failed to clear the cache'),
      }),
  });

  return (
    <Card data-testid="cache-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Database className="size-4 text-primary" /> Cache Management
        </CardTitle>
        <CardDescription>
          Store data cached per app. Clearing it makes the next audit of that app read the store
          again.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {cache.isPending ? (
          <LoadingRows />
        ) : cache.isError ? (
          <ErrorState error={cache.error} what="the cache" onRetry={() => void cache.refetch()} />
        ) : !apps?.length ? (
          <EmptyState text="No cached apps." />
        ) : (
          <>
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>App</TableHead>
                  <TableHead className="text-right">Snapshots</TableHead>
                  <TableHead className="text-right">Action</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {apps.map((app) => {
                  const busy = clear.isPending && clear.variables === app.appId;
                  return (
                    <TableRow
                      key={`${app.appId}-${app.storefront}`}
                      data-testid={`cache-row-${app.appId}`}
                    >
                      <TableCell className="max-w-60 whitespace-normal">
                        <p className="truncate font-medium" title={app.appName ?? undefined}>
                          {app.appName ?? 'Unknown app'}
                        </p>
                        <p className="text-xs text-muted-foreground">
                          id{app.appId} · {app.storefront.toUpperCase()} · fetched{' '}
                          <AdminTime iso={app.lastFetchedAt} />
                        </p>
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{app.snapshots}</TableCell>
                      <TableCell className="text-right">
                        <Button
                          variant="outline"
                          size="sm"
                          onClick={() => clear.mutate(app.appId)}
                          disabled={clear.isPending}
                          focusableWhenDisabled
                          aria-label={`Clear Cache of ${app.appName ?? app.appId}`}
                        >
                          {busy ? <Loader2 className="animate-spin" /> : <Trash2 />}
                          Clear Cache
                        </Button>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
            <LoadMore query={cache} what="cached apps" shown={apps.length} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
