import {
  comparedDaysPhrase,
  CONVERSION_RATES,
  formatCount,
  formatPercent,
  formatPoints,
  isComparable,
  NO_PREVIOUS_DATA,
} from '@aso/analytics';
import type {
  TChangeFlag,
  TKpiReport,
  TMetricsComparison,
  TPeriodChanges,
  TSourceReport,
} from '@aso/contracts';
import {
  ArrowDownRight,
  ArrowRight,
  ArrowUpRight,
  ClipboardList,
  Download,
  Eye,
  Percent,
  Sparkles,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { ConversionRateInfo } from './conversion-rate-info';
import { rangeLabel } from './date-range.helpers';

/**
 * What a source without data shows in place of a figure (docs/product.md#dashboard-computation: "A
 * source with no data shows a dash").
 */
export const NO_DATA_DASH = '—';

/** A metric of a comparison; the two rates are shown in percentage points. */
type TMetric = keyof TPeriodChanges;

/**
 * The Up / Down / Stable flag of docs/product.md#dashboard-computation with its change: percent for
 * counts, percentage points for rates ('+0.2 pp'); 'no data for the previous period' when the
 * previous period has no matching day with data (never a 0% change it did not measure).
 */
export function ChangeBadge({
  comparison,
  metric,
  testId,
}: {
  comparison: TMetricsComparison;
  metric: TMetric;
  testId?: string;
}) {
  if (!isComparable(comparison)) {
    return (
      <Badge
        variant="outline"
        className="font-normal text-muted-foreground"
        data-testid={testId}
        data-flag="none"
      >
        {NO_PREVIOUS_DATA}
      </Badge>
    );
  }
  const flag: TChangeFlag = comparison.flags[metric];
  const change =
    metric === 'conversionRate' || metric === 'appleConversionRate'
      ? formatPoints(comparison.pointChanges[metric])
      : formatPercent(comparison.changes[metric], { signed: true });
  const icon =
    flag === 'Up' ? <ArrowUpRight /> : flag === 'Down' ? <ArrowDownRight /> : <ArrowRight />;
  return (
    <Badge
      variant={flag === 'Up' ? 'success' : flag === 'Down' ? 'destructive' : 'secondary'}
      className={cn(flag === 'Down' && 'border-transparent bg-destructive/10 text-destructive')}
      data-testid={testId}
      data-flag={flag}
    >
      {icon}
      {flag} {change}
    </Badge>
  );
}

/** 'compared on 9 of 30 days' under a figure whose previous period the data covers in part. */
function CoverageNote({ comparison, testId }: { comparison: TMetricsComparison; testId?: string }) {
  const phrase = comparedDaysPhrase(comparison.coverage);
  if (!phrase) return null;
  return (
    <p className="text-xs text-warning-foreground" data-testid={testId}>
      {phrase[0]!.toUpperCase() + phrase.slice(1)}: the previous period has data on{' '}
      {comparison.coverage.days} of its {comparison.coverage.periodDays} days.
    </p>
  );
}

function KpiCard({
  title,
  info,
  icon,
  value,
  comparison,
  metric,
  format,
  footnote,
  testId,
}: {
  title: string;
  /** Shown after the title, e.g. a rate's definition. */
  info?: ReactNode;
  icon: ReactNode;
  value: string;
  comparison: TMetricsComparison;
  metric: TMetric;
  format: (value: number) => string;
  footnote?: string;
  testId: string;
}) {
  const comparable = isComparable(comparison);
  return (
    <Card className="gap-3" data-testid={testId}>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardDescription className="flex items-center gap-1 font-medium text-foreground/80">
          {title}
          {info}
        </CardDescription>
        <span className="flex size-8 items-center justify-center rounded-md bg-primary/10 text-primary [&>svg]:size-4">
          {icon}
        </span>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <div
          className="text-3xl font-semibold tracking-tight tabular-nums"
          data-testid={`${testId}-value`}
        >
          {value}
        </div>
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <ChangeBadge comparison={comparison} metric={metric} testId={`${testId}-flag`} />
          {comparable && (
            <span>
              {comparison.coverage.partial
                ? `${format(comparison.compared[metric])} vs ${format(comparison.previous[metric])} on the matching days`
                : `vs previous period (${format(comparison.previous[metric])})`}
            </span>
          )}
        </div>
        <CoverageNote comparison={comparison} testId={`${testId}-coverage`} />
        {footnote && <p className="text-xs text-muted-foreground">{footnote}</p>}
      </CardContent>
    </Card>
  );
}

function SubHeading({ children }: { children: ReactNode }) {
  return (
    <h3 className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
      {children}
    </h3>
  );
}

function SourceTile({
  source,
  value,
  metric,
  testId,
}: {
  source: TSourceReport;
  value: string;
  metric: TMetric;
  testId: string;
}) {
  return (
    <div className="flex flex-col gap-1.5 rounded-lg border bg-card p-4" data-testid={testId}>
      <p className="text-xs font-medium text-muted-foreground">{source.name}</p>
      <div className="text-xl font-semibold tabular-nums" data-testid={`${testId}-value`}>
        {value}
      </div>
      {source.hasData && <ChangeBadge comparison={source} metric={metric} />}
      {source.hasData && <CoverageNote comparison={source} />}
    </div>
  );
}

/**
 * The 'KPI report' (docs/product.md#dashboard-sections): totals cards with the change against the
 * previous period, the Performance Overview, First-Time Downloads by Source (commentary and ranking
 * sentence), Impressions by Source, First-time conversion rate by source and the Executive Summary.
 * Every figure and sentence comes from `buildKpiReport` of `@aso/analytics`.
 */
export function KpiReport({ report }: { report: TKpiReport }) {
  const t = report.totals;
  return (
    <section
      className="flex flex-col gap-5"
      aria-labelledby="kpi-report-heading"
      data-testid="kpi-report"
    >
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="flex items-center gap-2">
          <ClipboardList className="size-4 text-primary" />
          <h2 id="kpi-report-heading" className="text-lg font-semibold">
            KPI report
          </h2>
        </div>
        <p className="text-xs text-muted-foreground">
          {rangeLabel(report.range)} ({report.range.days} days) compared with{' '}
          {rangeLabel(report.previousRange)}
        </p>
      </div>

      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        <KpiCard
          title="Total Downloads"
          icon={<Download />}
          value={formatCount(t.current.totalDownloads)}
          comparison={t}
          metric="totalDownloads"
          format={formatCount}
          testId="kpi-total-downloads"
        />
        <KpiCard
          title="Total Impressions"
          icon={<Eye />}
          value={formatCount(t.current.impressions)}
          comparison={t}
          metric="impressions"
          format={formatCount}
          testId="kpi-total-impressions"
        />
        <KpiCard
          title={CONVERSION_RATES.conversionRate.name}
          info={<ConversionRateInfo rate="conversionRate" />}
          icon={<Percent />}
          value={formatPercent(t.current.conversionRate)}
          comparison={t}
          metric="conversionRate"
          format={(v) => formatPercent(v)}
          footnote={`${CONVERSION_RATES.conversionRate.formula[0]!.toUpperCase()}${CONVERSION_RATES.conversionRate.formula.slice(1)}: the rate this report judges.`}
          testId="kpi-conversion-rate"
        />
        <KpiCard
          title={CONVERSION_RATES.appleConversionRate.name}
          info={<ConversionRateInfo rate="appleConversionRate" />}
          icon={<Percent />}
          value={formatPercent(t.current.appleConversionRate)}
          comparison={t}
          metric="appleConversionRate"
          format={(v) => formatPercent(v)}
          footnote={`${CONVERSION_RATES.appleConversionRate.formula[0]!.toUpperCase()}${CONVERSION_RATES.appleConversionRate.formula.slice(1)}, as App Store Connect defines it.`}
          testId="kpi-app-store-conversion-rate"
        />
      </div>

      <Card className="gap-3">
        <CardHeader>
          <CardTitle as="h3" className="text-base">
            Performance Overview
          </CardTitle>
        </CardHeader>
        <CardContent>
          <p className="text-sm leading-relaxed" data-testid="performance-overview">
            {report.performanceOverview}
          </p>
        </CardContent>
      </Card>

      <div className="flex flex-col gap-3">
        <SubHeading>First-Time Downloads by Source</SubHeading>
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
          {report.sources.map((s) => (
            <Card key={s.id} className="gap-3" data-testid={`ftd-${s.id}`}>
              <CardHeader>
                <CardDescription className="font-medium text-foreground/80">
                  {s.name}
                </CardDescription>
              </CardHeader>
              <CardContent className="flex flex-col gap-3">
                <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                  <div
                    className="text-2xl font-semibold tabular-nums"
                    data-testid={`ftd-${s.id}-value`}
                  >
                    {s.hasData ? formatCount(s.current.firstTimeDownloads) : NO_DATA_DASH}
                  </div>
                  {s.hasData && (
                    <span className="text-xs text-muted-foreground">
                      {formatPercent(s.shareOfFirstTimeDownloads)} of first-time downloads
                    </span>
                  )}
                </div>
                {s.hasData && <ChangeBadge comparison={s} metric="firstTimeDownloads" />}
                {s.hasData && <CoverageNote comparison={s} />}
                <ul
                  className="flex flex-col gap-1.5 border-t pt-3 text-xs leading-relaxed text-muted-foreground"
                  data-testid={`commentary-${s.id}`}
                >
                  {s.commentary.map((line) => (
                    <li key={line} className="flex gap-1.5">
                      <span className="mt-1.5 size-1 shrink-0 rounded-full bg-primary/60" />
                      <span>{line}</span>
                    </li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          ))}
        </div>
        <p
          className="rounded-lg border bg-accent/40 px-4 py-3 text-sm"
          data-testid="ranking-sentence"
        >
          {report.rankingSentence}
        </p>
      </div>

      <div className="grid gap-5 lg:grid-cols-2">
        <div className="flex flex-col gap-3">
          <SubHeading>Impressions by Source</SubHeading>
          <div className="grid grid-cols-2 gap-3">
            {report.sources.map((s) => (
              <SourceTile
                key={s.id}
                source={s}
                value={s.hasData ? formatCount(s.current.impressions) : NO_DATA_DASH}
                metric="impressions"
                testId={`impressions-${s.id}`}
              />
            ))}
          </div>
        </div>
        <div className="flex flex-col gap-3">
          <div className="flex items-center gap-1">
            <SubHeading>{CONVERSION_RATES.conversionRate.name} by source</SubHeading>
            <ConversionRateInfo rate="conversionRate" />
          </div>
          <div className="grid grid-cols-2 gap-3">
            {report.sources.map((s) => (
              <SourceTile
                key={s.id}
                source={s}
                value={s.hasData ? formatPercent(s.current.conversionRate) : NO_DATA_DASH}
                metric="conversionRate"
                testId={`conversion-${s.id}`}
              />
            ))}
          </div>
        </div>
      </div>

      <Card
        className="gap-3 border-primary/30 bg-gradient-to-br from-accent/60 to-card"
        data-testid="executive-summary"
      >
        <CardHeader>
          <CardTitle as="h3" className="flex items-center gap-2 text-base">
            <Sparkles className="size-4 text-primary" /> Executive Summary
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 text-sm leading-relaxed">
          {report.executiveSummary.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </CardContent>
      </Card>
    </section>
  );
}
