import { formatDay, type TDatedRow } from '@aso/analytics';
import {
  AlertTriangle,
  BarChart3,
  Clock3,
  LineChart as LineChartIcon,
  Loader2,
} from 'lucide-react';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { isPrinting } from '@/hooks/use-printing';
import { ChartLegend } from './chart-legend';
import {
  ZOOM_MIN_POINTS,
  buildLineChartOption,
  chartDays,
  clampWindow,
  fullWindow,
  lineColor,
  type TChangeMarker,
  type TDayWindow,
} from './chart.options';
import { EChart } from './echart';
import { MetricSelector } from './metric-selector';

// The zoom control (with its slider) loads only when a range needs it: the default range of 30
// days never does.
const ChartZoom = lazy(() => import('./chart-zoom').then((m) => ({ default: m.ChartZoom })));

/**
 * Texts of the chart card states (docs/product.md#dashboard-sections, #states-and-transitions and
 * #error-catalogue).
 */
export const CHART_TEXTS = {
  noDatasetTitle: 'Upload both CSV files to see the chart',
  noDatasetBody: 'Once processed, you can visualize any metrics from your data',
  loading: 'Loading chart data...',
  expiredTitle: 'dashboard data expired',
  expiredBody:
    "this saved dashboard's data is no longer available. please upload your CSV files again to create a new dashboard.",
  error: 'error loading chart data',
  noMetric: 'Select at least one metric to display the chart',
} as const;

/** Line chart height (docs/product.md#dashboard-computation). */
export const LINE_CHART_HEIGHT = '26rem';

/** The chart card's state (docs/product.md#states-and-transitions: "Chart card states"). */
export type TChartCardState =
  | { kind: 'no-dataset' }
  | { kind: 'loading' }
  | { kind: 'expired' }
  | { kind: 'error' }
  | {
      kind: 'ready';
      entries: TDatedRow[];
      dateColumn: string | null;
      metrics: string[];
      selected: string[];
      onSelectedChange: (selected: string[]) => void;
      /** Listing changes of the dashboard's watched app, drawn on their days. */
      markers?: readonly TChangeMarker[];
    };

function StateMessage({
  icon,
  title,
  body,
  tone = 'muted',
}: {
  icon: ReactNode;
  title: string;
  body?: string;
  tone?: 'muted' | 'error';
}) {
  return (
    <div
      className="flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed bg-muted/20 px-6 text-center"
      style={{ height: LINE_CHART_HEIGHT }}
      data-testid="chart-state"
    >
      <div
        className={
          tone === 'error'
            ? 'flex size-11 items-center justify-center rounded-full bg-destructive/10 text-destructive'
            : 'flex size-11 items-center justify-center rounded-full bg-primary/10 text-primary'
        }
      >
        {icon}
      </div>
      <p className="font-medium">{title}</p>
      {body && <p className="max-w-md text-sm text-muted-foreground">{body}</p>}
    </div>
  );
}

/**
 * The analytics chart card: every state of docs/product.md#states-and-transitions, and when ready
 * the metric selector and the line chart of the selected metrics by date with a legend of their
 * names, and over more than {@link ZOOM_MIN_POINTS} days a zoom control under it choosing the
 * days shown (not on printed pages, which show the whole range).
 */
export function AnalyticsChartCard({ state }: { state: TChartCardState }) {
  return (
    <Card data-testid="analytics-chart-card">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1.5">
          <CardTitle className="flex items-center gap-2 text-base">
            <LineChartIcon className="size-4 text-primary" /> Analytics chart
          </CardTitle>
          <CardDescription>
            Daily values of the selected metrics over the applied range.
          </CardDescription>
        </div>
        {state.kind === 'ready' && !isPrinting() && (
          <MetricSelector
            metrics={state.metrics}
            selected={state.selected}
            onChange={state.onSelectedChange}
          />
        )}
      </CardHeader>
      <CardContent>
        <ChartBody state={state} />
      </CardContent>
    </Card>
  );
}

function ChartBody({ state }: { state: TChartCardState }) {
  switch (state.kind) {
    case 'no-dataset':
      return (
        <StateMessage
          icon={<BarChart3 className="size-5" />}
          title={CHART_TEXTS.noDatasetTitle}
          body={CHART_TEXTS.noDatasetBody}
        />
      );
    case 'loading':
      return (
        <StateMessage
          icon={<Loader2 className="size-5 animate-spin" />}
          title={CHART_TEXTS.loading}
        />
      );
    case 'expired':
      return (
        <StateMessage
          icon={<Clock3 className="size-5" />}
          title={CHART_TEXTS.expiredTitle}
          body={CHART_TEXTS.expiredBody}
          tone="error"
        />
      );
    case 'error':
      return (
        <StateMessage
          icon={<AlertTriangle className="size-5" />}
          title={CHART_TEXTS.error}
          tone="error"
        />
      );
    case 'ready':
      if (state.selected.length === 0) {
        return (
          <StateMessage icon={<LineChartIcon className="size-5" />} title={CHART_TEXTS.noMetric} />
        );
      }
      return (
        <ReadyChart
          entries={state.entries}
          dateColumn={state.dateColumn}
          selected={state.selected}
          markers={state.markers ?? NO_MARKERS}
        />
      );
  }
}

const NO_MARKERS: readonly TChangeMarker[] = [];

/** The accessible words of the chart's change markers ('; listing changes marked on ...'). */
export function markedText(markers: readonly TChangeMarker[]): string {
  if (markers.length === 0) return '';
  return `; listing changes marked on ${markers.map((m) => `${formatDay(m.day)} (${m.label})`).join(', ')}`;
}

function ReadyChart({
  entries,
  dateColumn,
  selected,
  markers,
}: {
  entries: TDatedRow[];
  dateColumn: string | null;
  selected: string[];
  markers: readonly TChangeMarker[];
}) {
  const zoomable = entries.length > ZOOM_MIN_POINTS && !isPrinting();
  // The zoom window belongs to the rows it was chosen on: other rows (another applied range or
  // dataset) start over on all their days.
  const [zoom, setZoom] = useState<{ of: TDatedRow[]; window: TDayWindow } | null>(null);
  const moved = zoomable && zoom !== null && zoom.of === entries;
  const [first, last] = moved
    ? clampWindow(zoom.window, entries.length)
    : fullWindow(entries.length);
  const shown = useMemo(
    () => (zoomable ? entries.slice(first, last + 1) : entries),
    [entries, zoomable, first, last],
  );
  const option = useMemo(() => {
    const built = buildLineChartOption(shown, selected, dateColumn, markers);
    // Moving a thumb redraws at once: an animation per step would make the lines flicker.
    return moved ? { ...built, animation: false } : built;
  }, [shown, selected, dateColumn, markers, moved]);
  const days = useMemo(() => chartDays(entries, dateColumn), [entries, dateColumn]);
  const marked = markers.filter((m) => shown.some((e) => e.day === m.day));
  return (
    <div className="flex flex-col gap-3">
      <ChartLegend
        data-testid="chart-legend"
        label="chart legend"
        items={selected.map((metric, index) => ({ name: metric, color: lineColor(index) }))}
      />
      <EChart
        option={option}
        height={LINE_CHART_HEIGHT}
        label={`Line chart of ${selected.join(', ')} by date${markedText(marked)}`}
      />
      {zoomable && (
        <Suspense fallback={<div className="h-14" aria-busy="true" />}>
          <ChartZoom
            days={days}
            value={[first, last]}
            onChange={(next) => setZoom({ of: entries, window: next })}
          />
        </Suspense>
      )}
    </div>
  );
}
