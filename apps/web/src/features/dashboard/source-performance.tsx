import { DASHBOARD_SOURCES, buildSourceSeries, type TRowInput } from '@aso/analytics';
import type { TDateRange, TKpiReport } from '@aso/contracts';
import { Activity } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { markedText } from './analytics-chart-card';
import { ChartLegend, toggled } from './chart-legend';
import { SOURCE_LEGEND, buildSourceChartOption, type TChangeMarker } from './chart.options';
import { EChart } from './echart';

/** Source chart height (docs/product.md#dashboard-computation). */
export const SOURCE_CHART_HEIGHT = '16rem';

/**
 * 'Traffic source performance' (docs/product.md#dashboard-sections): one chart per dashboard source
 * (Search, Browse, App Referrer, Web Referrer) over the applied range, 'No data available' when the
 * source has no data in it. Each chart's legend hides or shows its series.
 */
export function SourcePerformance({
  rows,
  range,
  report,
  markers = NO_MARKERS,
}: {
  rows: readonly TRowInput[];
  range: TDateRange;
  /** The KPI report of the same rows and range: its `hasData` per source decides 'No data available'. */
  report: TKpiReport;
  /** Listing changes of the dashboard's watched app, drawn on their days. */
  markers?: readonly TChangeMarker[];
}) {
  const charts = useMemo(
    () =>
      DASHBOARD_SOURCES.map((source) => {
        const points = buildSourceSeries(rows, source.id, range);
        const hasData = report.sources.find((s) => s.id === source.id)?.hasData ?? false;
        return { source, points, empty: points.length === 0 || !hasData };
      }),
    [rows, range, report],
  );

  return (
    <section className="flex flex-col gap-3" aria-labelledby="traffic-source-performance">
      <div className="flex items-center gap-2">
        <Activity className="size-4 text-primary" />
        <h2 id="traffic-source-performance" className="text-lg font-semibold">
          Traffic source performance
        </h2>
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {charts.map(({ source, points, empty }) => (
          <Card key={source.id} className="gap-3" data-testid={`source-chart-${source.id}`}>
            <CardHeader>
              <CardTitle as="h3" className="text-sm">
                {source.label}
              </CardTitle>
              <CardDescription className="text-xs">
                First-time downloads and impressions (left axis), conversion rate % (right axis)
              </CardDescription>
            </CardHeader>
            <CardContent>
              {empty ? (
                <div
                  className="flex items-center justify-center rounded-lg border border-dashed bg-muted/20 text-sm text-muted-foreground"
                  style={{ height: SOURCE_CHART_HEIGHT }}
                >
                  No data available
                </div>
              ) : (
                <SourceChart
                  name={source.label}
                  points={points}
                  markers={markers}
                  label={`${source.label}: first-time downloads, impressions and conversion rate by day${markedText(markers.filter((m) => points.some((p) => p.date === m.day)))}`}
                />
              )}
            </CardContent>
          </Card>
        ))}
      </div>
    </section>
  );
}

const NO_MARKERS: readonly TChangeMarker[] = [];

function SourceChart({
  name,
  points,
  markers,
  label,
}: {
  name: string;
  points: ReturnType<typeof buildSourceSeries>;
  markers: readonly TChangeMarker[];
  label: string;
}) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const option = useMemo(
    () => buildSourceChartOption(points, markers, hidden),
    [points, markers, hidden],
  );
  return (
    <div className="flex flex-col gap-2">
      <ChartLegend
        label={`${name} chart legend`}
        items={SOURCE_LEGEND}
        hidden={hidden}
        onToggle={(series) => setHidden((h) => toggled(h, series))}
      />
      <EChart option={option} height={SOURCE_CHART_HEIGHT} label={label} />
    </div>
  );
}
