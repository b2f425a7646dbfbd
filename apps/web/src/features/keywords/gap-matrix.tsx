import {
  GAP_APP_BELOW,
  GAP_COMPETITOR_TOP,
  KEYWORD_RANK_DEPTH,
  type TKeywordGap,
} from '@aso/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FlagIcon, Loader2Icon, PlusIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { storefrontName } from '@/features/watchlist/watch.helpers';
import { serverMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { KEYWORDS_KEY, appStoreUrlOf, trackKeywords } from './keywords.api';
import {
  GAP_ROW_FILL,
  STICKY_CELL,
  gapLeader,
  rankText,
  sortGapRows,
  type TGapSortKey,
  type TSort,
} from './keywords.helpers';
import { SortHeader } from './sort-header';

/** The name of an app of the gap: its name, else 'App <id>'. */
const appLabel = (app: TKeywordGap['apps'][number]) => app.appName ?? `App ${app.appId}`;

/**
 * The keyword gap (docs/product.md#keywords): a matrix of the tracked terms x the app and its
 * watched competitors (ranks from each term's one read), sortable by the term, the flag and
 * each app's rank; a row is flagged where a competitor is in the top {@link GAP_COMPETITOR_TOP}
 * while the app is absent or below {@link GAP_APP_BELOW}. Under it, the terms of competitors'
 * titles and subtitles the user does not track, each with "track". The matrix scrolls
 * sideways inside its card on a narrow screen.
 */
export function GapMatrix({
  gap,
  appId,
  storefront,
  unread,
}: {
  gap: TKeywordGap;
  appId: string;
  storefront: string;
  /** Tracked terms never read yet (their empty cells say so, not "not in top 200"). */
  unread: ReadonlySet<string>;
}) {
  const queryClient = useQueryClient();
  const [sort, setSort] = useState<TSort<TGapSortKey>>({ key: 'gap', dir: 'asc' });
  const tracked = useMemo(() => gap.rows.filter((r) => r.tracked), [gap.rows]);
  const untracked = useMemo(() => gap.rows.filter((r) => !r.tracked), [gap.rows]);
  const rows = useMemo(() => sortGapRows(tracked, sort), [tracked, sort]);
  const flagged = tracked.filter((r) => r.gap).length;
  const competitors = gap.apps.length - 1;
  const track = useMutation({
    mutationFn: (term: string) => trackKeywords(appStoreUrlOf(appId, storefront), [term]),
    onSuccess: (_, term) => {
      toast({ title: 'Tracking', description: `“${term}” added: its first read is queued.` });
      void queryClient.invalidateQueries({ queryKey: KEYWORDS_KEY });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Track Failed',
        description: serverMessage(err, 'Could not track this term. Please try again.'),
      }),
  });
  const header = { sort, onSort: setSort };
  return (
    <div className="flex flex-col gap-5" data-testid="gap-matrix">
      {competitors === 0 && (
        <p className="rounded-lg border border-dashed px-4 py-3 text-sm text-muted-foreground">
          No competitor watched in the {storefrontName(storefront)} storefront: watch some from{' '}
          <Link to="/watchlist" className="underline underline-offset-2">
            the watchlist
          </Link>{' '}
          to compare their ranks with yours.
        </p>
      )}
      {tracked.length === 0 ? (
        <p className="text-sm text-muted-foreground">Track terms to see the gap.</p>
      ) : (
        <>
          <p className="text-sm" data-testid="gap-summary">
            {flagged === 0
              ? 'No gap: no competitor is in the top 10 for a term where you are absent or below 50.'
              : `${flagged} of ${tracked.length} term${tracked.length === 1 ? '' : 's'} flagged: a competitor is in the top ${GAP_COMPETITOR_TOP} while your app is absent or below ${GAP_APP_BELOW}.`}
          </p>
          <Table data-testid="gap-table">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <SortHeader column="term" className={STICKY_CELL} {...header}>
                  Term
                </SortHeader>
                <SortHeader column="gap" {...header}>
                  Gap
                </SortHeader>
                {gap.apps.map((app, i) => (
                  <SortHeader key={app.appId} column={`app-${i}`} {...header}>
                    <span className="max-w-36 truncate" title={appLabel(app)}>
                      {app.mine ? `${appLabel(app)} (you)` : appLabel(app)}
                    </span>
                  </SortHeader>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => {
                const leader = row.gap ? gapLeader(row, GAP_COMPETITOR_TOP) : null;
                return (
                  <TableRow
                    key={row.term}
                    className={cn(
                      row.gap &&
                        `${GAP_ROW_FILL} hover:bg-[color-mix(in_oklab,var(--warning)_18%,var(--card))]`,
                    )}
                    data-testid="gap-row"
                    data-term={row.term}
                    data-gap={row.gap}
                  >
                    <TableCell
                      className={cn(
                        'max-w-40 font-medium whitespace-normal break-words',
                        STICKY_CELL,
                        row.gap && GAP_ROW_FILL,
                      )}
                    >
                      {row.term}
                    </TableCell>
                    <TableCell>
                      {row.gap ? (
                        <Badge variant="warning" className="gap-1" data-testid="gap-flag">
                          <FlagIcon aria-hidden /> gap
                          {leader && (
                            <span className="sr-only">
                              : {appLabel(gap.apps[leader.index]!)} is {rankText(leader.rank)}
                            </span>
                          )}
                        </Badge>
                      ) : (
                        <span className="text-muted-foreground">
                          –<span className="sr-only">no gap</span>
                        </span>
                      )}
                    </TableCell>
                    {row.ranks.map((rank, i) => (
                      <TableCell
                        key={gap.apps[i]!.appId}
                        className={cn(
                          'tabular-nums',
                          i === 0 && 'font-semibold',
                          leader?.index === i && 'font-semibold text-warning-foreground',
                        )}
                        data-testid="gap-cell"
                      >
                        {rank !== null ? (
                          rankText(rank)
                        ) : (
                          <span className="text-xs font-normal text-muted-foreground">
                            {unread.has(row.term)
                              ? 'not read yet'
                              : `not in top ${KEYWORD_RANK_DEPTH}`}
                          </span>
                        )}
                      </TableCell>
                    ))}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </>
      )}
      {competitors > 0 && (
        <section className="flex flex-col gap-2" data-testid="gap-untracked">
          <h3 className="text-sm font-medium">
            Terms in competitors&apos; titles and subtitles you do not track
          </h3>
          {untracked.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              None: you track every term of their titles and subtitles, or they have not been read
              yet.
            </p>
          ) : (
            <ul className="flex flex-wrap gap-2">
              {untracked.map((row) => (
                <li
                  key={row.term}
                  className="flex items-center gap-1 rounded-md border py-0.5 pr-0.5 pl-2.5 text-sm"
                  data-testid="gap-untracked-term"
                  data-term={row.term}
                >
                  {row.term}
                  <Button
                    variant="ghost"
                    size="sm"
                    className="h-7 px-2"
                    onClick={() => track.mutate(row.term)}
                    focusableWhenDisabled
                    disabled={track.isPending}
                    aria-label={`Track “${row.term}”`}
                  >
                    {track.isPending && track.variables === row.term ? (
                      <Loader2Icon className="animate-spin" />
                    ) : (
                      <PlusIcon />
                    )}
                    track
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
