/**
 * The dashboard's watched listing (see `resolveWatchedApp`) and that listing's changes.
 */
import { impactEventsOfChanges } from '@aso/analytics';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { historyQuery, watchlistQuery } from '@/features/watchlist/watch.api';
import { resolveWatchedApp } from './dashboard-app.rules';
import { rememberedWatchedApp, type TOpenDashboard } from './dashboard.store';

/** The dashboard's watched listing, its history and its listing changes as impact events. */
export function useDashboardChanges(current: TOpenDashboard) {
  const watchlist = useQuery(watchlistQuery());
  const resolved = useMemo(
    () =>
      resolveWatchedApp(current, watchlist.data ?? [], rememberedWatchedApp(current.downloadId)),
    [current, watchlist.data],
  );
  const item = resolved.item;
  const history = useQuery({
    ...historyQuery(item?.appId ?? '', item?.storefront ?? 'us'),
    enabled: item !== null,
  });
  const events = useMemo(
    () => (history.data ? impactEventsOfChanges(history.data.changes) : []),
    [history.data],
  );
  return { watchlist, ...resolved, history, events };
}

/** What {@link useDashboardChanges} gives. */
export type TDashboardChanges = ReturnType<typeof useDashboardChanges>;
