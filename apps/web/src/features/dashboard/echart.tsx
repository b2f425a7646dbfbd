/**
 * The one place echarts is loaded: `echarts/core` with only the charts and components the
 * dashboard draws (line and bar charts; grid, tooltip, legend, data zoom, mark lines; canvas renderer),
 * rendered through echarts-for-react's core entry so the full echarts build is never bundled.
 * This module is reached only from the lazily loaded dashboard tab.
 */
import { BarChart, LineChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { CSSProperties } from 'react';
import type { TChartOption } from './chart.options';

echarts.use([
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DataZoomComponent,
  MarkLineComponent,
  CanvasRenderer,
]);

/** Props of {@link EChart}. */
export interface EChartProps {
  option: TChartOption;
  /** CSS height, e.g. '26rem'. */
  height: string;
  className?: string;
  /** Accessible name of the chart (the canvas itself has no text). */
  label: string;
}

/** A canvas chart of `option`, as wide as its container and `height` tall. */
export function EChart({ option, height, className, label }: EChartProps) {
  const style: CSSProperties = { height, width: '100%' };
  // A page being printed (the PDF reports) draws each chart at once, in its final state.
  const printing = document.documentElement.dataset.print === 'true';
  return (
    <div role="img" aria-label={label} className={className}>
      <ReactEChartsCore
        echarts={echarts}
        option={printing ? { ...option, animation: false } : option}
        notMerge
        lazyUpdate
        style={style}
        opts={{ renderer: 'canvas' }}
      />
    </div>
  );
}
