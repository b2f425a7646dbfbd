/**
 * The timeline's keyword ranks (docs/product.md#keywords): a card charting the rank history of
 * the app's tracked terms on the timeline's time axis with its listing changes marked, and the
 * line under a change saying how the ranks moved around it. Both read one query
 * (`GET /api/apps/{appId}/keyword-ranks` over the timeline's range).
 */
import type { TKeywordRanks, TListingChange } from '@aso/contracts';
import { useQuery } from '@tanstack/react-query';
import { ArrowRightIcon, TagsIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ErrorState } from '@/components/list-states';
import { ChartLegend, toggled } from '@/features/dashboard/chart-legend';
import { EChart } from '@/features/dashboard/echart';
import { keywordRanksQuery } from './keywords.api';
import { keywordsPath } from './keywords.paths';
import { rankText, sourceOrderText } from './keywords.helpers';
import {
  CHARTED_TERMS_MAX,
  buildKeywordRanksOption,
  chartedTerms,
  listingChangeMarks,
  movesAround,
  ranksRange,
  termColor,
} from './timeline-ranks.chart';

/** The rank history query of a timeline: from its first read to when the page opened. */
export function useTimelineRanks(appId: string, storefront: string, firstReadAt: string | null) {
  const [openedAt] = useState(() => Date.now());
  const { from, to } = ranksRange(firstReadAt, openedAt);
  return useQuery(keywordRanksQuery(appId, storefront, from, to));
}

/** The card charting the tracked terms' ranks with the listing's changes marked. */
export function TimelineRanksCard({
  appId,
  storefront,
  appName,
  firstReadAt,
  changes,
}: {
  appId: string;
  storefront: string;
  appName: string;
  firstReadAt: string | null;
  changes: readonly TListingChange[];
}) {
  const ranks = useTimelineRanks(appId, storefront, firstReadAt);
  const link = (
    <Button asChild variant="outline" size="sm">
      <Link to={keywordsPath(appId, storefront)}>
        <TagsIcon /> keywords <ArrowRightIcon />
      </Link>
    </Button>
  );
  let body;
  if (ranks.isPending) {
    body = <Skeleton className="h-56 w-full" />;
  } else if (ranks.isError) {
    body = (
      <ErrorState
        error={ranks.error}
        what="the keyword ranks"
        onRetry={() => void ranks.refetch()}
      />
    );
  } else if (ranks.data.terms.length === 0) {
    body = (
      <div className="flex flex-col items-start gap-3 py-4 text-sm text-muted-foreground">
        <p>No term tracked for this app in this storefront: track some to see their ranks here.</p>
        {link}
      </div>
    );
  } else {
    const charted = chartedTerms(ranks.data.terms);
    const total = ranks.data.terms.length;
    const marks = listingChangeMarks(changes).length;
    body =
      charted.length === 0 ? (
        <div className="flex flex-col items-start gap-3 py-4 text-sm text-muted-foreground">
          <p>
            None of the {total} tracked term{total === 1 ? '' : 's'} ranked in the top 200 in this
            period (or {total === 1 ? 'it was' : 'they were'} not read yet).
          </p>
          {link}
        </div>
      ) : (
        <div className="flex flex-col gap-3">
          <RanksChart ranks={ranks.data} changes={changes} appName={appName} />
          <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
            <span>
              {charted.length < total
                ? `${charted.length} of ${total} tracked terms: the best ranked in this period (at most ${CHARTED_TERMS_MAX}).`
                : `${total} tracked term${total === 1 ? '' : 's'}.`}
              {marks > 0 && ' Dashed lines: listing changes.'}
            </span>
            {link}
          </div>
        </div>
      );
  }
  return (
    <Card data-testid="timeline-keyword-ranks">
      <CardHeader>
        <CardTitle className="text-base">Search ranks over time</CardTitle>
        <CardDescription>
          Tracked terms on the same time axis as the listing&apos;s changes, so a change and the
          rank moves after it show together. Ranks in the {sourceOrderText()}
        </CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

/** The charted terms' legend (a toggle button per term) above their rank chart. */
function RanksChart({
  ranks,
  changes,
  appName,
}: {
  ranks: TKeywordRanks;
  changes: readonly TListingChange[];
  appName: string;
}) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const charted = chartedTerms(ranks.terms);
  return (
    <>
      <ChartLegend
        label="Search ranks chart legend"
        items={charted.map((t, index) => ({ name: t.term, color: termColor(index) }))}
        hidden={hidden}
        onToggle={(term) => setHidden((h) => toggled(h, term))}
      />
      <EChart
        option={buildKeywordRanksOption(ranks, changes, hidden)}
        height="16rem"
        label={`Search ranks of ${appName} over time for ${charted.map((t) => `“${t.term}”`).join(', ')}, with the listing changes marked`}
      />
    </>
  );
}

/** Under a change: how the tracked terms' ranks moved from before it to the week after. */
export function RankMovesLine({
  appId,
  storefront,
  firstReadAt,
  change,
}: {
  appId: string;
  storefront: string;
  firstReadAt: string | null;
  change: { previousAt: string; detectedAt: string };
}) {
  const ranks = useTimelineRanks(appId, storefront, firstReadAt);
  const moves = ranks.data ? movesAround(ranks.data.terms, change) : [];
  if (moves.length === 0) return null;
  return (
    <p
      className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs"
      data-testid="change-rank-moves"
    >
      <span className="font-medium">Search ranks, before → within a week after:</span>
      {moves.map((m) => (
        <span key={m.term} className="whitespace-nowrap">
          &ldquo;{m.term}&rdquo; {m.before === null ? 'not in top 200' : rankText(m.before)} →{' '}
          {m.after === null ? 'not in top 200' : rankText(m.after)}
        </span>
      ))}
    </p>
  );
}
