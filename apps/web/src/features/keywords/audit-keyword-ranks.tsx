/**
 * An audit's keywords in the Keyword Field section (docs/product.md#keywords): where the
 * audit's app and its competitors rank for each term of the audit's keyword text (the terms'
 * latest stored reads in the audit's storefront), and "track these keywords" for the terms the
 * user does not track yet, whose first reads then fill the table in by themselves.
 */
import { KEYWORD_RANK_DEPTH, type TAuditKeywordRanks } from '@aso/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowRightIcon, Loader2Icon, PlusIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { KEYWORDS_KEY, auditKeywordRanksQuery, trackKeywords } from './keywords.api';
import { keywordsPath } from './keywords.paths';
import { rankText, sourceOrderText } from './keywords.helpers';

/** The words of one cell: a rank, 'not in top 200', or why there is none. */
function cellText(term: TAuditKeywordRanks['terms'][number], rank: number | null): string {
  if (rank !== null) return rankText(rank);
  if (term.checkedAt !== null) return `not in top ${KEYWORD_RANK_DEPTH}`;
  return term.trackId !== null ? 'first read queued' : 'not read';
}

/** The audit's keyword ranks, for the Keyword Field section of its result. */
export function AuditKeywordRanks({ auditId }: { auditId: string }) {
  const queryClient = useQueryClient();
  const ranks = useQuery(auditKeywordRanksQuery(auditId));
  const untracked = ranks.data?.terms.filter((t) => t.trackId === null).map((t) => t.term) ?? [];
  const track = useMutation({
    mutationFn: (a: TAuditKeywordRanks) => trackKeywords(a.appStoreUrl, untracked),
    onSuccess: (_, a) => {
      toast({
        title: 'Tracking',
        description: `${untracked.length} keyword${untracked.length === 1 ? '' : 's'} tracked for ${a.apps[0]?.appName ?? 'the app'}: ranks show here after the first read.`,
      });
      void queryClient.invalidateQueries({ queryKey: KEYWORDS_KEY });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Track Failed',
        description: serverMessage(err, 'Could not track these keywords. Please try again.'),
      }),
  });
  if (ranks.isPending) return <Skeleton className="h-24 w-full" />;
  if (ranks.isError) {
    return (
      <p className="text-xs text-muted-foreground" data-testid="audit-keyword-ranks-error">
        Search ranks of these keywords could not be loaded:{' '}
        {serverMessage(ranks.error, 'please try again')}.{' '}
        <button
          type="button"
          className="underline underline-offset-2"
          onClick={() => void ranks.refetch()}
        >
          retry
        </button>
      </p>
    );
  }
  const data = ranks.data;
  if (data.terms.length === 0) return null;
  const app = data.apps[0];
  return (
    <section className="flex flex-col gap-2" data-testid="audit-keyword-ranks">
      <h4 className="text-xs font-semibold tracking-wide uppercase">Search ranks</h4>
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full text-xs">
          <caption className="sr-only">
            Search ranks of the audit&apos;s keywords for the app and its competitors
          </caption>
          <thead className="bg-muted/50 text-muted-foreground">
            <tr>
              <th scope="col" className="px-2 py-1.5 text-left font-medium">
                keyword
              </th>
              {data.apps.map((a) => (
                <th
                  key={a.appId}
                  scope="col"
                  className="max-w-32 truncate px-2 py-1.5 text-left font-medium"
                  title={a.appName ?? `App ${a.appId}`}
                >
                  {a.mine ? 'this app' : (a.appName ?? `App ${a.appId}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.terms.map((t) => (
              <tr
                key={t.term}
                className="border-t"
                data-testid="audit-keyword-row"
                data-term={t.term}
              >
                <th scope="row" className="px-2 py-1.5 text-left font-medium break-words">
                  {t.term}
                </th>
                {t.ranks.map((rank, i) => (
                  <td
                    key={data.apps[i]?.appId ?? i}
                    className={cn(
                      'px-2 py-1.5 whitespace-nowrap tabular-nums',
                      rank === null && 'text-muted-foreground',
                      i === 0 && rank !== null && 'font-semibold',
                    )}
                  >
                    {cellText(t, rank)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-[11px] text-muted-foreground">
        From each keyword&apos;s latest read; ranks in the {sourceOrderText()}
      </p>
      <div className="flex flex-wrap gap-2">
        {untracked.length > 0 && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => track.mutate(data)}
            focusableWhenDisabled
            disabled={track.isPending}
            data-testid="track-audit-keywords"
          >
            {track.isPending ? <Loader2Icon className="animate-spin" /> : <PlusIcon />}
            track these keywords
          </Button>
        )}
        {app && (
          <Button asChild variant="ghost" size="sm">
            <Link to={keywordsPath(app.appId, data.storefront)}>
              keywords page <ArrowRightIcon />
            </Link>
          </Button>
        )}
      </div>
    </section>
  );
}
