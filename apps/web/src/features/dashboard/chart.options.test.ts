import { buildSourceSeries } from '@aso/analytics';
import type { LineSeriesOption } from 'echarts/charts';
import { describe, expect, it } from 'vitest';
import {
  LINE_COLORS,
  buildLineChartOption,
  buildSourceChartOption,
  lineColor,
  shortDay,
} from './chart.options';
import { rowsForRange } from './dataset.rules';

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
    // '-' is a missing value and counts as 0 (spec section 5).
    expect(series[1]!.data).toEqual([0, 1000, 1000]);
    expect(series.every((s) => s.sampling === 'lttb' && s.type === 'line')).toBe(true);
    expect(series[1]!.color).toBe(LINE_COLORS[1]);
    const xAxis = option.xAxis as { data: { value: string }[] };
    expect(xAxis.data.map((d) => d.value)).toEqual(['2025-07-02', '2025-07-03', '2025-07-04']);
    expect((option.tooltip as { trigger: string }).trigger).toBe('axis');
    expect(option.dataZoom).toEqual([]);
  });

  it('adds a data zoom above 31 points', () => {
    const long = Array.from({ length: 40 }, (_, i) => ({
      Date: `${i < 31 ? 7 : 8}/${(i % 31) + 1}/25`,
      v: i,
    }));
    const entries = rowsForRange(long, { start: '2025-07-01', end: '2025-08-31' });
    expect(entries).toHaveLength(40);
    const option = buildLineChartOption(entries, ['v'], 'Date');
    expect(option.dataZoom).toHaveLength(2);
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

describe('buildSourceChartOption', () => {
  it('puts downloads and impressions as bars on the left axis and the rate as a line on the right', () => {
    const points = buildSourceSeries(rows(3), 'search', { start: '2025-07-01', end: '2025-07-03' });
    const option = buildSourceChartOption(points);
    const series = option.series as Array<{ type: string; yAxisIndex: number; data: number[] }>;
    expect(series.map((s) => [s.type, s.yAxisIndex])).toEqual([
      ['bar', 0],
      ['bar', 0],
      ['line', 1],
    ]);
    expect(series[0]!.data).toEqual([10, 10, 10]);
    expect(series[1]!.data).toEqual([0, 200, 200]);
    // 0 impressions give a 0% rate (spec section 5); otherwise 10 / 200 x 100.
    expect(series[2]!.data).toEqual([0, 5, 5]);
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
