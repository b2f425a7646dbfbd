/**
 * Route `/apps/:appId?storefront=`: the timeline of a watched listing. Its rating and category
 * rank over time as two small charts, the search ranks of its tracked terms with the listing's
 * changes marked on the same time axis, then its changes newest first, grouped by the read that
 * found them, each with its before and after and the rank moves around it; any stored read can
 * be audited again ("audit this snapshot": the audit reads the stored listing, not the store).
 * Loaded lazily (echarts).
 */
import { changeKind, type THistoryAnswer, type TListingChange } from '@aso/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  ArrowLeftIcon,
  ExternalLinkIcon,
  FileSearchIcon,
  HistoryIcon,
  Loader2Icon,
  TagsIcon,
} from 'lucide-react';
import { useMemo } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { dismissToasts, toast } from '@/components/ui/use-toast';
import { ErrorState } from '@/components/list-states';
import { EChart } from '@/features/dashboard/echart';
import { keywordsPath } from '@/features/keywords/keywords.paths';
import { RankMovesLine, TimelineRanksCard } from '@/features/keywords/timeline-ranks';
import { AppIcon } from '@/features/results/app-icon';
import { useMainScreen } from '@/features/shell/main-screen.context';
import { useFocusOnMount } from '@/hooks/use-focus';
import { ApiError, serverMessage } from '@/lib/api';
import { ChangeView } from './change-view';
import {
  buildRankChartOption,
  buildRatingChartOption,
  hasFigure,
  rankContext,
} from './history-chart.options';
import { auditSnapshot, historyQuery } from './watch.api';
import { ROLE_LABELS, formatDateTime, storefrontName } from './watch.helpers';

/** The changes found by one read, with the read before it. */
interface TChangeGroup {
  snapshotId: string;
  detectedAt: string;
  previousAt: string;
  changes: TListingChange[];
}

/** Groups changes (newest first) by the snapshot that showed them, keeping their order. */
export function groupChanges(changes: readonly TListingChange[]): TChangeGroup[] {
  const groups: TChangeGroup[] = [];
  for (const change of changes) {
    const last = groups.at(-1);
    if (last?.snapshotId === change.snapshotId) last.changes.push(change);
    else
      groups.push({
        snapshotId: change.snapshotId,
        detectedAt: change.detectedAt,
        previousAt: change.previousAt,
        changes: [change],
      });
  }
  return groups;
}

/** The timeline page. */
export default function TimelinePage() {
  const { appId = '' } = useParams();
  const [params] = useSearchParams();
  const storefront = (params.get('storefront') ?? 'us').toLowerCase();
  const history = useQuery(historyQuery(appId, storefront));
  return (
    <div
      className="mx-auto flex w-full max-w-6xl flex-col gap-6 p-4 md:p-6"
      data-testid="timeline-page"
    >
      <Link
        to="/watchlist"
        className="inline-flex w-fit items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" /> watchlist
      </Link>
      {history.isPending ? (
        <div className="flex flex-col gap-4" aria-busy="true" data-testid="timeline-loading">
          <span className="sr-only" role="status">
            Loading the timeline...
          </span>
          <Skeleton className="h-28 w-full rounded-xl" />
          <div className="grid gap-4 md:grid-cols-2">
            <Skeleton className="h-56 rounded-xl" />
            <Skeleton className="h-56 rounded-xl" />
          </div>
          <Skeleton className="h-72 w-full rounded-xl" />
        </div>
      ) : history.isError ? (
        history.error instanceof ApiError && history.error.status === 404 ? (
          <NotWatched storefront={storefront} />
        ) : (
          <>
            <h1 className="text-2xl font-semibold tracking-tight">Timeline</h1>
            <ErrorState
              error={history.error}
              what="the timeline"
              onRetry={() => void history.refetch()}
            />
          </>
        )
      ) : (
        <Timeline history={history.data} />
      )}
    </div>
  );
}

