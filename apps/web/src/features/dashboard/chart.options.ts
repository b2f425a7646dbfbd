/**
 * ECharts options of the dashboard's charts, built from `@aso/analytics` results only (the
 * line chart reads cells through `toNumber`, the source charts take `buildSourceSeries`
 * points). Pure: no DOM, no echarts runtime, so the shapes are unit-tested in Node.
 */
import { formatCount, formatDay, formatPercent, toNumber, type TDatedRow } from '@aso/analytics';
import type { TSourceSeriesPoint } from '@aso/analytics';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

/**
 * Option type of the charts this module builds: only the parts `echart.tsx` registers (no
 * ECharts legend or data zoom: legends and the zoom control are HTML beside the chart).
 */
export type TChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | TooltipComponentOption
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

/**
 * Ten line colours, used in turn and then again (docs/product.md#dashboard-computation: "Ten line
 * colours, cycling").
 */
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

/**
 * Above this many days the line chart gets a zoom control (docs/product.md#dashboard-sections),
 * and up to it every day's point is marked on the lines.
 */
export const ZOOM_MIN_POINTS = 31;

/** The days a zoomed chart shows: indexes of the first and last one, inclusive. */
export type TDayWindow = readonly [first: number, last: number];

/** The window of all `length` days. */
export function fullWindow(length: number): TDayWindow {
  return [0, Math.max(0, length - 1)];
}

/**
 * `window` kept within `length` days, first <= last (the whole range when it no longer fits,
 * e.g. after the applied range got shorter).
 */
export function clampWindow(window: TDayWindow, length: number): TDayWindow {
  const [first, last] = window;
  if (
    !Number.isInteger(first) ||
    !Number.isInteger(last) ||
    first < 0 ||
    last > length - 1 ||
    first > last
  ) {
    return fullWindow(length);
  }
  return [first, last];
}

/** A chart day in words: 'Jul 20, 2025' for a `YYYY-MM-DD` day, else the text as it is. */
export function dayText(day: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? formatDay(day) : day;
}

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
 * The x-axis days of the line chart, one per entry: its `YYYY-MM-DD` day, or for a row without
 * a parsed day its raw text in `dateColumn` ('' when it has none).
 */
export function chartDays(entries: readonly TDatedRow[], dateColumn: string | null): string[] {
  return entries.map((e) => {
    if (e.day) return e.day;
    const value = dateColumn === null ? null : e.row[dateColumn];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  });
}

/**
 * The multi-metric line chart (docs/product.md#dashboard-sections: "Line chart of the selected
 * metrics by date").
 *
 * @param entries - the rows shown in day order: the applied range (see `rowsForRange`), or the
 *   zoom window's slice of it; rows without a parsed day are labelled with their raw date text. @param metrics - selected metric
 *   columns; non-numeric cells count as 0 (docs/product.md#dashboard-computation).
 * @param dateColumn - the dataset's date column, for rows without a parsed day.
 */
