/**
 * "Change impact": the listing changes of the dashboard's watched app (`mine`) and, for each,
 * daily first-time downloads, impressions and conversion rate per source in the N days before
 * and after it (N = 7, 14 or 28), the before window's noise band and a verdict only where the
 * after mean leaves it (`buildChangeImpact` of `@aso/analytics`). The words say what the
 * figures did after a change, never that the change caused it. Figures imported from App
 * Store Connect find their listing by the app's Apple id (and offer to watch it when no
 * listing of that id is watched); an upload's, by name and territory or the user's choice.
 */
import {
  IMPACT_METRIC_LABELS,
  IMPACT_VERDICT_LABELS,
  IMPACT_WINDOW_DAYS,
  NOISE_BAND_K,
  buildChangeImpact,
  formatDay,
  formatPercent,
  formatPoints,
  getSource,
  type TChangeImpact,
  type TImpactFigure,
  type TImpactWindowDays,
  type TRowInput,
} from '@aso/analytics';
import { changeFieldLabel, isAppStoreStorefront, type TDateRange } from '@aso/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Eye, GitCompareArrows, Loader2 } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, LoadingRows } from '@/components/list-states';
import { WATCHLIST_KEY, watchApp } from '@/features/watchlist/watch.api';
import { storefrontName, timelinePath, watchItemName } from '@/features/watchlist/watch.helpers';
import { MARKER_COLOR } from './chart.options';
import type { TDashboardChanges } from './dashboard-changes';
import type { TOpenAscDashboard } from './dashboard.store';

/** The rule of the verdicts, as the card states it. */
export const IMPACT_RULE_TEXT =
  `Noise band: the mean of the before window's daily values ± ${NOISE_BAND_K} standard deviations. ` +
  'A verdict is given only when the after window’s daily mean lies outside the band and the data covers every day of both windows; ' +
  'the days between the last read showing the old listing and the first showing the new one are left out. ' +
  'This shows what the figures did after a change, not that the change caused it: featuring, ads, seasonality and competitors move them too.';

function rangeText(range: TDateRange): string {
  return range.start === range.end
    ? formatDay(range.start)
    : `${formatDay(range.start)} – ${formatDay(range.end)}`;
}

