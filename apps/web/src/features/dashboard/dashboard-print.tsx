/**
 * A saved dashboard laid out for its PDF report (`/print/dashboard/:id`, loaded lazily with
 * echarts): its title, the chart of its saved metrics, the traffic-source charts, the KPI
 * report with the executive summary and the monthly report, over its saved date range; for a
 * dashboard on imported App Store Connect figures, those figures read now with its saved
 * filters. The root says `data-print-state` ready or error once it can be printed.
 */
import { buildKpiReport, formatCount, type TRowInput } from '@aso/analytics';
import type { TAscDashboardConfig, TCsvDashboardConfig, TKpiReport } from '@aso/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { ProvisionalNotice } from '@/features/asc/provisional-notice';
import { ASC_IMPRESSIONS_NOTE, useAscDashboardData } from '@/features/asc/asc-dashboard-data';
import { AnalyticsChartCard } from './analytics-chart-card';
import {
  chartDataQuery,
  dashboardConfig,
  dashboardsQuery,
  type TSavedDashboard,
} from './dashboard.api';
import { describeDataset, rowsForRange, type TDatasetInfo } from './dataset.helpers';
import { rangeLabel } from './date-range.helpers';
import { KpiReport } from './kpi-report';
import { MonthlyReport } from './monthly-report';
import { SourcePerformance } from './source-performance';

const noop = () => undefined;

/** What the print page has to lay out, whatever the source. */
interface TPrintable {
  dashboard: TSavedDashboard;
  /** Where the figures come from, for the page header ('App Store Connect data' ...). */
  dataLine: string;
  rows: readonly TRowInput[];
  info: TDatasetInfo;
  range: { start: string; end: string };
  selected: string[];
  entries: ReturnType<typeof rowsForRange>;
  report: TKpiReport;
  /** Shown between the header and the chart (notices about the figures). */
  notes?: ReactNode;
}

export default function DashboardPrint() {
  const { id = '' } = useParams();
  const list = useQuery(dashboardsQuery());
  const dashboard = list.data?.find((d) => d.id === id) ?? null;
  const config = dashboard ? dashboardConfig(dashboard) : null;
  if (list.isError || (list.isSuccess && (!dashboard || !config))) return <PrintState failed />;
  if (!dashboard || !config) return <PrintState />;
  return config.createdFrom === 'app_store_connect' ? (
    <AscPrint dashboard={dashboard} config={config} />
  ) : (
    <CsvPrint dashboard={dashboard} config={config} />
  );
}

/** A saved dashboard of an upload's dataset. */
function CsvPrint({
  dashboard,
  config,
}: {
  dashboard: TSavedDashboard;
  config: TCsvDashboardConfig;
}) {
  const chart = useQuery(chartDataQuery(config.downloadId));
  const rows = useMemo(() => chart.data ?? [], [chart.data]);
  const info = useMemo(() => describeDataset(rows), [rows]);
  const range = config.dateRange ?? info.defaultRange;
  const selected = (config.selectedMetrics ?? info.defaultMetrics).filter((m) =>
    info.metrics.includes(m),
  );
  const entries = useMemo(() => rowsForRange(rows, range), [rows, range]);
  const report = useMemo(
    () => (rows.length > 0 ? buildKpiReport(rows, range) : null),
    [rows, range],
  );
  if (chart.isError) return <PrintState failed />;
  if (!report) return <PrintState />;
  return (
    <PrintedDashboard
      printable={{
        dashboard,
        dataLine: 'App Store Connect data',
        rows,
        info,
        range,
        selected,
        entries,
        report,
      }}
    />
  );
}

/** A saved dashboard on imported App Store Connect figures, with its filters. */
function AscPrint({
  dashboard,
  config,
}: {
  dashboard: TSavedDashboard;
  config: TAscDashboardConfig;
}) {
  const data = useAscDashboardData({
    connectionId: config.connectionId,
    appId: config.appId,
    territory: config.territory,
    device: config.device,
    appliedRange: config.dateRange ?? null,
    selectedMetrics: config.selectedMetrics ?? null,
  });
  const { metrics, rows, provisional, info, range, selected, entries, report } = data;
  if (metrics.isError) return <PrintState failed />;
  if (metrics.isSuccess && rows.length === 0)
    return (
      <PrintState ready>
        <h1 className="text-2xl font-semibold tracking-tight">{dashboard.name}</h1>
        <p>No figures have been imported from App Store Connect with these filters yet.</p>
      </PrintState>
    );
  if (!report) return <PrintState />;
  const filters = `${config.territory ?? 'All territories'}, ${config.device ?? 'All devices'}`;
  return (
    <PrintedDashboard
      printable={{
        dashboard,
        dataLine: `Imported from App Store Connect (${filters})`,
        rows,
        info,
        range,
        selected,
        entries,
        report,
        notes: (
          <>
            <ProvisionalNotice dates={provisional} />
            <p className="text-xs text-muted-foreground">{ASC_IMPRESSIONS_NOTE}</p>
          </>
        ),
      }}
    />
  );
}

/** The page's root in a state other than printed content: loading, error, or a short text. */
function PrintState({
  failed = false,
  ready = false,
  children,
}: {
  failed?: boolean;
  ready?: boolean;
  children?: ReactNode;
}) {
  return (
    <div
      className="mx-auto flex w-full max-w-6xl flex-col gap-6 p-6"
      data-testid="dashboard-print"
      data-print-state={failed ? 'error' : ready ? 'ready' : 'loading'}
    >
      {failed && <p role="alert">This dashboard could not be loaded.</p>}
      {children}
    </div>
  );
}

function PrintedDashboard({ printable }: { printable: TPrintable }) {
  const { dashboard, dataLine, rows, info, range, selected, entries, report, notes } = printable;
  useEffect(() => {
    document.title = `${dashboard.name} dashboard`;
    // Read by the render worker for the PDF's page header.
    document.documentElement.dataset.printHeader = [
      dashboard.name,
      dashboard.appName,
      dashboard.territory,
      `${dataLine} ${rangeLabel(range)}`,
    ]
      .filter(Boolean)
      .join(' · ');
  }, [dashboard, dataLine, range]);
  return (
    <div
      className="mx-auto flex w-full max-w-6xl flex-col gap-6 p-6"
      data-testid="dashboard-print"
      data-print-state="ready"
    >
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
        <p className="text-xs text-muted-foreground" data-testid="print-data-line">
          {dataLine}
        </p>
      </header>
      {notes}
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
    </div>
  );
}
