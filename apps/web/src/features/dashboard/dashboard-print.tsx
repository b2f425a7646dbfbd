/**
 * A saved dashboard laid out for its PDF report (`/print/dashboard/:id`, loaded lazily with
 * echarts): its title, the chart of its saved metrics, the traffic-source charts, the KPI
 * report with the executive summary and the monthly report, over its saved date range. The
 * root says `data-print-state` ready or error once it can be printed.
 */
import { buildKpiReport, formatCount } from '@aso/analytics';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useParams } from 'react-router';
import { AnalyticsChartCard } from './analytics-chart-card';
import { chartDataQuery, dashboardConfig, dashboardsQuery } from './dashboard.api';
import { describeDataset, rowsForRange } from './dataset.rules';
import { rangeLabel } from './date-range.rules';
import { KpiReport } from './kpi-report';
import { MonthlyReport } from './monthly-report';
import { SourcePerformance } from './source-performance';

const noop = () => undefined;

export default function DashboardPrint() {
  const { id = '' } = useParams();
  const list = useQuery(dashboardsQuery());
  const dashboard = list.data?.find((d) => d.id === id) ?? null;
  const config = dashboard ? dashboardConfig(dashboard) : null;
  const chart = useQuery({ ...chartDataQuery(config?.downloadId ?? ''), enabled: config !== null });
  const rows = useMemo(() => chart.data ?? [], [chart.data]);
  const info = useMemo(() => describeDataset(rows), [rows]);
  const range = config?.dateRange ?? info.defaultRange;
  const selected = (config?.selectedMetrics ?? info.defaultMetrics).filter((m) =>
    info.metrics.includes(m),
  );
  const entries = useMemo(() => rowsForRange(rows, range), [rows, range]);
  const report = useMemo(
    () => (rows.length > 0 ? buildKpiReport(rows, range) : null),
    [rows, range],
  );

  const failed = list.isError || (list.isSuccess && (!dashboard || !config)) || chart.isError;
  const state = failed ? 'error' : report ? 'ready' : 'loading';
  useEffect(() => {
    if (dashboard) document.title = `${dashboard.name} dashboard`;
  }, [dashboard]);

  return (
    <div
      className="mx-auto flex w-full max-w-6xl flex-col gap-6 p-6"
      data-testid="dashboard-print"
      data-print-state={state}
    >
      {failed && <p role="alert">This dashboard could not be loaded.</p>}
      {dashboard && report && (
        <>
          <header className="flex flex-col gap-1 border-b pb-4">
            <p className="text-xs font-semibold tracking-widest text-primary uppercase">
              Analytics dashboard report
            </p>
            <h1 className="text-2xl font-semibold tracking-tight">{dashboard.name}</h1>
            <p className="text-sm text-muted-foreground">
              {[dashboard.appName, dashboard.territory].filter(Boolean).join(' · ')} · Applied:{' '}
              {rangeLabel(range)} · {formatCount(report.rowCounts.current)} days of{' '}
              {formatCount(rows.length)}
            </p>
          </header>
          <AnalyticsChartCard
            state={{
              kind: 'ready',
              entries,
              dateColumn: info.dateColumn,
              metrics: info.metrics,
              selected,
              onSelectedChange: noop,
            }}
          />
          <SourcePerformance rows={rows} range={range} report={report} />
          <KpiReport report={report} />
          <MonthlyReport report={report.monthlyReport} />
        </>
      )}
    </div>
  );
}