function NotWatched({ storefront }: { storefront: string }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div
      className="flex flex-col items-center gap-3 py-16 text-center"
      data-testid="timeline-not-watched"
    >
      <HistoryIcon className="size-8 text-muted-foreground" aria-hidden />
      <h1 ref={heading} tabIndex={-1} className="focus-target text-xl font-semibold">
        Not on your watchlist
      </h1>
      <p className="max-w-md text-sm text-muted-foreground">
        This app is not watched in the {storefrontName(storefront)} storefront, so it has no
        timeline. Watch it from the watchlist to start one.
      </p>
      <Button asChild variant="outline">
        <Link to="/watchlist">open the watchlist</Link>
      </Button>
    </div>
  );
}

function useAuditSnapshot(appId: string) {
  const navigate = useNavigate();
  const { setAuditView, setTab } = useMainScreen();
  return useMutation({
    mutationFn: (snapshotId: string) => auditSnapshot(appId, snapshotId),
    onSuccess: (auditId) => {
      dismissToasts('snapshot-audit');
      // The audit's live progress, as for one started from the form.
      setAuditView({ kind: 'progress', auditId, validLinks: 1 });
      setTab('audit');
      void navigate('/');
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Audit Failed',
        topic: 'snapshot-audit',
        description: serverMessage(
          err,
          'Could not start the audit of this snapshot. Please try again.',
        ),
      }),
  });
}

function AuditSnapshotButton({
  appId,
  snapshotId,
  at,
  audit,
}: {
  appId: string;
  snapshotId: string;
  at: string;
  audit: ReturnType<typeof useAuditSnapshot>;
}) {
  const busy = audit.isPending && audit.variables === snapshotId;
  return (
    <Button
      variant="outline"
      size="sm"
      focusableWhenDisabled
      disabled={audit.isPending}
      onClick={() => audit.mutate(snapshotId)}
      aria-label={`audit this snapshot (${formatDateTime(at)})`}
      data-testid="audit-snapshot"
      data-app-id={appId}
    >
      {busy ? <Loader2Icon className="animate-spin" /> : <FileSearchIcon />} audit this snapshot
    </Button>
  );
}

