/**
 * ECharts options of the timeline's two small charts, from a history's snapshots: the average
 * rating (0-5) and the category chart position over time (1 at the top). Pure, no echarts
 * runtime. A snapshot without the figure leaves a gap in its line.
 */
import type { THistorySnapshot } from '@aso/contracts';
import type { TChartOption } from '@/features/dashboard/chart.options';
import { formatDateTime } from './watch.helpers';

/** Points of one figure: [time in ms, value or null]. */
type TPoint = [number, number | null];

function points(
  snapshots: readonly THistorySnapshot[],
  value: (s: THistorySnapshot) => number | null,
): TPoint[] {
  return snapshots.map((s) => [Date.parse(s.fetchedAt), value(s)]);
}

/** Whether any snapshot has the figure. */
export function hasFigure(
  snapshots: readonly THistorySnapshot[],
  figure: 'rating' | 'rank',
): boolean {
  return snapshots.some((s) => (figure === 'rating' ? s.rating : s.chartPosition) !== null);
}

function base(data: TPoint[], name: string, color: string): TChartOption {
  return {
    animationDuration: 300,
    grid: { left: 8, right: 16, top: 12, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      confine: true,
      axisPointer: {
        label: { formatter: ({ value }) => formatDateTime(new Date(Number(value)).toISOString()) },
      },
    },
    xAxis: { type: 'time', axisLabel: { hideOverlap: true } },
    series: [
      {
        name,
        type: 'line',
        data,
        color,
        connectNulls: false,
        showSymbol: data.length <= 31,
        symbolSize: 5,
      },
    ],
  };
}

/** Average rating over time, on a 0-5 axis. */
export function buildRatingChartOption(snapshots: readonly THistorySnapshot[]): TChartOption {
  const option = base(
    points(snapshots, (s) => s.rating),
    'Rating',
    '#ca8a04',
  );
  return {
    ...option,
    yAxis: { type: 'value', min: 0, max: 5, splitLine: { lineStyle: { type: 'dashed' } } },
  };
}

/** Category chart position over time, #1 at the top; the genre and chart named in the tooltip. */
export function buildRankChartOption(snapshots: readonly THistorySnapshot[]): TChartOption {
  const option = base(
    points(snapshots, (s) => s.chartPosition?.position ?? null),
    'Category rank',
    '#2563eb',
  );
  return {
    ...option,
    yAxis: {
      type: 'value',
      inverse: true,
      min: 1,
      minInterval: 1,
      // Whole ranks only: no '#0.5' between two positions.
      axisLabel: { formatter: (v: number) => (Number.isInteger(v) ? `#${v}` : '') },
      splitLine: { lineStyle: { type: 'dashed' } },
    },
  };
}

/** The genre and chart of the latest ranked snapshot ('Health & Fitness, top free'), or null. */
export function rankContext(snapshots: readonly THistorySnapshot[]): string | null {
  const last = [...snapshots].reverse().find((s) => s.chartPosition !== null)?.chartPosition;
  if (!last) return null;
  return [last.genreName, last.chart?.replace(/-/g, ' ')].filter(Boolean).join(', ');
}
