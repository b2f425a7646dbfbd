/**
 * Route `/apps/:appId/keywords?storefront=`: the Keywords page of an app in a storefront
 * (docs/product.md#keywords). The app header with "refresh now", the box to track more terms,
 * the tracked terms' table (ranks and their states, sparklines, estimates, top competitor),
 * the research panel and the gap matrix. Loaded lazily. The list is read again every few
 * seconds while a term waits for its first read or a refresh runs, more slowly while the store
 * throttles, and not at all otherwise.
 */
import { isAppStoreStorefront } from '@aso/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  ArrowLeftIcon,
  ExternalLinkIcon,
  HistoryIcon,
  Loader2Icon,
  RefreshCwIcon,
} from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { EmptyState, ErrorState, LoadingRows } from '@/components/list-states';
import { AppIcon } from '@/features/results/app-icon';
import { watchlistQuery } from '@/features/watchlist/watch.api';
import { ROLE_LABELS, storefrontName, timelinePath } from '@/features/watchlist/watch.helpers';
import { useFocusOnMount } from '@/hooks/use-focus';
import { serverMessage } from '@/lib/api';
import { AddTermsForm } from './add-terms-form';
import { GapMatrix } from './gap-matrix';
import { KeywordTable } from './keyword-table';
import { keywordGapQuery, keywordListQuery, refreshKeywords } from './keywords.api';
import { formatClock, keywordPollMs, sourceOrderText } from './keywords.helpers';
import { ResearchPanel, researchRequest, type TResearchRequest } from './research-panel';

/** How long after a refresh's expected end the list is still polled (ms): reads take a moment. */
const REFRESH_GRACE_MS = 15_000;

/** The Keywords page. */
export default function KeywordsPage() {
  const { appId = '' } = useParams();
  const [params] = useSearchParams();
  const storefront = (params.get('storefront') ?? 'us').toLowerCase();
  if (!/^\d+$/.test(appId) || !isAppStoreStorefront(storefront)) {
    return <BadAddress />;
  }
  return <KeywordsOf key={`${appId}:${storefront}`} appId={appId} storefront={storefront} />;
}

function BadAddress() {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="flex flex-col items-center gap-3 py-16 text-center" data-testid="keywords-bad">
      <h1 ref={heading} tabIndex={-1} className="focus-target text-xl font-semibold">
        Not an app in a storefront
      </h1>
      <p className="max-w-md text-sm text-muted-foreground">
        This address names no App Store app and storefront. Open the keywords of an app from the
        Keywords screen or the watchlist.
      </p>
      <Button asChild variant="outline">
        <Link to="/keywords">open Keywords</Link>
      </Button>
    </div>
  );
}

