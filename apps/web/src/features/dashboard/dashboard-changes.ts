/**
 * The dashboard's watched listing (see `resolveWatchedApp` and `resolveWatchedAppById`) and
 * that listing's changes.
 */
import { impactEventsOfChanges } from '@aso/analytics';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { historyQuery, watchlistQuery } from '@/features/watchlist/watch.api';
import { resolveWatchedApp, resolveWatchedAppById } from './dashboard-app.resolver';
import {
  rememberedWatchedApp,
  setWatchedApp,
  updateAscDashboard,
  type TOpenAscDashboard,
  type TOpenDashboard,
  type TWatchedAppRef,
} from './dashboard.store';

/** What a dashboard shows: an upload's dataset, or figures imported for an app. */
export type TChangesSubject =
  { kind: 'csv'; dataset: TOpenDashboard } | { kind: 'asc'; asc: TOpenAscDashboard };

/**
 * The dashboard's watched listing, its history and its listing changes as impact events, and
 * `choose`, which records the user's choice of listing (with the saved dashboard's view, and
 * for a dataset in this browser too).
 */
export function useDashboardChanges(subject: TChangesSubject) {
  const watchlist = useQuery(watchlistQuery());
  const resolved = useMemo(
    () =>
      subject.kind === 'csv'
        ? resolveWatchedApp(
            subject.dataset,
            watchlist.data ?? [],
            rememberedWatchedApp(subject.dataset.downloadId),
          )
        : resolveWatchedAppById(
            subject.asc.appId,
            subject.asc.territory,
            watchlist.data ?? [],
            subject.asc.watchedApp,
          ),
    [subject, watchlist.data],
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
  const choose = (app: TWatchedAppRef | null) =>
    subject.kind === 'csv' ? setWatchedApp(app) : updateAscDashboard({ watchedApp: app });
  return { subject, watchlist, ...resolved, history, events, choose };
}

/** What {@link useDashboardChanges} gives. */
export type TDashboardChanges = ReturnType<typeof useDashboardChanges>;