export function buildLineChartOption(
  entries: readonly TDatedRow[],
  metrics: readonly string[],
  dateColumn: string | null,
  markers: readonly TChangeMarker[] = [],
): TChartOption {
  const days = chartDays(entries, dateColumn);
  const data = metrics.map((metric) => entries.map((e) => toNumber(e.row[metric])));
  // A metric more than 10x smaller than the largest one (impressions next to downloads, or a
  // conversion rate) goes on a second axis, on the right.
  const axes = axisOfSeries(data);
  const twoAxes = axes.includes(1);
  const series: LineSeriesOption[] = metrics.map((metric, index) => ({
    name: twoAxes && axes[index] === 1 ? `${metric} (right axis)` : metric,
    type: 'line',
    yAxisIndex: axes[index] ?? 0,
    data: data[index]!,
    color: lineColor(index),
    sampling: 'lttb',
    showSymbol: entries.length <= ZOOM_MIN_POINTS,
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
    grid: { left: 8, right: 16, top: 16, bottom: 16, containLabel: true },
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
      axisPointer: { label: { formatter: ({ value }) => dayText(String(value)) } },
    },
    yAxis: [
      {
        type: 'value',
        axisLabel: { formatter: (value: number) => formatValue(value) },
        splitLine: { lineStyle: { type: 'dashed' } },
      },
      ...(twoAxes
        ? [
            {
              type: 'value' as const,
              position: 'right' as const,
              axisLabel: { formatter: (value: number) => formatValue(value) },
              splitLine: { show: false },
            },
          ]
        : []),
    ],
    series,
  };
}

/**
 * Two series whose largest values differ by more than this factor never share a y-axis (this
 * product's rule: the smaller one would read as a flat line at 0).
 */
export const SHARED_AXIS_MAX_RATIO = 10;

/** Largest finite value of a series (0 when it has none). */
function seriesMax(values: readonly (number | null)[]): number {
  let max = 0;
  for (const v of values)
    if (v !== null && Number.isFinite(v) && Math.abs(v) > max) max = Math.abs(v);
  return max;
}

/**
 * For each series, the y-axis it goes on: 0 for the series within {@link SHARED_AXIS_MAX_RATIO}
 * of the largest one, 1 for the ones more than that smaller.
 */
export function axisOfSeries(series: readonly (readonly (number | null)[])[]): number[] {
  const maxes = series.map(seriesMax);
  const top = Math.max(0, ...maxes);
  return maxes.map((m) => (m > 0 && top > m * SHARED_AXIS_MAX_RATIO ? 1 : 0));
}

/** Series names of a traffic-source chart. */
export const SOURCE_SERIES = {
  firstTimeDownloads: 'First-Time Downloads',
  impressions: 'Impressions',
  conversionRate: 'First-time conversion rate (%)',
} as const;

/** Colours of a traffic-source chart's series, by name (its HTML legend uses them too). */
export const SOURCE_COLORS: Record<string, string> = {
  [SOURCE_SERIES.firstTimeDownloads]: LINE_COLORS[0],
  [SOURCE_SERIES.impressions]: '#93c5fd',
  [SOURCE_SERIES.conversionRate]: LINE_COLORS[1],
};

/** The legend of a traffic-source chart: its series in drawing order with their colours. */
export const SOURCE_LEGEND: readonly { name: string; color: string }[] = Object.values(
  SOURCE_SERIES,
).map((name) => ({ name, color: SOURCE_COLORS[name]! }));

const NO_HIDDEN: ReadonlySet<string> = new Set();

/**
 * One 'Traffic source performance' chart (docs/product.md#dashboard-sections): first-time downloads
 * and impressions as bars on the left axis, conversion rate (%) as a line on the right axis.
 *
 * @param points - `buildSourceSeries` output for the applied range, ascending by day.
 * @param markers - listing changes, drawn on their days.
 * @param hidden - names of the series hidden from the legend ({@link SOURCE_SERIES}): not
 *   drawn; the axes stay.
 */
export function buildSourceChartOption(
  points: readonly TSourceSeriesPoint[],
  markers: readonly TChangeMarker[] = [],
  hidden: ReadonlySet<string> = NO_HIDDEN,
): TChartOption {
  // Impressions get an axis of their own (left, outside the downloads axis) when they are more
  // than 10x the first-time downloads, so the downloads bars do not flatten to 0.
  const ownAxis = axisOfSeries([
    points.map((p) => p.firstTimeDownloads),
    points.map((p) => p.impressions),
  ]).includes(1);
  const series: (BarSeriesOption | LineSeriesOption)[] = [
    {
      name: SOURCE_SERIES.firstTimeDownloads,
      type: 'bar',
      yAxisIndex: 0,
      color: SOURCE_COLORS[SOURCE_SERIES.firstTimeDownloads],
      data: points.map((p) => p.firstTimeDownloads),
      tooltip: { valueFormatter: (value) => formatCount(Number(value)) },
    },
    {
      name: SOURCE_SERIES.impressions,
      type: 'bar',
      yAxisIndex: ownAxis ? 2 : 0,
      color: SOURCE_COLORS[SOURCE_SERIES.impressions],
      data: points.map((p) => p.impressions),
      tooltip: { valueFormatter: (value) => formatCount(Number(value)) },
    },
    {
      name: SOURCE_SERIES.conversionRate,
      type: 'line',
      yAxisIndex: 1,
      color: SOURCE_COLORS[SOURCE_SERIES.conversionRate],
      smooth: false,
      showSymbol: points.length <= ZOOM_MIN_POINTS,
      data: points.map((p) => p.conversionRate),
      tooltip: { valueFormatter: (value) => formatPercent(Number(value)) },
    },
  ];
  const markLine = changeMarkLine(
    markers,
    points.map((p) => p.date),
  );
  // The listing changes are marked on the rate line, or while it is hidden on the first series
  // drawn, so they stay in view whichever series are hidden.
  const shown = series.filter((s) => !hidden.has(String(s.name)));
  const marked = shown.find((s) => s.type === 'line') ?? shown[0];
  const shownSeries = shown.map((s) =>
    s === marked && markLine ? { ...s, markLine } : s,
  ) as TChartOption['series'];
  return {
    animationDuration: 400,
    // The legend is HTML above the chart (SOURCE_LEGEND); the top leaves room for axis names.
    grid: { left: 8, right: 8, top: ownAxis ? 28 : 12, bottom: 8, containLabel: true },
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
        ...(ownAxis ? { name: 'Downloads', nameTextStyle: { fontSize: 10 } } : {}),
        axisLabel: { formatter: (value: number) => formatCount(value) },
        splitLine: { lineStyle: { type: 'dashed' } },
      },
      {
        type: 'value',
        position: 'right',
        axisLabel: { formatter: (value: number) => formatPercent(value) },
        splitLine: { show: false },
      },
      ...(ownAxis
        ? [
            {
              type: 'value' as const,
              position: 'left' as const,
              offset: 56,
              name: 'Impressions',
              nameTextStyle: { fontSize: 10 },
              axisLine: { show: true },
              axisLabel: { formatter: (value: number) => formatCount(value) },
              splitLine: { show: false },
            },
          ]
        : []),
    ],
    series: shownSeries,
  };
}
