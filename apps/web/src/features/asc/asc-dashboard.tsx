/**
 * The dashboard on imported App Store Connect data: the view of an imported app (the source
 * choice is `dashboard-source-picker.tsx`, which loads this module on demand), with territory
 * and device filters, the same chart (with the watched listing's change markers), traffic-source
 * charts, change impact, KPI report and monthly report as an
 * uploaded dataset (the figures are turned into the exports' columns by {@link ascChartRows}),
 * saved, exported as CSV and printed as a PDF like one. Days still within Apple's
 * completeness window are named.
 */
import { formatCount } from '@aso/analytics';
import { changeFieldLabel } from '@aso/contracts';
import { FileSpreadsheet, PlugIcon } from 'lucide-react';
import { useId, useMemo } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { ErrorState } from '@/components/list-states';
import {
  AnalyticsChartCard,
  type TChartCardState,
} from '@/features/dashboard/analytics-chart-card';
import { ChangeImpactCard } from '@/features/dashboard/change-impact-card';
import type { TChangeMarker } from '@/features/dashboard/chart.options';
import { useDashboardChanges } from '@/features/dashboard/dashboard-changes';
import {
  DashboardPdfButton,
  DashboardToolbar,
  SaveDashboardButton,
  useDashboardSave,
} from '@/features/dashboard/dashboard-toolbar';
import { updateAscDashboard, type TOpenAscDashboard } from '@/features/dashboard/dashboard.store';
import { DateRangePicker } from '@/features/dashboard/date-range-picker';
import { rangeLabel } from '@/features/dashboard/date-range.helpers';
import { exportRange } from '@/features/dashboard/export-range';
import { KpiReport } from '@/features/dashboard/kpi-report';
import { MonthlyReport } from '@/features/dashboard/monthly-report';
import { SAVE_TEXTS } from '@/features/dashboard/saved-dashboard.helpers';
import { SourcePerformance } from '@/features/dashboard/source-performance';
import { ApiError } from '@/lib/api';
import { ProvisionalNotice } from './provisional-notice';
import { SELECT_CLASS } from './select.styles';
import { ASC_IMPRESSIONS_NOTE, useAscDashboardData } from './asc-dashboard-data';

/** A 404 of the figures: the connection (and with it the figures) was removed. */
const isGone = (err: unknown) => err instanceof ApiError && err.status === 404;

