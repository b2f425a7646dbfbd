import type { TKeywordEstimate, TKeywordResearch } from '@aso/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckIcon, InfoIcon, Loader2Icon, PlusIcon, SearchIcon, StarIcon } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent, type RefObject } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ErrorState } from '@/components/list-states';
import { AppIcon } from '@/features/results/app-icon';
import { formatDateTime } from '@/features/watchlist/watch.helpers';
import { serverMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import {
  KEYWORDS_KEY,
  RESEARCH_POLL_MAX_MS,
  appStoreUrlOf,
  keywordResearchQuery,
  trackKeywords,
} from './keywords.api';
import {
  SUGGESTION_SOURCE_LABELS,
  TITLE_MATCH_LABELS,
  formatClock,
  sourceOrderText,
} from './keywords.helpers';

/** A term asked for, and until when its queued first read is waited for (epoch ms). */
export interface TResearchRequest {
  term: string;
  pollUntil: number;
}

/** A research request for `term` made now. */
export const researchRequest = (term: string): TResearchRequest => ({
  term: term.trim(),
  pollUntil: Date.now() + RESEARCH_POLL_MAX_MS,
});

/** Words of each estimate signal (`packages/aso-rules` keyword estimates). */
export const SIGNAL_LABELS: Record<string, string> = {
  resultCount: 'results in the store',
  leaderRatings: "leaders' ratings volume",
  titleMatches: 'term in the leaders’ titles',
  termLength: 'term length',
  averageRating: "leaders' average rating",
  updateRecency: 'leaders updated in 180 days',
  leaderAge: "leaders' age",
  publisherConcentration: 'publishers holding the top 10',
};

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** One estimate: its value, the word "estimate", and every signal with its value and weight. */
function EstimateBox({
  title,
  scale,
  estimate,
  testId,
}: {
  title: string;
  scale: string;
  estimate: TKeywordEstimate;
  testId: string;
}) {
  return (
    <section className="flex flex-col gap-2 rounded-lg border p-3" data-testid={testId}>
      <div className="flex flex-wrap items-baseline gap-2">
        <h3 className="text-sm font-medium">{title}</h3>
        <Badge variant="outline" className="text-[10px] font-normal">
          {estimate.label}
        </Badge>
        <span className="ml-auto text-2xl font-semibold tabular-nums" data-testid="estimate-value">
          {estimate.value}
        </span>
        <span className="text-xs text-muted-foreground">{scale}</span>
      </div>
      <table className="w-full text-xs">
        <caption className="sr-only">Signals of the {title.toLowerCase()} estimate</caption>
        <thead className="text-muted-foreground">
          <tr>
            <th scope="col" className="py-1 text-left font-normal">
              signal
            </th>
            <th scope="col" className="py-1 text-right font-normal">
              value (0-100)
            </th>
            <th scope="col" className="py-1 text-right font-normal">
              weight
            </th>
          </tr>
        </thead>
        <tbody>
          {estimate.signals.map((s) => (
            <tr
              key={s.name}
              className="border-t"
              data-testid="estimate-signal"
              data-signal={s.name}
            >
              <td className="py-1 pr-2">{SIGNAL_LABELS[s.name] ?? s.name}</td>
              <td className="py-1 text-right tabular-nums">{Math.round(s.value)}</td>
              <td className="py-1 text-right tabular-nums">{Math.round(s.weight * 100)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The answer of a read term: result count, estimates, top 10 and suggestions. */
function ResearchResult({
  research,
  mine,
  competitorIds,
  tracked,
  onTrack,
  onResearch,
  tracking,
}: {
  research: TKeywordResearch;
  mine: string;
  competitorIds: ReadonlySet<string>;
  tracked: ReadonlySet<string>;
  onTrack: (term: string) => void;
  onResearch: (term: string) => void;
  tracking: string | null;
}) {
  const isTracked = tracked.has(research.term);
  return (
    <div className="flex flex-col gap-5" data-testid="research-result" data-term={research.term}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <p className="text-sm text-muted-foreground">
          <span className="font-medium text-foreground">&ldquo;{research.term}&rdquo;</span>:{' '}
          <span data-testid="research-count">{research.resultCount}</span> results in the store
          (read {formatDateTime(research.checkedAt)}). {sourceOrderText()}
        </p>
        {isTracked ? (
          <Badge variant="secondary" className="gap-1">
            <CheckIcon aria-hidden /> tracked
          </Badge>
        ) : (
          <Button
            variant="outline"
            size="sm"
            onClick={() => onTrack(research.term)}
            focusableWhenDisabled
            disabled={tracking !== null}
            data-testid="research-track"
          >
            {tracking === research.term ? <Loader2Icon className="animate-spin" /> : <PlusIcon />}{' '}
            track this term
          </Button>
        )}
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        <EstimateBox
          title="Popularity"
          scale="of 100"
          estimate={research.popularity}
          testId="research-popularity"
        />
        <EstimateBox
          title="Difficulty"
          scale="of 100"
          estimate={research.difficulty}
          testId="research-difficulty"
        />
      </div>
      <p className="flex gap-1.5 text-xs text-muted-foreground">
        <InfoIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
        Estimates from the top results, not Apple&apos;s search volume (which Apple does not
        publish): each signal scores 0-100 and counts by its weight.
      </p>
      <section className="flex flex-col gap-2">
        <h3 className="text-sm font-medium">Top {research.topApps.length} results</h3>
        {research.topApps.length === 0 ? (
          <p className="text-sm text-muted-foreground">The store has no results for this term.</p>
        ) : (
          <ol className="flex flex-col divide-y" data-testid="research-top">
            {research.topApps.map((app, i) => (
              <li
                key={app.appId}
                className="flex items-start gap-3 py-2"
                data-testid="research-app"
                data-app-id={app.appId}
              >
                <span className="w-6 shrink-0 pt-2 text-right text-sm font-semibold tabular-nums">
                  {i + 1}
                </span>
                <AppIcon src={app.iconUrl} name={app.appName} className="size-10 rounded-[22%]" />
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-1.5 text-sm">
                    <span className="font-medium break-words">{app.appName}</span>
                    {app.appId === mine && <Badge>your app</Badge>}
                    {competitorIds.has(app.appId) && <Badge variant="secondary">competitor</Badge>}
                  </p>
                  <p className="flex flex-wrap gap-x-2 text-xs text-muted-foreground">
                    {app.developer && <span className="break-words">{app.developer}</span>}
                    {app.rating !== null && (
                      <span className="inline-flex items-center gap-0.5">
                        <StarIcon className="size-3 fill-current text-warning" aria-hidden />
                        {app.rating.toFixed(1)}
                        {app.ratingCount !== null &&
                          ` (${COMPACT.format(app.ratingCount)} ratings)`}
                      </span>
                    )}
                    <span>{TITLE_MATCH_LABELS[app.titleMatch]}</span>
                    {app.updatedAt && (
                      <span>
                        updated {formatDateTime(app.updatedAt).split(',').slice(0, 2).join(',')}
                      </span>
                    )}
                  </p>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section className="flex flex-col gap-2" data-testid="research-suggestions">
        <h3 className="text-sm font-medium">Suggestions</h3>
        {research.hintsEmpty && (
          <p className="text-xs text-muted-foreground" data-testid="hints-empty">
            The store&apos;s search hints gave nothing for this term (they often answer empty): no
            suggestion comes from them.
          </p>
        )}
        {research.suggestions.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No suggestions yet: watch competitors in this storefront, or audit this app with its
            keywords, to get some.
          </p>
        ) : (
          <ul className="flex flex-wrap gap-2">
            {research.suggestions.map((s) => (
              <li key={s.term}>
                <button
                  type="button"
                  onClick={() => onResearch(s.term)}
                  className="inline-flex flex-col items-start rounded-md border px-2.5 py-1 text-left text-sm outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
                  data-testid="research-suggestion"
                  data-source={s.source}
                >
                  <span>
                    <span className="sr-only">research </span>
                    {s.term}
                  </span>
                  <span className="text-[11px] text-muted-foreground">
                    from {SUGGESTION_SOURCE_LABELS[s.source]}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/**
 * Research of a term in the storefront (docs/product.md#keywords): a term box, then for a read
 * term its result count, the popularity and difficulty estimates (always labelled "estimate",
 * with their signals), the top 10 with icons (a placeholder when none is stored) and the
 * suggestions with their source; a term never read shows "first read queued" and is asked
 * again until its read is in. `request` is the term asked for (the table's "research" sets it).
 */
export function ResearchPanel({
  appId,
  storefront,
  request,
  onRequest,
  tracked,
  competitorIds,
  headingRef,
}: {
  appId: string;
  storefront: string;
  request: TResearchRequest | null;
  onRequest: (request: TResearchRequest) => void;
  tracked: ReadonlySet<string>;
  competitorIds: ReadonlySet<string>;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const queryClient = useQueryClient();
  const fieldId = useId();
  const [text, setText] = useState(request?.term ?? '');
  // A term asked for from elsewhere (the table's "research", a suggestion) fills the box.
  const [shown, setShown] = useState(request);
  if (request !== shown) {
    setShown(request);
    if (request) setText(request.term);
  }
  const research = useQuery(
    keywordResearchQuery(request?.term ?? '', storefront, appId, request?.pollUntil ?? 0),
  );
  const data = research.data;
  const queued = data !== undefined && 'queued' in data;
  // The wait for a queued read runs out at `pollUntil`: the panel then offers to ask again.
  const [expired, setExpired] = useState<number | null>(null);
  useEffect(() => {
    if (!queued || !request) return;
    const timer = setTimeout(
      () => setExpired(request.pollUntil),
      Math.max(0, request.pollUntil - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [queued, request]);
  const gaveUp = queued && request !== null && expired === request.pollUntil;
  const track = useMutation({
    mutationFn: (term: string) => trackKeywords(appStoreUrlOf(appId, storefront), [term]),
    onSuccess: (_, term) => {
      toast({ title: 'Tracking', description: `“${term}” added: its rank shows in the table.` });
      void queryClient.invalidateQueries({ queryKey: KEYWORDS_KEY });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Track Failed',
        description: serverMessage(err, 'Could not track this term. Please try again.'),
      }),
  });
  const ask = (term: string) => {
    const next = researchRequest(term);
    if (next.term === '') return;
    onRequest(next);
    // A term asked again (after a queued wait ran out, or to read a newer answer) is fetched.
    if (next.term === request?.term) void research.refetch();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    ask(text);
  };
  return (
    <Card data-testid="research-panel">
      <CardHeader>
        <CardTitle ref={headingRef} tabIndex={-1} className="focus-target text-lg">
          Research a term
        </CardTitle>
        <CardDescription>
          Who ranks in the top 10 for a term, how popular and how hard it is (estimates), and
          related terms.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end" noValidate>
          <div className="flex flex-1 flex-col gap-2">
            <Label htmlFor={fieldId}>Term to research</Label>
            <Input
              id={fieldId}
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="e.g. habit tracker"
              maxLength={1000}
              data-testid="research-input"
            />
          </div>
          <Button
            type="submit"
            variant="secondary"
            focusableWhenDisabled
            disabled={text.trim() === '' || research.isFetching}
            data-testid="research-submit"
          >
            {research.isFetching && !queued ? (
              <Loader2Icon className="animate-spin" />
            ) : (
              <SearchIcon />
            )}
            research
          </Button>
        </form>
        <div aria-live="polite" className={cn(!request && 'hidden')}>
          {!request ? null : research.isPending ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
              <Loader2Icon className="size-4 animate-spin" aria-hidden /> Researching &ldquo;
              {request.term}&rdquo;...
            </p>
          ) : research.isError ? (
            <ErrorState
              error={research.error}
              what={`the research of “${request.term}”`}
              onRetry={() => void research.refetch()}
            />
          ) : queued ? (
            <div
              className="flex flex-col items-start gap-2 rounded-lg border border-dashed px-4 py-4 text-sm"
              data-testid="research-queued"
            >
              {gaveUp ? (
                <>
                  <p>
                    &ldquo;{request.term}&rdquo; has not been read yet: search reads wait their turn
                    under the store&apos;s rate limit.
                  </p>
                  <Button variant="outline" size="sm" onClick={() => ask(request.term)}>
                    ask again
                  </Button>
                </>
              ) : (
                <p className="flex items-center gap-2">
                  <Loader2Icon className="size-4 shrink-0 animate-spin" aria-hidden />
                  <span>
                    First read queued: the store&apos;s results for &ldquo;{request.term}&rdquo; are
                    read at {formatClock(data.expectedBy)} at the earliest; this panel fills in by
                    itself.
                  </span>
                </p>
              )}
            </div>
          ) : data ? (
            <ResearchResult
              research={data}
              mine={appId}
              competitorIds={competitorIds}
              tracked={tracked}
              onTrack={(term) => track.mutate(term)}
              onResearch={ask}
              tracking={track.isPending ? (track.variables ?? null) : null}
            />
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
