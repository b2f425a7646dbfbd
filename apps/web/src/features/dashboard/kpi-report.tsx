import { formatCount, formatPercent } from '@aso/analytics';
import type { TChangeFlag, TKpiReport, TSourceReport } from '@aso/contracts';
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
import { rangeLabel } from './date-range.rules';

/** What a source without data shows in place of a figure (spec section 5: "A source with no data shows a dash"). */
export const NO_DATA_DASH = '—';

/** The Up / Down / Stable flag of spec section 9 with its change in percent. */
export function ChangeBadge({
  flag,
  change,
  testId,
}: {
  flag: TChangeFlag;
  change: number;
  testId?: string;
}) {
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
      {flag} {formatPercent(change, { signed: true })}
    </Badge>
  );
}

function KpiCard({
  title,
  icon,
  value,
  flag,
  change,
  previous,
  footnote,
  testId,
}: {
  title: string;
  icon: ReactNode;
  value: string;
  flag: TChangeFlag;
  change: number;
  previous: string;
  footnote?: string;
  testId: string;
}) {
  return (
    <Card className="gap-3" data-testid={testId}>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardDescription className="font-medium text-foreground/80">{title}</CardDescription>
        <span className="flex size-8 items-center justify-center rounded-md bg-primary/10 text-primary [&>svg]:size-4">
          {icon}
        </span>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <p
          className="text-3xl font-semibold tracking-tight tabular-nums"
          data-testid={`${testId}-value`}
        >
          {value}
        </p>
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <ChangeBadge flag={flag} change={change} testId={`${testId}-flag`} />
          <span>vs previous period ({previous})</span>
        </div>
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
  flag,
  testId,
}: {
  source: TSourceReport;
  value: string;
  flag?: { flag: TChangeFlag; change: number };
  testId: string;
}) {
  return (
    <div className="flex flex-col gap-1.5 rounded-lg border bg-card p-4" data-testid={testId}>
      <p className="text-xs font-medium text-muted-foreground">{source.name}</p>
      <p className="text-xl font-semibold tabular-nums" data-testid={`${testId}-value`}>
        {value}
      </p>
      {source.hasData && flag && <ChangeBadge flag={flag.flag} change={flag.change} />}
    </div>
  );
}

/**
 * The 'KPI report' (spec section 2): totals cards with the change against the previous period,
 * the Performance Overview, First-Time Downloads by Source (commentary and ranking sentence),
 * Impressions by Source, Conversion Rate by Source and the Executive Summary. Every figure and
 * sentence comes from `buildKpiReport` of `@aso/analytics`.
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

      <div className="grid gap-4 md:grid-cols-3">
        <KpiCard
          title="Total Downloads"
          icon={<Download />}
          value={formatCount(t.current.totalDownloads)}
          flag={t.flags.totalDownloads}
          change={t.changes.totalDownloads}
          previous={formatCount(t.previous.totalDownloads)}
          testId="kpi-total-downloads"
        />
        <KpiCard
          title="Total Impressions"
          icon={<Eye />}
          value={formatCount(t.current.impressions)}
          flag={t.flags.impressions}
          change={t.changes.impressions}
          previous={formatCount(t.previous.impressions)}
          testId="kpi-total-impressions"
        />
        <KpiCard
          title="Total Average Conversion Rate"
          icon={<Percent />}
          value={formatPercent(t.current.conversionRate)}
          flag={t.flags.conversionRate}
          change={t.changes.conversionRate}
          previous={formatPercent(t.previous.conversionRate)}
          footnote={`First-time downloads / impressions. Apple's definition (total downloads / impressions): ${formatPercent(t.current.appleConversionRate)}.`}
          testId="kpi-conversion-rate"
        />
      </div>

      <Card className="gap-3">
        <CardHeader>
          <CardTitle className="text-base">Performance Overview</CardTitle>
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
                  <p
                    className="text-2xl font-semibold tabular-nums"
                    data-testid={`ftd-${s.id}-value`}
                  >
                    {s.hasData ? formatCount(s.current.firstTimeDownloads) : NO_DATA_DASH}
                  </p>
                  {s.hasData && (
                    <span className="text-xs text-muted-foreground">
                      {formatPercent(s.shareOfFirstTimeDownloads)} of first-time downloads
                    </span>
                  )}
                </div>
                {s.hasData && (
                  <ChangeBadge
                    flag={s.flags.firstTimeDownloads}
                    change={s.changes.firstTimeDownloads}
                  />
                )}
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
                flag={{ flag: s.flags.impressions, change: s.changes.impressions }}
                testId={`impressions-${s.id}`}
              />
            ))}
          </div>
        </div>
        <div className="flex flex-col gap-3">
          <SubHeading>Conversion Rate by Source</SubHeading>
          <div className="grid grid-cols-2 gap-3">
            {report.sources.map((s) => (
              <SourceTile
                key={s.id}
                source={s}
                value={s.hasData ? formatPercent(s.current.conversionRate) : NO_DATA_DASH}
                flag={{ flag: s.flags.conversionRate, change: s.changes.conversionRate }}
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
          <CardTitle className="flex items-center gap-2 text-base">
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
