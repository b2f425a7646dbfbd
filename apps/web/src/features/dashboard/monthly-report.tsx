import {
  ALL_SOURCES,
  CONVERSION_RATES,
  conversionRateLabel,
  formatCount,
  formatPercent,
  getSource,
} from '@aso/analytics';
import type { TMonthlyReport, TTrafficSourceId } from '@aso/contracts';
import { CalendarRange } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';

/**
 * Segment colours of the composition bar, one per source: the theme's `--chart-*` tokens,
 * each dark enough for the white segment labels (4.5:1, WCAG 2.1 AA).
 */
const SOURCE_COLORS: Record<TTrafficSourceId, string> = {
  search: 'var(--chart-search)',
  browse: 'var(--chart-browse)',
  app_referrer: 'var(--chart-app-referrer)',
  web_referrer: 'var(--chart-web-referrer)',
  institutional_purchase: 'var(--chart-institutional-purchase)',
  unavailable: 'var(--chart-unavailable)',
  event_notification: 'var(--chart-event-notification)',
};

/**
 * 'Download Composition' (docs/product.md#dashboard-sections and #dashboard-computation): each
 * source's share of total downloads as one bar; labels only on segments above 15%; not shown when
 * total downloads are 0.
 */
export function CompositionBar({
  composition,
}: {
  composition: NonNullable<TMonthlyReport['composition']>;
}) {
  return (
    <div className="flex flex-col gap-3" data-testid="download-composition">
      <h3 className="text-sm font-semibold">Download Composition</h3>
      <div
        className="flex h-9 w-full overflow-hidden rounded-md border"
        role="img"
        aria-label="Share of total downloads by source"
      >
        {composition.segments.map((s) => (
          <div
            key={s.id}
            className="flex h-full min-w-0 items-center justify-center overflow-hidden text-[11px] font-medium whitespace-nowrap text-white"
            style={{ width: `${s.share}%`, backgroundColor: SOURCE_COLORS[s.id] }}
            title={`${s.name}: ${formatPercent(s.share)} (${formatCount(s.totalDownloads)})`}
            data-testid={`composition-${s.id}`}
          >
            {s.showLabel && (
              <span className="truncate px-1" data-testid="composition-label">
                {getSource(s.id).label} {formatPercent(s.share)}
              </span>
            )}
          </div>
        ))}
      </div>
      <ul className="flex flex-wrap gap-x-4 gap-y-1.5 text-xs text-muted-foreground">
        {composition.segments.map((s) => (
          <li key={s.id} className="flex items-center gap-1.5">
            <span
              className="size-2.5 rounded-sm"
              style={{ backgroundColor: SOURCE_COLORS[s.id] }}
            />
            <span className="text-foreground">{s.name}</span>
            <span>
              {formatPercent(s.share)} · {formatCount(s.totalDownloads)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The 'Monthly Report' (docs/product.md#dashboard-sections and #dashboard-computation): total
 * downloads per source and month for the seven sources, the month's total downloads, first-time
 * downloads and impressions with the first-time conversion rate computed from those two (the rate
 * of the KPI card), a range total row, and the composition bar; 'No data available' or 'No date field found' instead
 * when they apply.
 */
export function MonthlyReport({ report }: { report: TMonthlyReport }) {
  return (
    <Card data-testid="monthly-report">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <CalendarRange className="size-4 text-primary" /> Monthly Report
        </CardTitle>
        <CardDescription>
          Total downloads (first-time downloads + redownloads) by source and month in the applied
          range.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {report.status !== 'ok' ? (
          <p className="rounded-lg border border-dashed bg-muted/20 px-4 py-8 text-center text-sm text-muted-foreground">
            {report.message}
          </p>
        ) : (
          <>
            <p
              className="mb-2 text-xs text-muted-foreground lg:hidden print:hidden"
              data-testid="scroll-hint"
            >
              Swipe sideways to see every column →
            </p>
            <Table
              scrollLabel="Monthly report table"
              className="text-[13px] [&_td]:px-2 [&_th]:px-2"
            >
              <TableHeader>
                <TableRow>
                  <TableHead>Month</TableHead>
                  <TableHead className="text-right">Days</TableHead>
                  {ALL_SOURCES.map((s) => (
                    <TableHead
                      key={s.id}
                      className="max-w-24 text-right leading-tight whitespace-normal"
                    >
                      {s.label}
                    </TableHead>
                  ))}
                  <TableHead className="max-w-24 text-right leading-tight whitespace-normal">
                    Total Downloads
                  </TableHead>
                  <TableHead className="max-w-24 text-right leading-tight whitespace-normal">
                    First-Time Downloads
                  </TableHead>
                  <TableHead className="text-right">Impressions</TableHead>
                  <TableHead
                    className="max-w-28 text-right leading-tight whitespace-normal"
                    title={conversionRateLabel('conversionRate')}
                  >
                    {CONVERSION_RATES.conversionRate.name}
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {report.months.map((m) => (
                  <TableRow key={m.month} data-testid={`monthly-row-${m.month}`}>
                    <TableCell className="font-medium">{m.label}</TableCell>
                    <TableCell className="text-right tabular-nums">{m.days}</TableCell>
                    {ALL_SOURCES.map((s) => (
                      <TableCell key={s.id} className="text-right tabular-nums">
                        {formatCount(m.sources[s.id].totalDownloads)}
                      </TableCell>
                    ))}
                    <TableCell className="text-right font-medium tabular-nums">
                      {formatCount(m.totals.totalDownloads)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatCount(m.totals.firstTimeDownloads)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatCount(m.totals.impressions)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatPercent(m.totals.conversionRate)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
              <TableFooter>
                <TableRow>
                  <TableCell>Total</TableCell>
                  <TableCell />
                  {ALL_SOURCES.map((s) => (
                    <TableCell key={s.id} className="text-right tabular-nums">
                      {formatCount(report.sources[s.id].totalDownloads)}
                    </TableCell>
                  ))}
                  <TableCell
                    className="text-right tabular-nums"
                    data-testid="monthly-total-downloads"
                  >
                    {formatCount(report.totals.totalDownloads)}
                  </TableCell>
                  <TableCell
                    className="text-right tabular-nums"
                    data-testid="monthly-total-first-time-downloads"
                  >
                    {formatCount(report.totals.firstTimeDownloads)}
                  </TableCell>
                  <TableCell
                    className="text-right tabular-nums"
                    data-testid="monthly-total-impressions"
                  >
                    {formatCount(report.totals.impressions)}
                  </TableCell>
                  <TableCell
                    className="text-right tabular-nums"
                    data-testid="monthly-total-conversion-rate"
                  >
                    {formatPercent(report.totals.conversionRate)}
                  </TableCell>
                </TableRow>
              </TableFooter>
            </Table>
            <p className="text-xs text-muted-foreground" data-testid="monthly-rate-note">
              {CONVERSION_RATES.conversionRate.name} = First-Time Downloads / Impressions of the
              same row, the rate of the KPI report; Total Downloads add redownloads.
            </p>
            {report.composition && <CompositionBar composition={report.composition} />}
          </>
        )}
      </CardContent>
    </Card>
  );
}
