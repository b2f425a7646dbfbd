/**
 * ECharts options of the dashboard's charts, built from `@aso/analytics` results only (the
 * line chart reads cells through `toNumber`, the source charts take `buildSourceSeries`
 * points). Pure: no DOM, no echarts runtime, so the shapes are unit-tested in Node.
 */
import { formatCount, formatDay, formatPercent, toNumber, type TDatedRow } from '@aso/analytics';
import type { TSourceSeriesPoint } from '@aso/analytics';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

/** Option type of the charts this module builds (only the parts registered in `echarts.setup`). */
export type TChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
  | MarkLineComponentOption
>;

/** A listing change drawn on a chart: a vertical dashed line on its day. */
export interface TChangeMarker {
  /** `YYYY-MM-DD`: the day the change was found. */
  day: string;
  /** What changed ('Title, Screenshots (iPhone)'), shown when the line is hovered. */
  label: string;
}

/** Colour of the change markers (distinct from the ten line colours). */
export const MARKER_COLOR = '#7c3aed';

/**
 * The markLine of the change markers whose day is one of the chart's `days` (a category axis
 * can only mark its own values), or undefined when none is.
 */
export function changeMarkLine(
  markers: readonly TChangeMarker[],
  days: readonly string[],
): LineSeriesOption['markLine'] {
  const shown = new Set(days);
  const data = markers
    .filter((m) => shown.has(m.day))
    .map((m) => ({ xAxis: m.day, name: m.label }));
  if (data.length === 0) return undefined;
  return {
    silent: false,
    symbol: ['none', 'none'],
    animation: false,
    lineStyle: { type: 'dashed', color: MARKER_COLOR, width: 1.5 },
    label: {
      show: true,
      position: 'insideEndTop',
      color: MARKER_COLOR,
      fontSize: 10,
      formatter: () => 'change',
    },
    tooltip: { show: true, formatter: ({ name }: { name: string }) => `Listing change: ${name}` },
    emphasis: { label: { show: true } },
    data,
  } as LineSeriesOption['markLine'];
}

/** Ten line colours, used in turn and then again (spec section 9: "Ten line colours, cycling"). */
export const LINE_COLORS = [
  '#2563eb',
  '#f97316',
  '#16a34a',
  '#dc2626',
  '#9333ea',
  '#0891b2',
  '#ca8a04',
  '#db2777',
  '#475569',
  '#65a30d',
] as const;

/** The colour of the `index`-th selected metric. */
export function lineColor(index: number): string {
  return LINE_COLORS[index % LINE_COLORS.length]!;
}

/** Above this many points the line chart gets a data zoom (a slider and wheel/drag zoom). */
export const DATA_ZOOM_MIN_POINTS = 31;

/** Axis label of a day: 'Jul 20' (the tooltip shows the year). */
export function shortDay(isoDay: string): string {
  return formatDay(isoDay).replace(/, \d+$/, '');
}

