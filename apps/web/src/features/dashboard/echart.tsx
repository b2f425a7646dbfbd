/**
 * The one place echarts is loaded: `echarts/core` with only what the charts draw (line and bar
 * charts on a grid, their tooltip and the change markers' mark lines; canvas renderer),
 * rendered through echarts-for-react's core entry so the full echarts build is never bundled.
 * Legends and the zoom control are HTML beside the chart (`chart-legend.tsx`, `chart-zoom.tsx`),
 * which keeps ECharts' legend and data zoom components out of the bundle. This module is
 * reached only from lazily loaded screens (the dashboard tab, a listing's timeline).
 */
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { CSSProperties } from 'react';
import { isPrinting } from '@/hooks/use-printing';
import type { TChartOption } from './chart.options';

echarts.use([
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  MarkLineComponent,
  CanvasRenderer,
]);

/** Props of {@link EChart}. */
export interface TEChartProps {
  option: TChartOption;
  /** CSS height, e.g. '26rem'. */
  height: string;
  className?: string;
  /** Accessible name of the chart (the canvas itself has no text). */
  label: string;
}

/** A canvas chart of `option`, as wide as its container and `height` tall. */
export function EChart({ option, height, className, label }: TEChartProps) {
  const style: CSSProperties = { height, width: '100%' };
  // A page being printed (the PDF reports) draws each chart at once, in its final state.
  const shown = isPrinting() ? { ...option, animation: false } : option;
  return (
    <div role="img" aria-label={label} className={className}>
      <ReactEChartsCore
        echarts={echarts}
        option={shown}
        notMerge
        lazyUpdate
        style={style}
        opts={{ renderer: 'canvas' }}
      />
    </div>
  );
}
