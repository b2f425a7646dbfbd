import { buildSourceSeries } from '@aso/analytics';
import type { LineSeriesOption } from 'echarts/charts';
import { describe, expect, it } from 'vitest';
import {
  axisOfSeries,
  LINE_COLORS,
  buildLineChartOption,
  buildSourceChartOption,
  chartDays,
  clampWindow,
  dayText,
  fullWindow,
  lineColor,
  SOURCE_LEGEND,
  SOURCE_SERIES,
  shortDay,
} from './chart.options';
import { rowsForRange } from './dataset.helpers';

function rows(days: number): Record<string, string | number | null>[] {
  return Array.from({ length: days }, (_, i) => ({
    Date: `7/${i + 1}/25`,
    'Total Downloads': i % 2 === 0 ? 100 + i : String(200 + i),
    'Total Impressions': i === 1 ? '-' : 1000,
    'App Store Search First-Time Downloads': 10,
    'App Store Search Impressions (Unique Devices)': i === 0 ? 0 : 200,
  }));
}

describe('lineColor', () => {
  it('cycles through ten colours', () => {
    expect(LINE_COLORS).toHaveLength(10);
    expect(lineColor(0)).toBe(LINE_COLORS[0]);
    expect(lineColor(10)).toBe(LINE_COLORS[0]);
    expect(lineColor(13)).toBe(LINE_COLORS[3]);
  });
});

describe('buildLineChartOption', () => {
  it('draws one lttb-sampled line per metric by date with numbers read by the analytics rules', () => {
    const entries = rowsForRange(rows(5), { start: '2025-07-02', end: '2025-07-04' });
    const option = buildLineChartOption(entries, ['Total Downloads', 'Total Impressions'], 'Date');
    const series = option.series as LineSeriesOption[];
    expect(series.map((s) => s.name)).toEqual(['Total Downloads', 'Total Impressions']);
    expect(series[0]!.data).toEqual([201, 102, 203]);
    // '-' is a missing value and counts as 0 (docs/product.md#dashboard-computation).
    expect(series[1]!.data).toEqual([0, 1000, 1000]);
    expect(series.every((s) => s.sampling === 'lttb' && s.type === 'line')).toBe(true);
    expect(series[1]!.color).toBe(LINE_COLORS[1]);
    const xAxis = option.xAxis as { data: { value: string }[] };
    expect(xAxis.data.map((d) => d.value)).toEqual(['2025-07-02', '2025-07-03', '2025-07-04']);
    expect((option.tooltip as { trigger: string }).trigger).toBe('axis');
    // Neither legend nor data zoom is drawn by ECharts (both are HTML beside the chart).
    expect(Object.keys(option).filter((k) => k === 'legend' || k === 'dataZoom')).toEqual([]);
  });

  it('marks each point up to 31 days, not over more', () => {
    const long = Array.from({ length: 40 }, (_, i) => ({
      Date: `${i < 31 ? 7 : 8}/${(i % 31) + 1}/25`,
      v: i,
    }));
    const entries = rowsForRange(long, { start: '2025-07-01', end: '2025-08-31' });
    expect(entries).toHaveLength(40);
    const series = (o: ReturnType<typeof buildLineChartOption>) => o.series as LineSeriesOption[];
    expect(series(buildLineChartOption(entries, ['v'], 'Date'))[0]!.showSymbol).toBe(false);
    // A zoom window's slice of 31 days is drawn like a 31-day range.
    const slice = entries.slice(5, 36);
    const zoomed = buildLineChartOption(slice, ['v'], 'Date');
    expect(series(zoomed)[0]!.showSymbol).toBe(true);
    expect(series(zoomed)[0]!.data).toEqual(Array.from({ length: 31 }, (_, i) => i + 5));
    expect((zoomed.xAxis as { data: { value: string }[] }).data[0]).toEqual({
      value: '2025-07-06',
    });
  });

  it('labels rows without a parsed day by their raw date text', () => {
    const entries = rowsForRange([{ Date: 'Q1', v: 1 }], {
      start: '2025-07-20',
      end: '2025-08-18',
    });
    const option = buildLineChartOption(entries, ['v'], 'Date');
    expect((option.xAxis as { data: { value: string }[] }).data).toEqual([{ value: 'Q1' }]);
  });
});

describe('zoom window', () => {
  it('covers every day, and keeps a window that still fits', () => {
    expect(fullWindow(40)).toEqual([0, 39]);
    expect(fullWindow(0)).toEqual([0, 0]);
    expect(clampWindow([5, 20], 40)).toEqual([5, 20]);
    expect(clampWindow([5, 39], 40)).toEqual([5, 39]);
  });
  it('falls back to every day when the window no longer fits the rows', () => {
    expect(clampWindow([5, 40], 40)).toEqual([0, 39]);
    expect(clampWindow([-1, 3], 40)).toEqual([0, 39]);
    expect(clampWindow([9, 3], 40)).toEqual([0, 39]);
    expect(clampWindow([1.5, 3], 40)).toEqual([0, 39]);
  });
  it('names the days in words, raw date texts as they are', () => {
    const entries = rowsForRange(rows(2), { start: '2025-07-01', end: '2025-07-02' });
    expect(chartDays(entries, 'Date')).toEqual(['2025-07-01', '2025-07-02']);
    expect(chartDays(entries, 'Date').map(dayText)).toEqual(['Jul 1, 2025', 'Jul 2, 2025']);
    // A dataset without a parseable date keeps its rows, named by their date text.
    const undated = rowsForRange([{ Date: 'Q1', v: 1 }], {
      start: '2025-07-01',
      end: '2025-07-02',
    });
    expect(chartDays(undated, 'Date').map(dayText)).toEqual(['Q1']);
    expect(chartDays(undated, null)).toEqual(['']);
  });
});