/** The dashboard of one imported app. */
export function AscDashboardView({ asc }: { asc: TOpenAscDashboard }) {
  const ids = { territory: useId(), device: useId() };
  const data = useAscDashboardData(asc);
  const { metrics, rows, provisional, info, range, selected, entries, report } = data;
  const subject = useMemo(() => ({ kind: 'asc' as const, asc }), [asc]);
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
  if (metrics.isPending) chartState = { kind: 'loading' };
  else if (metrics.isError) chartState = { kind: 'error' };
  else if (rows.length === 0) chartState = { kind: 'no-dataset' };
  else {
    chartState = {
      kind: 'ready',
      entries,
      dateColumn: info.dateColumn,
      metrics: info.metrics,
      selected,
      onSelectedChange: (m) => updateAscDashboard({ selectedMetrics: m }),
      markers,
    };
  }
  const ready = chartState.kind === 'ready';
  // The lists of the filters: what the app's figures have (the filter in use stays listed).
  const territories = metrics.data?.territories ?? (asc.territory ? [asc.territory] : []);
  const devices = metrics.data?.devices ?? (asc.device ? [asc.device] : []);
  const territoryLabel = asc.territory ?? 'All territories';
  // Other filters show other figures: no longer the saved dashboard (which stays in the list).
  const setFilter = (patch: Pick<Partial<TOpenAscDashboard>, 'territory' | 'device'>) =>
    updateAscDashboard({ ...patch, savedId: null, name: null });

  return (
    <div className="flex flex-col gap-6" data-testid="asc-dashboard">
      <AscToolbar
        asc={asc}
        view={{ dateRange: range, selectedMetrics: selected }}
        days={rows.length}
        ready={ready}
        onExport={() =>
          void exportRange(
            {
              appName: asc.appName,
              territory: [territoryLabel, asc.device].filter(Boolean).join(' '),
            },
            info.headers,
            entries,
            range,
          )
        }
      />
      <div className="flex flex-wrap items-end gap-4" data-testid="asc-filters">
        <div className="flex w-full min-w-0 flex-col gap-1 sm:w-auto">
          <Label htmlFor={ids.territory}>Territory</Label>
          <select
            id={ids.territory}
            className={SELECT_CLASS}
            value={asc.territory ?? ''}
            onChange={(e) => setFilter({ territory: e.target.value || null })}
            data-testid="asc-territory"
          >
            <option value="">All territories</option>
            {territories.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="flex w-full min-w-0 flex-col gap-1 sm:w-auto">
          <Label htmlFor={ids.device}>Device</Label>
          <select
            id={ids.device}
            className={SELECT_CLASS}
            value={asc.device ?? ''}
            onChange={(e) => setFilter({ device: e.target.value || null })}
            data-testid="asc-device"
          >
            <option value="">All devices</option>
            {devices.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </div>
        {ready && (
          <div className="flex flex-wrap items-center gap-2" data-testid="date-range-bar">
            <DateRangePicker
              value={range}
              bounds={info.bounds}
              onApply={(r) => updateAscDashboard({ appliedRange: { start: r.start, end: r.end } })}
            />
            <Badge variant="secondary" className="h-8 px-3 text-xs" data-testid="applied-range">
              Applied: {rangeLabel(range)}
            </Badge>
          </div>
        )}
      </div>
      <ProvisionalNotice dates={provisional} />
      {metrics.isError && isGone(metrics.error) ? (
        <p
          role="alert"
          className="rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-6 text-center text-sm"
          data-testid="asc-gone"
        >
          The App Store Connect key of {asc.appName} was removed, and its imported figures with it.
          Connect the key again in{' '}
          <Link
            to="/settings/app-store-connect"
            className="text-primary underline underline-offset-4"
          >
            Settings &gt; App Store Connect
          </Link>{' '}
          and import the app to see them.
        </p>
      ) : metrics.isError ? (
        <ErrorState
          error={metrics.error}
          what={`the imported figures of ${asc.appName}`}
          onRetry={() => void metrics.refetch()}
        />
      ) : metrics.isSuccess && rows.length === 0 ? (
        <p
          className="rounded-lg border px-4 py-6 text-center text-sm text-muted-foreground"
          data-testid="asc-empty"
        >
          No figures imported for {asc.appName}
          {asc.territory || asc.device ? ' with these filters' : ''} yet. Apple makes the first
          daily report 24-48 hours after the first import; import again from{' '}
          <Link
            to="/settings/app-store-connect"
            className="text-primary underline underline-offset-4"
          >
            Settings &gt; App Store Connect
          </Link>
          .
        </p>
      ) : (
        <AnalyticsChartCard state={chartState} />
      )}
      {ready && report && (
        <>
          <p className="text-xs text-muted-foreground" data-testid="asc-impressions-note">
            {ASC_IMPRESSIONS_NOTE}
          </p>
          <SourcePerformance rows={rows} range={range} report={report} markers={markers} />
          <ChangeImpactCard
            rows={rows}
            changes={changes}
            appName={asc.appName}
            territory={asc.territory}
          />
          <KpiReport report={report} />
          <MonthlyReport report={report.monthlyReport} />
        </>
      )}
    </div>
  );
}

function AscToolbar({
  asc,
  view,
  days,
  ready,
  onExport,
}: {
  asc: TOpenAscDashboard;
  /** What the dashboard shows now, saved with it and applied again when it is reopened. */
  view: { dateRange: { start: string; end: string }; selectedMetrics: string[] };
  days: number;
  ready: boolean;
  onExport: () => void;
}) {
  const { saving, save } = useDashboardSave(
    (saved) => updateAscDashboard({ savedId: saved.id, name: saved.name }),
    (err) => (err instanceof ApiError && err.body?.message ? err.body.message : SAVE_TEXTS.failed),
  );
  const subtitle = [
    'App Store Connect',
    asc.territory ?? 'All territories',
    asc.device ?? 'All devices',
    asc.name,
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <DashboardToolbar
      icon={<PlugIcon className="size-5" aria-hidden />}
      title={
        <h2 className="truncate font-semibold" data-testid="dataset-title">
          {asc.appName}
        </h2>
      }
      subtitle={`${subtitle} · ${formatCount(days)} days`}
      saved={asc.savedId !== null}
    >
      <Button
        variant="outline"
        size="sm"
        onClick={onExport}
        disabled={!ready}
        focusableWhenDisabled
        data-testid="asc-export"
      >
        <FileSpreadsheet />
        export CSV
      </Button>
      <SaveDashboardButton
        saving={saving}
        disabled={!ready || asc.savedId !== null}
        testId="asc-save"
        onSave={() =>
          void save({
            appName: asc.appName,
            territory: asc.territory,
            config: {
              createdFrom: 'app_store_connect',
              connectionId: asc.connectionId,
              appId: asc.appId,
              territory: asc.territory,
              device: asc.device,
              dateRange: view.dateRange,
              selectedMetrics: view.selectedMetrics,
              ...(asc.watchedApp ? { watchedApp: asc.watchedApp } : {}),
            },
          })
        }
      />
      <DashboardPdfButton savedId={asc.savedId} disabled={!ready} />
    </DashboardToolbar>
  );
}
