import { brotliCompressSync, constants } from 'node:zlib';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Raw and brotli sizes (bytes) of one bundle. */
export interface TBundleSize {
  rawBytes: number;
  brBytes: number;
}

/** What the dashboard's chart code costs on its own, and the least ECharts can cost. */
export interface TEchartsFloor {
  /** The dashboard's chart module (apps/web/src/features/dashboard/echart.tsx) alone: ECharts as it registers it, echarts-for-react; React left out. */
  chartModule: TBundleSize;
  /** The same module without echarts-for-react (left out like React): ECharts as the dashboard registers it. */
  registered: TBundleSize;
  /**
   * `echarts/core` with the canvas renderer, the line and bar charts and their grid: the least
   * that draws the chart types the dashboard draws (line charts, and bar charts in the
   * traffic-source charts).
   */
  floor: TBundleSize;
}

/** The least ECharts that draws line and bar charts: core, canvas renderer, both charts, grid. */
const FLOOR_ENTRY = `
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
echarts.use([LineChart, BarChart, GridComponent, CanvasRenderer]);
export default echarts;
`;

/** Left out of every bundle: React is the app's own, not the charts'. */
const REACT = ['react', 'react-dom', 'react/jsx-runtime'];

async function bundleSize(
  webDir: string,
  entry: { contents: string; resolveDir: string; loader: 'ts' | 'tsx' },
  external: readonly string[] = REACT,
): Promise<TBundleSize> {
  const out = await build({
    stdin: entry,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    // As the web build sees them: production code paths, packages from apps/web.
    define: { 'process.env.NODE_ENV': '"production"' },
    nodePaths: [join(webDir, 'node_modules')],
    external: [...external],
    jsx: 'automatic',
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.contents;
  const br = brotliCompressSync(code, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
  });
  return { rawBytes: code.length, brBytes: br.length };
}

/**
 * Sizes of the dashboard's chart module alone (with and without echarts-for-react) and of the
 * ECharts floor, each bundled by esbuild
 * (minified, production) and compressed with brotli at the quality the web build serves (11),
 * so the dashboard chunk can be read against what its charting library costs at the least.
 * @param webDir the web app's folder (apps/web), whose node_modules hold echarts.
 * @throws Error when esbuild cannot bundle either entry.
 */
export async function measureEchartsFloor(webDir: string): Promise<TEchartsFloor> {
  const chartEntry = {
    contents: "export * from './echart';",
    resolveDir: join(webDir, 'src/features/dashboard'),
    loader: 'tsx' as const,
  };
  const [chartModule, registered, floor] = await Promise.all([
    bundleSize(webDir, chartEntry),
    bundleSize(webDir, chartEntry, [...REACT, 'echarts-for-react', 'echarts-for-react/*']),
    bundleSize(webDir, { contents: FLOOR_ENTRY, resolveDir: webDir, loader: 'ts' }),
  ]);
  return { chartModule, registered, floor };
}
