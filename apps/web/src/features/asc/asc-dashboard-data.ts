import { buildKpiReport } from '@aso/analytics';
import { type TKpiReport } from '@aso/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { type TOpenAscDashboard } from '@/features/dashboard/dashboard.store';
import { describeDataset, rowsForRange } from '@/features/dashboard/dataset.helpers';
import { ascMetricsQuery } from './asc.api';
import { ascChartRows } from './asc-chart-rows';

/*
 * The data of a dashboard on imported App Store Connect figures, shared by the dashboard view
 * and its print page: which days are asked for, the figures turned into the exports' columns,
 * and what is drawn from them.
 */

/** Days of imported figures asked for (the API allows three years). */
const HISTORY_DAYS = 3 * 365;

/**
 * What impressions mean on imported data: the Analytics Reports' Counts of the Event
 * "Impression", every time the app was shown (Unique Counts cannot be summed across rows), where
 * the exports count unique devices (docs/product.md#dashboard-on-imported-data).
 */
export const ASC_IMPRESSIONS_NOTE =
  'Impressions here are App Store Connect’s impression counts (every time the app was shown), not the unique devices of the exports: the first-time conversion rate (first-time downloads / impressions) and the App Store conversion rate (total downloads / impressions) are computed on them, so they read lower than on uploaded exports.';

/** The dates asked for: the last {@link HISTORY_DAYS} days up to today (UTC). */
function historyWindow(now = Date.now()): { from: string; to: string } {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(now - HISTORY_DAYS * 86_400_000), to: day(now) };
}

/**
 * The figures of an imported dashboard and what the dashboard draws from them: the rows in the
 * exports' columns, the provisional Dates, the applied range and selected metrics (the saved
 * ones, else the data's defaults), the rows of the range and the KPI report. Shared by the
 * dashboard and its print page.
 */
export function useAscDashboardData(
  asc: Pick<
    TOpenAscDashboard,
    'connectionId' | 'appId' | 'territory' | 'device' | 'appliedRange' | 'selectedMetrics'
  >,
) {
  // Fixed when the view opens (a lazy state initialiser runs once).
  const [window] = useState(() => historyWindow());
  const metrics = useQuery(
    ascMetricsQuery(asc.connectionId, asc.appId, {
      ...window,
      territory: asc.territory,
      device: asc.device,
    }),
  );
  const rows = useMemo(
    () => ascChartRows(metrics.data?.rows ?? [], asc.territory),
    [metrics.data, asc.territory],
  );
  const provisional = useMemo(
    () =>
      [
        ...new Set((metrics.data?.rows ?? []).filter((r) => r.provisional).map((r) => r.date)),
      ].sort(),
    [metrics.data],
  );
  const info = useMemo(() => describeDataset(rows), [rows]);
  const range = asc.appliedRange ?? info.defaultRange;
  const selected = useMemo(
    () => (asc.selectedMetrics ?? info.defaultMetrics).filter((m) => info.metrics.includes(m)),
    [asc.selectedMetrics, info],
  );
  const entries = useMemo(() => rowsForRange(rows, range), [rows, range]);
  const report = useMemo<TKpiReport | null>(
    () => (rows.length > 0 ? buildKpiReport(rows, range) : null),
    [rows, range],
  );
  return { metrics, rows, provisional, info, range, selected, entries, report };
}
