import { KEYWORD_RANK_DEPTH, type TKeywordEstimate, type TKeywordItem } from '@aso/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  AlertTriangleIcon,
  ArrowDownIcon,
  ArrowUpIcon,
  ClockIcon,
  Loader2Icon,
  MinusIcon,
  SearchIcon,
  Trash2Icon,
} from 'lucide-react';
import { useMemo, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { KEYWORDS_KEY, untrackKeyword } from './keywords.api';
import {
  changeOf,
  formatClock,
  rankState,
  rankText,
  readErrorInWords,
  STICKY_CELL,
  sortKeywordItems,
  topCompetitor,
  type TKeywordSortKey,
  type TSort,
} from './keywords.helpers';
import { RankSparkline } from './rank-sparkline';
import { SortHeader } from './sort-header';

/** The rank cell of a term: its state in words (docs/product.md#keywords). */
export function RankCell({ item }: { item: TKeywordItem }) {
  const state = rankState(item);
  switch (state.kind) {
    case 'ranked':
      return (
        <span className="font-semibold tabular-nums" data-testid="rank" data-state="ranked">
          {rankText(state.rank)}
        </span>
      );
    case 'unranked':
      return (
        <span className="text-muted-foreground" data-testid="rank" data-state="unranked">
          not in top {KEYWORD_RANK_DEPTH}
        </span>
      );
    case 'queued':
      return (
        <Badge variant="secondary" className="gap-1" data-testid="rank" data-state="queued">
          <Loader2Icon className="animate-spin" aria-hidden /> first read queued
        </Badge>
      );
    case 'throttled':
      return (
        <span className="flex flex-col gap-0.5" data-testid="rank" data-state="throttled">
          <Badge variant="warning" className="gap-1">
            <ClockIcon aria-hidden /> rate-limited
          </Badge>
          <span className="text-xs text-muted-foreground">
            next read at {formatClock(state.until)}
            {state.rank !== null && ` · last ${rankText(state.rank)}`}
          </span>
        </span>
      );
    case 'error':
      return (
        <span className="flex flex-col gap-0.5" data-testid="rank" data-state="error">
          <Badge variant="outline" className="gap-1 border-destructive/50 text-destructive">
            <AlertTriangleIcon aria-hidden /> read failed
          </Badge>
          {state.rank !== null && (
            <span className="text-xs text-muted-foreground">last {rankText(state.rank)}</span>
          )}
        </span>
      );
  }
}

/** The 7-day move: an arrow and the words ('up 3'). */
function ChangeCell({ change7d }: { change7d: number | null }) {
  const change = changeOf(change7d);
  if (change.direction === 'unknown')
    return (
      <span className="text-muted-foreground" title="Needs a read from 7 days ago">
        –<span className="sr-only">{change.text}</span>
      </span>
    );
  const Icon =
    change.direction === 'up'
      ? ArrowUpIcon
      : change.direction === 'down'
        ? ArrowDownIcon
        : MinusIcon;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 tabular-nums',
        change.direction === 'up' && 'text-success',
        change.direction === 'down' && 'text-destructive',
        change.direction === 'same' && 'text-muted-foreground',
      )}
      data-testid="change-7d"
    >
      <Icon className="size-3.5" aria-hidden />
      {change.text}
    </span>
  );
}

/** An estimate's value with its label ('62 est.'); the signals are in the research panel. */
function EstimateCell({ estimate }: { estimate: TKeywordEstimate | null }) {
  if (!estimate) return <span className="text-muted-foreground">–</span>;
  return (
    <span className="tabular-nums">
      {estimate.value}
      <span className="ml-1 text-[11px] text-muted-foreground">{estimate.label}</span>
    </span>
  );
}

/**
 * The tracked terms of an app in a storefront: term, rank (or its state), 7-day change, best
 * rank, a sparkline of the recent reads, the popularity and difficulty estimates and the
 * best-ranked watched competitor, sortable by each column; per term "research" and "remove"
 * (behind a confirmation). A failed read adds a line under its term saying what happened.
 */