function value(figure: TImpactFigure, mean: number | null): string {
  if (mean === null) return '–';
  return figure.metric === 'conversionRate'
    ? formatPercent(mean)
    : mean.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

function change(figure: TImpactFigure): string {
  const { before, after } = figure;
  if (before.mean === null || after.mean === null) return '–';
  if (figure.metric === 'conversionRate') return formatPoints(after.mean - before.mean);
  return figure.changePct === null ? '–' : formatPercent(figure.changePct, { signed: true });
}

function band(figure: TImpactFigure): string {
  if (!figure.band) return '–';
  return `${value(figure, Math.max(0, figure.band.low))} – ${value(figure, figure.band.high)}`;
}

function Verdict({ figure, windowDays }: { figure: TImpactFigure; windowDays: number }) {
  if (figure.verdict === null) {
    return (
      <span className="text-xs text-muted-foreground">
        no verdict: data covers {figure.before.days}/{windowDays} days before, {figure.after.days}/
        {windowDays} after
      </span>
    );
  }
  const variant =
    figure.verdict === 'better'
      ? 'success'
      : figure.verdict === 'worse'
        ? 'destructive'
        : 'outline';
  return (
    <Badge variant={variant} data-testid="impact-verdict" data-verdict={figure.verdict}>
      {IMPACT_VERDICT_LABELS[figure.verdict]}
    </Badge>
  );
}

function ImpactTable({ impact }: { impact: TChangeImpact }) {
  return (
    <div
      className="overflow-x-auto"
      role="region"
      aria-label="Change impact figures, scrolls sideways"
      tabIndex={0}
    >
      <table className="w-full min-w-[44rem] text-sm">
        <thead>
          <tr className="border-b text-left text-xs text-muted-foreground">
            <th className="py-2 pr-3 font-medium">Source</th>
            <th className="py-2 pr-3 font-medium">Figure (per day)</th>
            <th className="py-2 pr-3 text-right font-medium">Before</th>
            <th className="py-2 pr-3 text-right font-medium">After</th>
            <th className="py-2 pr-3 text-right font-medium">Change</th>
            <th className="py-2 pr-3 text-right font-medium">Noise band</th>
            <th className="py-2 font-medium">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {impact.scopes.flatMap((scope) =>
            scope.figures.map((figure, i) => (
              <tr
                key={`${scope.scope}-${figure.metric}`}
                className={i === 0 ? 'border-t' : undefined}
                data-testid="impact-row"
                data-scope={scope.scope}
                data-metric={figure.metric}
              >
                <td className="py-1.5 pr-3 align-top font-medium">
                  {i === 0
                    ? scope.scope === 'total'
                      ? 'All sources'
                      : getSource(scope.scope).label
                    : ''}
                </td>
                <td className="py-1.5 pr-3">{IMPACT_METRIC_LABELS[figure.metric]}</td>
                <td className="py-1.5 pr-3 text-right tabular-nums">
                  {value(figure, figure.before.mean)}
                </td>
                <td className="py-1.5 pr-3 text-right tabular-nums">
                  {value(figure, figure.after.mean)}
                </td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{change(figure)}</td>
                <td className="py-1.5 pr-3 text-right text-muted-foreground tabular-nums">
                  {band(figure)}
                </td>
                <td className="py-1.5">
                  <Verdict figure={figure} windowDays={impact.windowDays} />
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}

function AppPicker({ changes }: { changes: TDashboardChanges }) {
  const id = useId();
  const { item, candidates } = changes;
  const keyOf = (w: { appId: string; storefront: string }) => `${w.appId}:${w.storefront}`;
  return (
    <div className="flex flex-col gap-1.5 sm:flex-row sm:items-center sm:gap-3">
      <label htmlFor={id} className="text-sm font-medium">
        This data is about
      </label>
      <select
        id={id}
        className="h-9 rounded-md border bg-card px-2 text-sm"
        value={item ? keyOf(item) : ''}
        onChange={(e) => {
          const picked = candidates.find((w) => keyOf(w) === e.target.value);
          changes.choose(picked ? { appId: picked.appId, storefront: picked.storefront } : null);
        }}
        data-testid="impact-app-picker"
      >
        {!item && (
          <option value="">
            {changes.subject.kind === 'asc'
              ? 'choose one of its watched storefronts…'
              : 'choose one of your watched apps…'}
          </option>
        )}
        {candidates.map((w) => (
          <option key={w.id} value={keyOf(w)}>
            {watchItemName(w)} ({storefrontName(w.storefront)})
          </option>
        ))}
      </select>
    </div>
  );
}

/** What the card says about imported figures' app. */
type TOpenAscDashboardRef = Pick<TOpenAscDashboard, 'appId' | 'appName' | 'territory'>;

/**
 * Imported figures whose app no watched `mine` listing has: offers to watch it as the user's
 * own, in the territory filter's storefront (or the United States'), by its Apple id.
 */
function WatchImportedApp({ appId, appName, territory }: TOpenAscDashboardRef) {
  const queryClient = useQueryClient();
  const storefront = territory && isAppStoreStorefront(territory) ? territory.toLowerCase() : 'us';
  const watch = useMutation({
    mutationFn: () =>
      watchApp({
        appStoreUrl: `https://apps.apple.com/${storefront}/app/id${appId}`,
        role: 'mine',
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: WATCHLIST_KEY }),
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Watch Failed',
        description: serverMessage(err, 'Could not watch the app. Please try again.'),
      }),
  });
  return (
    <div
      className="flex flex-col items-center gap-3 rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground"
      data-testid="impact-no-app"
    >
      <p>
        Watch {appName} (Apple ID {appId}) as “my app” to see its listing changes here and on the
        charts: the imported figures are linked to its watched listings by that id.
      </p>
      <Button
        variant="outline"
        size="sm"
        onClick={() => watch.mutate()}
        disabled={watch.isPending}
        focusableWhenDisabled
        data-testid="impact-watch-app"
      >
        {watch.isPending ? <Loader2 className="animate-spin" /> : <Eye />}
        watch {appName} ({storefrontName(storefront)})
      </Button>
    </div>
  );
}

/** The "Change impact" card of a dashboard. */
export function ChangeImpactCard({
  rows,
  changes,
  appName,
  territory,
}: {
  rows: readonly TRowInput[];
  changes: TDashboardChanges;
  /** The export's (or imported app's) name and territory, to explain the choice of app. */
  appName: string | null;
  territory: string | null;
}) {
  const [windowDays, setWindowDays] = useState<TImpactWindowDays>(14);
  const groupName = useId();
  const { subject, item, how, watchlist, history, events } = changes;
  const impacts = useMemo(
    () => (events.length > 0 ? buildChangeImpact(rows, events, windowDays) : []),
    [rows, events, windowDays],
  );

  let body;
  if (watchlist.isPending) body = <LoadingRows rows={2} />;
  else if (watchlist.isError)
    body = (
      <ErrorState
        error={watchlist.error}
        what="your watchlist"
        onRetry={() => void watchlist.refetch()}
      />
    );
  else if (changes.candidates.length === 0 && subject.kind === 'asc')
    body = <WatchImportedApp {...subject.asc} />;
  else if (changes.candidates.length === 0)
    body = (
      <p
        className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground"
        data-testid="impact-no-app"
      >
        Watch your app as “my app” in the storefront of this data to see its listing changes here.{' '}
        <Link to="/watchlist" className="text-primary underline underline-offset-4">
          Open the watchlist
        </Link>
      </p>
    );
  else if (!item && subject.kind === 'asc')
    body = (
      <p className="text-sm text-muted-foreground" data-testid="impact-choose">
        {subject.asc.appName} is watched in several storefronts: choose the listing whose changes to
        show.
      </p>
    );
  else if (!item)
    body = (
      <p className="text-sm text-muted-foreground" data-testid="impact-choose">
        App Store Connect exports name the app
        {appName ? ` (${appName}${territory ? `, ${territory}` : ''})` : ''} but not its App Store
        id: choose which of your watched apps this data is about.
      </p>
    );
  else if (history.isPending) body = <LoadingRows rows={3} />;
  else if (history.isError)
    body = (
      <ErrorState
        error={history.error}
        what="the listing changes"
        onRetry={() => void history.refetch()}
      />
    );
  else if (events.length === 0)
    body = (
      <p
        className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground"
        data-testid="impact-no-changes"
      >
        No listing change of {watchItemName(item)} found yet. Each change shows here, and on the
        charts, once a daily read finds it.
      </p>
    );
  else
    body = (
      <ol className="flex flex-col gap-6" data-testid="impact-list">
        {impacts.map((impact, i) => {
          const event = events[i]!;
          return (
            <li
              key={impact.eventId}
              className="flex flex-col gap-2 border-l-2 pl-4"
              style={{ borderColor: MARKER_COLOR }}
              data-testid="impact-change"
            >
              <h3 className="font-semibold break-words">
                {event.fields.map(changeFieldLabel).join(', ')}
              </h3>
              <p className="text-xs text-muted-foreground">
                Found {formatDay(event.firstSeenAfter)}. Before: {rangeText(impact.before)} · after:{' '}
                {rangeText(impact.after)} · left out: {rangeText(impact.excluded)}
              </p>
              {!impact.complete && (
                <p className="text-xs text-muted-foreground" data-testid="impact-partial">
                  The data covers these windows only in part: figures with a missing day get no
                  verdict.
                </p>
              )}
              {impact.overlapping.length > 0 && (
                <p className="flex items-start gap-1.5 text-xs" data-testid="impact-overlap">
                  <AlertTriangle className="mt-0.5 size-3.5 shrink-0 text-warning" aria-hidden />
                  Another listing change falls in these windows: the figures mix both.
                </p>
              )}
              <ImpactTable impact={impact} />
            </li>
          );
        })}
      </ol>
    );

  return (
    <Card data-testid="change-impact">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <GitCompareArrows className="size-5 text-primary" aria-hidden /> Change impact
        </CardTitle>
        <CardDescription>
          Your listing changes, marked on the charts above, with daily first-time downloads,
          impressions and conversion rate in the days before and after each.
          {item && (
            <>
              {' '}
              Changes of{' '}
              <Link to={timelinePath(item)} className="text-primary underline underline-offset-4">
                {watchItemName(item)}
              </Link>{' '}
              ({storefrontName(item.storefront)})
              {how === 'matched'
                ? ', matched by name and territory.'
                : how === 'by-id'
                  ? ', found by its Apple ID.'
                  : '.'}
            </>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {changes.candidates.length > 0 && (
          <div className="flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
            <AppPicker changes={changes} />
            <fieldset className="flex items-center gap-2">
              <legend className="sr-only">Days before and after each change</legend>
              <span className="text-sm font-medium" aria-hidden>
                Window
              </span>
              <div className="inline-flex rounded-md border p-0.5">
                {IMPACT_WINDOW_DAYS.map((n) => (
                  <label
                    key={n}
                    className="cursor-pointer rounded px-2.5 py-1 text-sm has-[:checked]:bg-primary has-[:checked]:text-primary-foreground has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50"
                  >
                    <input
                      type="radio"
                      name={groupName}
                      value={n}
                      checked={windowDays === n}
                      onChange={() => setWindowDays(n)}
                      className="sr-only"
                      data-testid={`impact-window-${n}`}
                    />
                    {n} days
                  </label>
                ))}
              </div>
            </fieldset>
          </div>
        )}
        {body}
        <p className="text-xs text-muted-foreground" data-testid="impact-rule">
          {IMPACT_RULE_TEXT}
        </p>
      </CardContent>
    </Card>
  );
}