describe('axisOfSeries', () => {
  it('puts a series more than 10x smaller than the largest on the second axis', () => {
    expect(
      axisOfSeries([
        [300, 50],
        [2000, 1000],
        [5, 5.5],
      ]),
    ).toEqual([0, 0, 1]);
    expect(axisOfSeries([[100], [1000]])).toEqual([0, 0]);
    expect(axisOfSeries([[0, null], [10]])).toEqual([0, 0]);
  });
  it('the main chart gives downloads and impressions two axes when they differ by more than 10x', () => {
    const entries = rowsForRange(rows(5), { start: '2025-07-01', end: '2025-07-05' });
    const option = buildLineChartOption(
      entries,
      ['Total Impressions', 'App Store Search First-Time Downloads'],
      'Date',
    );
    const series = option.series as Array<{ name: string; yAxisIndex: number }>;
    expect(series.map((s) => [s.name, s.yAxisIndex])).toEqual([
      ['Total Impressions', 0],
      ['App Store Search First-Time Downloads (right axis)', 1],
    ]);
    expect(option.yAxis).toHaveLength(2);
  });
});

describe('buildSourceChartOption', () => {
  it('puts downloads and impressions as bars on the left, each on its own axis when they differ by more than 10x, and the rate as a line on the right', () => {
    const points = buildSourceSeries(rows(3), 'search', { start: '2025-07-01', end: '2025-07-03' });
    const option = buildSourceChartOption(points);
    const series = option.series as Array<{ type: string; yAxisIndex: number; data: number[] }>;
    // 200 impressions against 10 first-time downloads: 20x, so impressions get axis 2.
    expect(series.map((s) => [s.type, s.yAxisIndex])).toEqual([
      ['bar', 0],
      ['bar', 2],
      ['line', 1],
    ]);
    expect((option.yAxis as Array<{ name?: string; position: string }>).map((a) => a.name)).toEqual(
      ['Downloads', undefined, 'Impressions'],
    );
    // Within 10x they share the left axis.
    const close = buildSourceChartOption(
      points.map((p) => ({ ...p, impressions: p.impressions / 4 })),
    );
    expect((close.series as Array<{ yAxisIndex: number }>).map((s) => s.yAxisIndex)).toEqual([
      0, 0, 1,
    ]);
    expect(series[0]!.data).toEqual([10, 10, 10]);
    expect(series[1]!.data).toEqual([0, 200, 200]);
    // 0 impressions give a 0% rate (docs/product.md#dashboard-computation); otherwise 10 / 200 x
    // 100.
    expect(series[2]!.data).toEqual([0, 5, 5]);
    expect(Object.keys(option)).not.toContain('legend');
  });

  it('gives its HTML legend the colours it draws', () => {
    const points = buildSourceSeries(rows(3), 'search', { start: '2025-07-01', end: '2025-07-03' });
    const series = buildSourceChartOption(points).series as Array<{ name: string; color: string }>;
    expect(SOURCE_LEGEND).toEqual(series.map((s) => ({ name: s.name, color: s.color })));
    expect(SOURCE_LEGEND.map((i) => i.color)).toEqual([LINE_COLORS[0], '#93c5fd', LINE_COLORS[1]]);
  });

  it('leaves out the hidden series, keeping the axes and the change markers', () => {
    const points = buildSourceSeries(rows(5), 'search');
    const markers = [{ day: '2025-07-03', label: 'Title' }];
    const option = buildSourceChartOption(
      points,
      markers,
      new Set([SOURCE_SERIES.firstTimeDownloads, SOURCE_SERIES.conversionRate]),
    );
    const series = option.series as Array<{ name: string; markLine?: { data: unknown[] } }>;
    expect(series.map((s) => s.name)).toEqual([SOURCE_SERIES.impressions]);
    // On the rate line while it is drawn, else on the first series drawn.
    expect(series[0]!.markLine!.data).toEqual([{ xAxis: '2025-07-03', name: 'Title' }]);
    expect(option.yAxis).toHaveLength(3);
    const none = buildSourceChartOption(points, markers, new Set(Object.values(SOURCE_SERIES)));
    expect(none.series).toEqual([]);
  });
});

describe('shortDay', () => {
  it('drops the year', () => {
    expect(shortDay('2025-07-20')).toBe('Jul 20');
  });
});

describe('change markers', () => {
  const markers = [
    { day: '2025-07-03', label: 'Title, Screenshots (iPhone)' },
    { day: '2025-09-01', label: 'Subtitle' },
  ];

  it('marks the line chart once, on the days the chart shows', () => {
    const option = buildLineChartOption(
      rowsForRange(rows(5), { start: '2025-07-01', end: '2025-07-05' }),
      ['Total Downloads', 'Total Impressions'],
      'Date',
      markers,
    );
    const series = option.series as LineSeriesOption[];
    const markLine = series[0]!.markLine as { data: { xAxis: string; name: string }[] };
    expect(markLine.data).toEqual([{ xAxis: '2025-07-03', name: 'Title, Screenshots (iPhone)' }]);
    expect(series[1]!.markLine).toBeUndefined();
  });

  it('marks the source charts, and nothing when no change falls in the range', () => {
    const points = buildSourceSeries(rows(5), 'search');
    const option = buildSourceChartOption(points, markers);
    const line = (option.series as LineSeriesOption[]).find((s) => s.type === 'line')!;
    expect((line.markLine as { data: unknown[] }).data).toHaveLength(1);
    const none = buildSourceChartOption(points, [markers[1]!]);
    expect((none.series as LineSeriesOption[]).every((s) => s.markLine === undefined)).toBe(true);
  });
});