function Timeline({ history }: { history: THistoryAnswer }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const audit = useAuditSnapshot(history.appId);
  const latest = history.snapshots.at(-1) ?? null;
  const groups = useMemo(() => groupChanges(history.changes), [history.changes]);
  const name = history.appName ?? latest?.appName ?? `App ${history.appId}`;
  const language = history.language ?? 'en';
  const listingChanges = history.changes.filter((c) => changeKind(c.field) === 'listing').length;
  const firstReadAt = history.snapshots[0]?.fetchedAt ?? null;
  return (
    <>
      <Card className="flex-row items-start gap-4 p-5" data-testid="timeline-header">
        <AppIcon src={latest?.iconUrl ?? null} name={name} className="size-16 rounded-[22%]" />
        <div className="min-w-0 flex-1 space-y-2">
          <h1
            ref={heading}
            tabIndex={-1}
            className="focus-target text-xl font-semibold tracking-tight break-words"
            data-testid="timeline-app-name"
          >
            {name}
          </h1>
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant={history.role === 'mine' ? 'default' : 'secondary'}>
              {ROLE_LABELS[history.role]}
            </Badge>
            <Badge variant="outline">
              {storefrontName(history.storefront)}
              {history.language ? ` · ${history.language}` : ''}
            </Badge>
            {latest?.version && <Badge variant="outline">version {latest.version}</Badge>}
          </div>
          <p className="text-xs text-muted-foreground">
            {latest
              ? `${history.snapshots.length} reads since ${formatDateTime(history.snapshots[0]!.fetchedAt)}, the latest ${formatDateTime(latest.fetchedAt)} · ${listingChanges} listing changes found`
              : 'Not read yet: the first read is on its way.'}
          </p>
          <div className="flex flex-wrap gap-2">
            {latest && (
              <AuditSnapshotButton
                appId={history.appId}
                snapshotId={latest.id}
                at={latest.fetchedAt}
                audit={audit}
              />
            )}
            <Button asChild variant="outline" size="sm">
              <Link to={keywordsPath(history.appId, history.storefront)}>
                <TagsIcon /> keywords
              </Link>
            </Button>
            <Button asChild variant="ghost" size="sm">
              <a
                href={`https://apps.apple.com/${history.storefront}/app/id${history.appId}`}
                target="_blank"
                rel="noopener noreferrer"
              >
                <ExternalLinkIcon /> View on the App Store
              </a>
            </Button>
          </div>
        </div>
      </Card>
      <div className="grid gap-4 md:grid-cols-2">
        <Card data-testid="rating-chart">
          <CardHeader>
            <CardTitle className="text-base">Rating over time</CardTitle>
            <CardDescription>Average rating (0-5) at each read.</CardDescription>
          </CardHeader>
          <CardContent>
            {hasFigure(history.snapshots, 'rating') ? (
              <EChart
                option={buildRatingChartOption(history.snapshots)}
                height="11rem"
                label={`Rating of ${name} over time`}
              />
            ) : (
              <p className="py-8 text-center text-sm text-muted-foreground">No rating read yet.</p>
            )}
          </CardContent>
        </Card>
        <Card data-testid="rank-chart">
          <CardHeader>
            <CardTitle className="text-base">Category rank over time</CardTitle>
            <CardDescription>
              {rankContext(history.snapshots) ?? 'Position in its category chart at each read.'}
            </CardDescription>
          </CardHeader>
          <CardContent>
            {hasFigure(history.snapshots, 'rank') ? (
              <EChart
                option={buildRankChartOption(history.snapshots)}
                height="11rem"
                label={`Category rank of ${name} over time`}
              />
            ) : (
              <p className="py-8 text-center text-sm text-muted-foreground">
                Not ranked in its category chart in any read.
              </p>
            )}
          </CardContent>
        </Card>
      </div>
      <TimelineRanksCard
        appId={history.appId}
        storefront={history.storefront}
        appName={name}
        firstReadAt={firstReadAt}
        changes={history.changes}
      />
      <Card data-testid="timeline-changes">
        <CardHeader>
          <CardTitle className="text-lg">Changes</CardTitle>
          <CardDescription>
            Newest first. A change happened between the read before it and the read that found it.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {groups.length === 0 ? (
            <p
              className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground"
              data-testid="timeline-no-changes"
            >
              {latest
                ? `No changes yet: the listing has looked the same in every read since ${formatDateTime(history.snapshots[0]!.fetchedAt)}.`
                : 'No changes yet: the first read has not been made.'}
            </p>
          ) : (
            <ol className="flex flex-col gap-8">
              {groups.map((group) => (
                <li
                  key={group.snapshotId}
                  className="flex flex-col gap-4 border-l-2 border-primary/30 pl-4"
                  data-testid="change-group"
                >
                  <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                    <div>
                      <h3 className="font-semibold">Found {formatDateTime(group.detectedAt)}</h3>
                      <p className="text-xs text-muted-foreground">
                        changed since the read of {formatDateTime(group.previousAt)}
                      </p>
                    </div>
                    <AuditSnapshotButton
                      appId={history.appId}
                      snapshotId={group.snapshotId}
                      at={group.detectedAt}
                      audit={audit}
                    />
                  </div>
                  {group.changes.some((c) => changeKind(c.field) === 'listing') && (
                    <RankMovesLine
                      appId={history.appId}
                      storefront={history.storefront}
                      firstReadAt={firstReadAt}
                      change={group}
                    />
                  )}
                  {group.changes.map((change) => (
                    <ChangeView key={change.id} change={change} language={language} />
                  ))}
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
    </>
  );
}
