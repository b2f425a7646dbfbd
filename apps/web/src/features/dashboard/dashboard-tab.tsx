/**
 * The dashboard tab's content (docs/product.md#dashboard-tab and #states-and-transitions), loaded
 * lazily by `./index.tsx` so that echarts stays out of the first-load bundle.
 */
import { buildKpiReport, formatCount } from '@aso/analytics';
import { changeFieldLabel, DASHBOARD_NAMING_MESSAGE, type TKpiReport } from '@aso/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BarChart3, Download, FilePlus2, FileSpreadsheet, Loader2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { dismissToasts, toast } from '@/components/ui/use-toast';
import { useFocusOnMount } from '@/hooks/use-focus';
import { ApiError } from '@/lib/api';
import { useMainScreen } from '@/features/shell/main-screen.context';
import { AnalyticsChartCard, CHART_TEXTS, type TChartCardState } from './analytics-chart-card';
import { ChangeImpactCard } from './change-impact-card';
import type { TChangeMarker } from './chart.options';
import { useDashboardChanges } from './dashboard-changes';
import { chartDataQuery, fetchMergedCsv, isExpiredError } from './dashboard.api';
import {
  DashboardPdfButton,
  DashboardToolbar,
  SaveDashboardButton,
  useDashboardSave,
} from './dashboard-toolbar';
import {
  applyRange,
  markSaved,
  setSelectedMetrics,
  showUploadPanel,
  useDashboardState,
  type TOpenDashboard,
} from './dashboard.store';
import { describeDataset, rowsForRange } from './dataset.helpers';
import { DateRangePicker } from './date-range-picker';
import { rangeLabel } from './date-range.helpers';
import { saveBlob } from '@/lib/file-download.helpers';
import { exportRange } from './export-range';
import { KpiReport } from './kpi-report';
import { MonthlyReport } from './monthly-report';
import { openSavedDashboardById } from './open-saved-dashboard';
import { SAVE_TEXTS } from './saved-dashboard.helpers';
import { SourcePerformance } from './source-performance';
import { UploadPanel } from './upload-panel';
import { AscDashboard, DashboardSourcePicker } from '@/features/asc/dashboard-source-picker';

/** The dashboard tab: upload panel, then the analytics dashboard of the open dataset. */
export default function DashboardTabContent() {
  const state = useDashboardState();
  const queryClient = useQueryClient();
  const { requestedDashboard, clearRequestedDashboard } = useMainScreen();
  const handledSeq = useRef(0);

  // A saved dashboard opened from the sidebar arrives as a request with a growing seq; the ref
  // keeps StrictMode's second effect run from opening it twice.
  useEffect(() => {
    if (!requestedDashboard || requestedDashboard.seq === handledSeq.current) return;
    handledSeq.current = requestedDashboard.seq;
    clearRequestedDashboard();
    void openSavedDashboardById(queryClient, requestedDashboard.id);
  }, [requestedDashboard, clearRequestedDashboard, queryClient]);

  return (
    <div
      className="mx-auto flex w-full max-w-7xl flex-col gap-6 p-4 md:p-6"
      data-testid="dashboard-content"
    >
      <header className="flex flex-col gap-1">
        <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
          <BarChart3 className="size-6 text-primary" /> Analytics dashboard
        </h1>
        <p className="text-sm text-muted-foreground">
          Conversion, impressions and downloads by traffic source, from your analytics exports or
          imported from App Store Connect.
        </p>
      </header>
      <DashboardSourcePicker />
      {state.asc ? (
        <AscDashboard.Screen key={`${state.asc.connectionId}/${state.asc.appId}`} asc={state.asc} />
      ) : (
        <>
          {state.showUpload && <UploadPanel canCancel={state.current !== null} />}
          {state.current ? (
            <DashboardView key={state.current.downloadId} current={state.current} />
          ) : (
            <AnalyticsChartCard state={{ kind: 'no-dataset' }} />
          )}
        </>
      )}
    </div>
  );
}