export function KeywordTable({
  items,
  onResearch,
  hasCompetitors,
}: {
  items: readonly TKeywordItem[];
  onResearch: (term: string) => void;
  hasCompetitors: boolean;
}) {
  const queryClient = useQueryClient();
  const [sort, setSort] = useState<TSort<TKeywordSortKey>>({ key: 'rank', dir: 'asc' });
  const [removing, setRemoving] = useState<TKeywordItem | null>(null);
  const sorted = useMemo(() => sortKeywordItems(items, sort), [items, sort]);
  const remove = useMutation({
    mutationFn: (item: TKeywordItem) => untrackKeyword(item.id),
    onSuccess: (_, item) => {
      toast({ title: 'Removed', description: `“${item.term}” is no longer tracked.` });
      void queryClient.invalidateQueries({ queryKey: KEYWORDS_KEY });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Remove Failed',
        description: serverMessage(err, 'Could not stop tracking this term. Please try again.'),
      }),
  });
  const header = { sort, onSort: setSort };
  return (
    <div>
      <Table data-testid="keyword-table">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <SortHeader column="term" className={STICKY_CELL} {...header}>
              Term
            </SortHeader>
            <SortHeader column="rank" {...header}>
              Rank
            </SortHeader>
            <SortHeader column="change" firstDir="desc" {...header}>
              7 days
            </SortHeader>
            <SortHeader column="best" {...header}>
              Best
            </SortHeader>
            <TableHead>Recent reads</TableHead>
            <SortHeader column="popularity" firstDir="desc" {...header}>
              Popularity (est.)
            </SortHeader>
            <SortHeader column="difficulty" {...header}>
              Difficulty (est.)
            </SortHeader>
            <SortHeader column="competitor" {...header}>
              Top competitor
            </SortHeader>
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {sorted.map((item) => {
            const state = rankState(item);
            const leader = topCompetitor(item);
            return [
              <TableRow
                key={item.id}
                data-testid="keyword-row"
                data-term={item.term}
                className={cn(state.kind === 'error' && 'border-b-0')}
              >
                <TableCell
                  className={cn('max-w-40 font-medium whitespace-normal break-words', STICKY_CELL)}
                >
                  {item.term}
                </TableCell>
                <TableCell>
                  <RankCell item={item} />
                </TableCell>
                <TableCell>
                  <ChangeCell change7d={item.change7d} />
                </TableCell>
                <TableCell className="tabular-nums" data-testid="best-rank">
                  {item.bestRank === null ? (
                    <span className="text-muted-foreground">–</span>
                  ) : (
                    rankText(item.bestRank)
                  )}
                </TableCell>
                <TableCell>
                  <RankSparkline points={item.recent} />
                </TableCell>
                <TableCell>
                  <EstimateCell estimate={item.popularity} />
                </TableCell>
                <TableCell>
                  <EstimateCell estimate={item.difficulty} />
                </TableCell>
                <TableCell className="max-w-48 whitespace-normal" data-testid="top-competitor">
                  {leader ? (
                    <span>
                      <span className="break-words">{leader.appName ?? `App ${leader.appId}`}</span>{' '}
                      <span className="font-semibold tabular-nums">{rankText(leader.rank!)}</span>
                    </span>
                  ) : (
                    <span className="text-xs text-muted-foreground">
                      {hasCompetitors
                        ? item.checkedAt
                          ? `none in top ${KEYWORD_RANK_DEPTH}`
                          : '–'
                        : 'no competitor watched'}
                    </span>
                  )}
                </TableCell>
                <TableCell>
                  <div className="flex gap-1">
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8"
                      onClick={() => onResearch(item.term)}
                      aria-label={`Research “${item.term}”`}
                      title="research"
                    >
                      <SearchIcon />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8"
                      onClick={() => setRemoving(item)}
                      aria-label={`Stop tracking “${item.term}”`}
                      title="remove"
                      data-testid="keyword-remove"
                    >
                      <Trash2Icon />
                    </Button>
                  </div>
                </TableCell>
              </TableRow>,
              state.kind === 'error' ? (
                <TableRow key={`${item.id}-error`} className="hover:bg-transparent">
                  <TableCell colSpan={9} className="pt-0 whitespace-normal">
                    <p
                      className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm"
                      data-testid="keyword-error"
                    >
                      <AlertTriangleIcon
                        className="mt-0.5 size-4 shrink-0 text-destructive"
                        aria-hidden
                      />
                      <span>
                        <span className="font-medium">The last read failed:</span>{' '}
                        {readErrorInWords(state.error)}
                      </span>
                    </p>
                  </TableCell>
                </TableRow>
              ) : null,
            ];
          })}
        </TableBody>
      </Table>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        description={
          <>
            “{removing?.term}” will no longer be tracked for this app: it leaves this table and the
            gap matrix. You can track it again at any time.
          </>
        }
        confirmLabel="Remove"
        onConfirm={() => removing && remove.mutate(removing)}
      />
    </div>
  );
}