/** Tooltip text of a value: counts rounded and grouped, other numbers with up to 2 decimals. */
export function formatValue(value: unknown): string {
  const n = typeof value === 'number' ? value : toNumber(value);
  if (Number.isInteger(n)) return formatCount(n);
  return (Math.round(n * 100) / 100).toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/**
 * The multi-metric line chart (spec section 2: "Line chart of the selected metrics by date").
 *
 * @param entries - the rows of the applied range in day order (see `rowsForRange`); rows
 *   without a parsed day are labelled with their raw date text.
 * @param metrics - selected metric columns; non-numeric cells count as 0 (spec section 5).
 * @param dateColumn - the dataset's date column, for rows without a parsed day.
 */
export function buildLineChartOption(
  entries: readonly TDatedRow[],
  metrics: readonly string[],
  dateColumn: string | null,
  markers: readonly TChangeMarker[] = [],
): TChartOption {
  const rawDate = (row: TDatedRow['row']): string => {
    const value = dateColumn === null ? null : row[dateColumn];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  };
  const days = entries.map((e) => e.day ?? rawDate(e.row));
  const zoom = entries.length > DATA_ZOOM_MIN_POINTS;
  const series: LineSeriesOption[] = metrics.map((metric, index) => ({
    name: metric,
    type: 'line',
    data: entries.map((e) => toNumber(e.row[metric])),
    color: lineColor(index),
    sampling: 'lttb',
    showSymbol: entries.length <= DATA_ZOOM_MIN_POINTS,
    symbolSize: 5,
    lineStyle: { width: 2 },
    emphasis: { focus: 'series' },
    // The listing changes, once (on the first line).
    ...(index === 0 ? { markLine: changeMarkLine(markers, days) } : {}),
  }));
  return {
    color: [...LINE_COLORS],
    animationDuration: 400,
    // The legend is HTML next to the chart (readable text, same colours via lineColor).
    grid: { left: 8, right: 16, top: 16, bottom: zoom ? 64 : 16, containLabel: true },
    tooltip: {
      trigger: 'axis',
      confine: true,
      axisPointer: { type: 'line' },
      valueFormatter: (value) => formatValue(value),
    },
    xAxis: {
      type: 'category',
      boundaryGap: false,
      data: days.map((d) => ({ value: d })),
      axisLabel: {
        hideOverlap: true,
        formatter: (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? shortDay(value) : value),
      },
      axisPointer: {
        label: {
          formatter: ({ value }) =>
            typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
              ? formatDay(value)
              : String(value),
        },
      },
    },
    yAxis: {
      type: 'value',
      axisLabel: { formatter: (value: number) => formatValue(value) },
      splitLine: { lineStyle: { type: 'dashed' } },
    },
    dataZoom: zoom
      ? [
          { type: 'inside', xAxisIndex: 0 },
          { type: 'slider', xAxisIndex: 0, height: 22, bottom: 8 },
        ]
      : [],
    series,
  };
}

/** Series names of a traffic-source chart. */
export const SOURCE_SERIES = {
  firstTimeDownloads: 'First-Time Downloads',
  impressions: 'Impressions',
  conversionRate: 'Conversion Rate (%)',
} as const;

/**
 * One 'Traffic source performance' chart (spec section 2): first-time downloads and
 * impressions as bars on the left axis, conversion rate (%) as a line on the right axis.
 *
 * @param points - `buildSourceSeries` output for the applied range, ascending by day.
 * @param markers - listing changes, drawn on their days.
 */
export function buildSourceChartOption(
  points: readonly TSourceSeriesPoint[],
  markers: readonly TChangeMarker[] = [],
): TChartOption {
  return {
    animationDuration: 400,
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    legend: { top: 0, itemWidth: 12, itemHeight: 8, textStyle: { fontSize: 11 } },
    tooltip: { trigger: 'axis', confine: true, axisPointer: { type: 'shadow' } },
    xAxis: {
      type: 'category',
      data: points.map((p) => p.date),
      axisLabel: { hideOverlap: true, formatter: (value: string) => shortDay(value) },
    },
    yAxis: [
      {
        type: 'value',
        position: 'left',
        axisLabel: { formatter: (value: number) => formatCount(value) },
        splitLine: { lineStyle: { type: 'dashed' } },
      },
      {
        type: 'value',
        position: 'right',
        axisLabel: { formatter: (value: number) => formatPercent(value) },
        splitLine: { show: false },
      },
    ],
    series: [
      {
        name: SOURCE_SERIES.firstTimeDownloads,
        type: 'bar',
        yAxisIndex: 0,
        color: LINE_COLORS[0],
        data: points.map((p) => p.firstTimeDownloads),
        tooltip: { valueFormatter: (value) => formatCount(Number(value)) },
      },
      {
        name: SOURCE_SERIES.impressions,
        type: 'bar',
        yAxisIndex: 0,
        color: '#93c5fd',
        data: points.map((p) => p.impressions),
        tooltip: { valueFormatter: (value) => formatCount(Number(value)) },
      },
      {
        name: SOURCE_SERIES.conversionRate,
        type: 'line',
        yAxisIndex: 1,
        color: LINE_COLORS[1],
        smooth: false,
        showSymbol: points.length <= DATA_ZOOM_MIN_POINTS,
        data: points.map((p) => p.conversionRate),
        tooltip: { valueFormatter: (value) => formatPercent(Number(value)) },
        markLine: changeMarkLine(
          markers,
          points.map((p) => p.date),
        ),
      },
    ],
  };
}