function DashboardView({ current }: { current: TOpenDashboard }) {
  const state = useDashboardState();
  const chartData = useQuery(chartDataQuery(current.downloadId));
  const rows = useMemo(() => chartData.data ?? [], [chartData.data]);
  const info = useMemo(() => describeDataset(rows), [rows]);
  const range = state.appliedRange ?? info.defaultRange;
  const selected = useMemo(
    () => (state.selectedMetrics ?? info.defaultMetrics).filter((m) => info.metrics.includes(m)),
    [state.selectedMetrics, info],
  );
  const entries = useMemo(() => rowsForRange(rows, range), [rows, range]);
  const report = useMemo<TKpiReport | null>(
    () => (rows.length > 0 ? buildKpiReport(rows, range) : null),
    [rows, range],
  );
  const subject = useMemo(() => ({ kind: 'csv' as const, dataset: current }), [current]);
  const changes = useDashboardChanges(subject);
  const markers = useMemo<TChangeMarker[]>(
    () =>
      changes.events.map((e) => ({
        day: e.firstSeenAfter,
        label: e.fields.map(changeFieldLabel).join(', '),
      })),
    [changes.events],
  );

  let chartState: TChartCardState;
  if (chartData.isPending) chartState = { kind: 'loading' };
  else if (chartData.isError)
    chartState = { kind: isExpiredError(chartData.error) ? 'expired' : 'error' };
  else if (rows.length === 0) chartState = { kind: 'error' };
  else {
    chartState = {
      kind: 'ready',
      entries,
      dateColumn: info.dateColumn,
      metrics: info.metrics,
      selected,
      onSelectedChange: setSelectedMetrics,
      markers,
    };
  }
  const ready = chartState.kind === 'ready';

  return (
    <div className="flex flex-col gap-6">
      <UploadedDashboardToolbar
        current={current}
        view={{ dateRange: range, selectedMetrics: selected }}
        ready={ready}
        expired={chartState.kind === 'expired'}
        onExport={() => void exportRange(current, info.headers, entries, range)}
      />
      {current.notices?.map((notice) => (
        <p
          key={notice}
          role="status"
          className="rounded-lg border border-primary/30 bg-primary/5 px-4 py-3 text-sm"
          data-testid="merge-notice"
        >
          {notice}
        </p>
      ))}
      {ready && (
        <div className="flex flex-wrap items-center gap-2" data-testid="date-range-bar">
          <DateRangePicker value={range} bounds={info.bounds} onApply={applyRange} />
          <Badge variant="secondary" className="h-8 px-3 text-xs" data-testid="applied-range">
            Applied: {rangeLabel(range)}
          </Badge>
        </div>
      )}
      <AnalyticsChartCard state={chartState} />
      {ready && report && (
        <>
          <SourcePerformance rows={rows} range={range} report={report} markers={markers} />
          <ChangeImpactCard
            rows={rows}
            changes={changes}
            appName={current.appName}
            territory={current.territory}
          />
          <KpiReport report={report} />
          <MonthlyReport report={report.monthlyReport} />
        </>
      )}
    </div>
  );
}

function UploadedDashboardToolbar({
  current,
  view,
  ready,
  expired,
  onExport,
}: {
  current: TOpenDashboard;
  /** What the dashboard shows now, saved with it and applied again when it is reopened. */
  view: { dateRange: { start: string; end: string }; selectedMetrics: string[] };
  ready: boolean;
  /** The dataset is gone: nothing to download. */
  expired: boolean;
  onExport: () => void;
}) {
  // A dataset opened (an upload merged, a saved dashboard chosen): the focus follows it here.
  const title = useFocusOnMount<HTMLHeadingElement>();
  const [downloading, setDownloading] = useState(false);
  const subtitle = [current.territory, current.name].filter(Boolean).join(' · ');
  const { saving, save } = useDashboardSave(
    (saved) => markSaved(saved.id, saved.name),
    (err) =>
      err instanceof ApiError &&
      err.status === 400 &&
      err.body?.message === DASHBOARD_NAMING_MESSAGE
        ? DASHBOARD_NAMING_MESSAGE
        : SAVE_TEXTS.failed,
  );

  const onSave = () => {
    if (!current.appName || !current.territory) {
      toast({
        variant: 'destructive',
        title: SAVE_TEXTS.failedTitle,
        description: DASHBOARD_NAMING_MESSAGE,
      });
      return;
    }
    void save({
      appName: current.appName,
      territory: current.territory,
      config: {
        downloadId: current.downloadId,
        headers: current.headers,
        totalRows: current.totalRows,
        createdFrom: 'csv_upload',
        dateRange: view.dateRange,
        selectedMetrics: view.selectedMetrics,
        ...(current.watchedApp ? { watchedApp: current.watchedApp } : {}),
      },
    });
  };

  const download = async () => {
    setDownloading(true);
    try {
      const { blob, fileName } = await fetchMergedCsv(current.downloadId);
      saveBlob(blob, fileName);
      dismissToasts('processed-csv');
    } catch (err) {
      toast({
        variant: 'destructive',
        title: 'Download Failed',
        topic: 'processed-csv',
        description: isExpiredError(err)
          ? CHART_TEXTS.expiredBody
          : 'Failed to download the processed CSV. Please try again.',
      });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <DashboardToolbar
      icon={<FileSpreadsheet className="size-5" />}
      title={
        <h2
          ref={title}
          tabIndex={-1}
          // Wrapped, never cut: the name may be what says the data is constructed.
          className="focus-target font-semibold break-words"
          data-testid="dataset-title"
        >
          {current.appName ?? 'Merged dataset'}
        </h2>
      }
      subtitle={`${subtitle || 'Unsaved dashboard'} · ${formatCount(current.totalRows)} rows`}
      saved={current.savedId !== null}
    >
      <Button
        variant="outline"
        size="sm"
        onClick={() => void download()}
        disabled={downloading || expired}
        focusableWhenDisabled
      >
        {downloading ? <Loader2 className="animate-spin" /> : <Download />}
        download processed CSV
      </Button>
      <Button variant="outline" size="sm" onClick={onExport} disabled={!ready}>
        <FileSpreadsheet />
        export CSV
      </Button>
      <SaveDashboardButton saving={saving} disabled={current.savedId !== null} onSave={onSave} />
      <DashboardPdfButton savedId={current.savedId} disabled={expired} />
      <Button size="sm" onClick={showUploadPanel}>
        <FilePlus2 />
        generate new dashboard
      </Button>
    </DashboardToolbar>
  );
}
