import { formatDay, type TDatedRow } from '@aso/analytics';
import {
  AlertTriangle,
  BarChart3,
  Clock3,
  LineChart as LineChartIcon,
  Loader2,
} from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { buildLineChartOption, lineColor, type TChangeMarker } from './chart.options';
import { EChart } from './echart';
import { MetricSelector } from './metric-selector';

/** Texts of the chart card states (spec sections 2, 4 and 8). */
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

/** Line chart height (spec section 9). */
export const LINE_CHART_HEIGHT = '26rem';

/** The chart card's state (spec section 4: "Chart card states"). */
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
 * The analytics chart card: every state of spec section 4, and when ready the metric selector
 * and the line chart of the selected metrics by date with a legend of their names.
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
        {state.kind === 'ready' && (
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
  const option = useMemo(
    () => buildLineChartOption(entries, selected, dateColumn, markers),
    [entries, selected, dateColumn, markers],
  );
  const marked = markers.filter((m) => entries.some((e) => e.day === m.day));
  return (
    <div className="flex flex-col gap-3">
      <ul
        className="flex flex-wrap gap-x-4 gap-y-1.5"
        data-testid="chart-legend"
        aria-label="chart legend"
      >
        {selected.map((metric, index) => (
          <li key={metric} className="flex items-center gap-1.5 text-xs text-muted-foreground">
            <span className="h-2 w-3 rounded-sm" style={{ backgroundColor: lineColor(index) }} />
            <span className="text-foreground">{metric}</span>
          </li>
        ))}
      </ul>
      <EChart
        option={option}
        height={LINE_CHART_HEIGHT}
        label={`Line chart of ${selected.join(', ')} by date${markedText(marked)}`}
      />
    </div>
  );
}