function KeywordsOf({ appId, storefront }: { appId: string; storefront: string }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const researchHeading = useRef<HTMLHeadingElement>(null);
  const [refreshingUntil, setRefreshingUntil] = useState<number | null>(null);
  const [research, setResearch] = useState<TResearchRequest | null>(null);
  const list = useQuery(
    keywordListQuery(appId, storefront, (items) => keywordPollMs(items, refreshingUntil)),
  );
  const gap = useQuery(keywordGapQuery(appId, storefront));
  const watchlist = useQuery(watchlistQuery());
  const watched = watchlist.data?.find((w) => w.appId === appId && w.storefront === storefront);
  const competitorIds = useMemo(
    () =>
      new Set(
        (watchlist.data ?? [])
          .filter((w) => w.role === 'competitor' && w.storefront === storefront)
          .map((w) => w.appId),
      ),
    [watchlist.data, storefront],
  );
  const items = list.data;
  const tracked = useMemo(() => new Set(items?.map((i) => i.term)), [items]);
  const unread = useMemo(
    () => new Set(items?.filter((i) => i.checkedAt === null).map((i) => i.term)),
    [items],
  );
  // The gap's ranks come from the same reads as the list: read it again when the list changes.
  const listUpdatedAt = list.dataUpdatedAt;
  const refetchGap = gap.refetch;
  const firstList = useRef(true);
  useEffect(() => {
    if (listUpdatedAt === 0) return;
    if (firstList.current) {
      firstList.current = false;
      return;
    }
    void refetchGap();
  }, [listUpdatedAt, refetchGap]);
  const name = watched?.appName ?? gap.data?.apps.find((a) => a.mine)?.appName ?? `App ${appId}`;
  const refresh = useMutation({
    mutationFn: () => refreshKeywords(appId, storefront),
    onSuccess: (answer) => {
      setRefreshingUntil(Date.parse(answer.expectedBy) + REFRESH_GRACE_MS);
      void list.refetch();
      toast({
        title: 'Refresh queued',
        description: `${answer.queued} term${answer.queued === 1 ? ' is' : 's are'} read from the App Store search, done by ${formatClock(answer.expectedBy)} at the earliest.`,
      });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Refresh Failed',
        description: serverMessage(err, 'Could not queue the refresh. Please try again.'),
      }),
  });
  const openResearch = (term: string) => {
    setResearch(researchRequest(term));
    researchHeading.current?.scrollIntoView({ block: 'start' });
    researchHeading.current?.focus({ preventScroll: true });
  };
  return (
    <div
      className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-6 p-4 md:p-6"
      data-testid="keywords-page"
    >
      <Link
        to="/keywords"
        className="inline-flex w-fit items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" /> keywords
      </Link>
      <Card className="flex-row items-start gap-4 p-5" data-testid="keywords-header">
        <AppIcon src={watched?.iconUrl ?? null} name={name} className="size-14 rounded-[22%]" />
        <div className="min-w-0 flex-1 space-y-2">
          <p className="text-xs font-semibold tracking-widest text-primary uppercase">Keywords</p>
          <h1
            ref={heading}
            tabIndex={-1}
            className="focus-target text-xl font-semibold tracking-tight break-words"
            data-testid="keywords-app-name"
          >
            {name}
          </h1>
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="outline">{storefrontName(storefront)}</Badge>
            {watched && (
              <Badge variant={watched.role === 'mine' ? 'default' : 'secondary'}>
                {ROLE_LABELS[watched.role]}
              </Badge>
            )}
          </div>
          <p className="text-xs text-muted-foreground" data-testid="keywords-source">
            Where the app ranks in the store&apos;s search for each term, read every day. Ranks in
            the {sourceOrderText(items?.find((i) => i.source !== null)?.source ?? null)}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() => refresh.mutate()}
              focusableWhenDisabled
              disabled={refresh.isPending || !items || items.length === 0}
              data-testid="keywords-refresh"
            >
              {refresh.isPending ? <Loader2Icon className="animate-spin" /> : <RefreshCwIcon />}
              refresh now
            </Button>
            {watched && (
              <Button asChild variant="outline" size="sm">
                <Link to={timelinePath(watched)}>
                  <HistoryIcon /> timeline
                </Link>
              </Button>
            )}
            <Button asChild variant="ghost" size="sm">
              <a
                href={`https://apps.apple.com/${storefront}/app/id${appId}`}
                target="_blank"
                rel="noopener noreferrer"
              >
                <ExternalLinkIcon /> View on the App Store
              </a>
            </Button>
          </div>
        </div>
      </Card>
      <AddTermsForm appId={appId} storefront={storefront} items={items} />
      <Card className="min-w-0" data-testid="keywords-tracked">
        <CardHeader>
          <CardTitle className="text-lg">
            Tracked terms{items ? ` (${items.length})` : ''}
          </CardTitle>
          <CardDescription>
            Rank: the app&apos;s position among the first 200 results. Popularity and difficulty are
            estimates; research a term to see their signals.
          </CardDescription>
        </CardHeader>
        <CardContent className="min-w-0">
          {list.isPending ? (
            <LoadingRows rows={4} />
          ) : list.isError ? (
            <ErrorState
              error={list.error}
              what="the tracked terms"
              onRetry={() => void list.refetch()}
            />
          ) : list.data.length === 0 ? (
            <EmptyState
              text={`No term tracked for this app in the ${storefrontName(storefront)} storefront yet. Paste some above: their ranks show after the first read, within a minute or two.`}
            />
          ) : (
            <KeywordTable
              items={list.data}
              onResearch={openResearch}
              hasCompetitors={competitorIds.size > 0}
            />
          )}
        </CardContent>
      </Card>
      <ResearchPanel
        appId={appId}
        storefront={storefront}
        request={research}
        onRequest={setResearch}
        tracked={tracked}
        competitorIds={competitorIds}
        headingRef={researchHeading}
      />
      <Card className="min-w-0" data-testid="keywords-gap">
        <CardHeader>
          <CardTitle className="text-lg">Keyword gap</CardTitle>
          <CardDescription>
            Your app and your watched competitors in this storefront, term by term, from the same
            reads.
          </CardDescription>
        </CardHeader>
        <CardContent className="min-w-0">
          {gap.isPending ? (
            <LoadingRows rows={3} />
          ) : gap.isError ? (
            <ErrorState
              error={gap.error}
              what="the keyword gap"
              onRetry={() => void gap.refetch()}
            />
          ) : (
            <GapMatrix gap={gap.data} appId={appId} storefront={storefront} unread={unread} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
