import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../harness/service.process';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { analyzeBundle, type TBundleReport } from '../web/bundle.analyzer';
import { measureEchartsFloor } from '../web/echarts-floor';
import {
  measureServedPages,
  SERVED_ACCEPT_ENCODING,
  servedFiles,
  type TServedSet,
} from '../web/served-pages';
import { BenchSystem } from '../harness/bench.system';
import type { TBenchResult, TTargetCheck } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** Target: first-load JS under 300 KB gzip (KB = 1000 bytes). */
export const FIRST_LOAD_GZIP_TARGET_KB = 300;
/** Target: the JS and CSS the sign-in page and the main screen transfer, as served, at most 150 KB each. */
export const PAGE_SERVED_TARGET_KB = 150;
/** Target: the dashboard chunk (with what it adds), as served, at most 180 KB. */
export const DASHBOARD_SERVED_TARGET_KB = 180;
/**
 * Target: ECharts as the dashboard registers it at most this many times the floor of the chart
 * types it draws (line and bar charts on a grid, canvas renderer), both brotli 11: register only
 * what is drawn.
 */
export const ECHARTS_FLOOR_RATIO_TARGET = 1.1;
/**
 * Target: the dashboard's own code beyond ECharts (the dashboard chunk as served minus its chart
 * module, ECharts and echarts-for-react, brotli 11) at most 60 KB.
 */
export const DASHBOARD_OWN_TARGET_KB = 60;

const run = promisify(execFile);

/**
 * Builds the web app (`vite build` of @aso/web, as `pnpm start` does) into `outDir`, outside
 * apps/web/dist so a build by someone else is never overwritten. @throws Error with the
 * build's output when it fails.
 */
export async function buildWeb(outDir: string): Promise<void> {
  try {
    await run(
      'pnpm',
      [
        '--filter',
        '@aso/web',
        'exec',
        'vite',
        'build',
        '--outDir',
        outDir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      {
        cwd: REPO_ROOT,
        timeout: 15 * 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`the web build failed: ${e.message}\n${e.stderr ?? ''}${e.stdout ?? ''}`);
  }
}

/** Analyses a built web app folder (its index.html and every JS file under it). */
export async function analyzeDist(distDir: string): Promise<TBundleReport> {
  const jsFiles = (readdirSync(distDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.split('\\').join('/'));
  return analyzeBundle(readFileSync(join(distDir, 'index.html'), 'utf8'), jsFiles, (f) =>
    readFileSync(join(distDir, f)),
  );
}

/**
 * Benchmark 6 (docs/BENCHMARKS.md): sizes of the built web app, raw and gzip (zlib level 6, each
 * file on its own): JS and CSS of the first load (index.html's module scripts and modulepreloads
 * with their static imports; its stylesheets) and of the lazily loaded dashboard tab (the dynamic
 * import that brings ECharts). Baselines: the build's whole JS (for the first load), the first load
 * (for the dashboard chunk), the dashboard's chart module alone (for the dashboard chunk as
 * served), and ECharts' floor of the chart types drawn (line and bar charts on a grid, canvas
 * renderer) for ECharts as the dashboard registers it.
 */
export const webBundleBenchmark: TBenchmark = {
  name: 'web',
  title: 'Web app: first-load and dashboard bundle sizes',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const figures = new FiguresBuilder();
    let distDir = ctx.webDistDir;
    if (!distDir) {
      distDir = join(ctx.workDir, 'web-dist');
      ctx.log('web: building the web app (vite build)');
      await buildWeb(distDir);
    }
    let last: TBundleReport | null = null;
    for (let i = 0; i < ctx.sizes.web.runs; i++) {
      const r = await analyzeDist(distDir);
      last = r;
      figures.add('first.js.raw', 'first load: JS raw', 'KB', r.firstLoadJs.rawBytes / 1000);
      figures.add('first.js.gzip', 'first load: JS gzip', 'KB', r.firstLoadJs.gzipBytes / 1000);
      figures.add('first.css.raw', 'first load: CSS raw', 'KB', r.firstLoadCss.rawBytes / 1000);
      figures.add('first.css.gzip', 'first load: CSS gzip', 'KB', r.firstLoadCss.gzipBytes / 1000);
      if (r.dashboard) {
        figures.add(
          'dash.raw',
          'dashboard chunk (lazy, with what it adds): JS raw',
          'KB',
          r.dashboard.rawBytes / 1000,
        );
        figures.add(
          'dash.gzip',
          'dashboard chunk (lazy, with what it adds): JS gzip',
          'KB',
          r.dashboard.gzipBytes / 1000,
        );
      }
    }
    const r = last!;

    // What a browser is sent: the api serving this build (its pre-compressed files), the sign-in
    // page and the main screen loaded in Chromium, the dashboard chunk fetched as Chromium asks.
    const system = await BenchSystem.start({
      label: 'web',
      workDir: ctx.workDir,
      storeDelayMs: 0,
      apiEnv: { WEB_DIST_DIR: distDir },
    });
    let pages: Awaited<ReturnType<typeof measureServedPages>>;
    let dash: TServedSet | null = null;
    try {
      const [user] = await system.users(1);
      pages = await measureServedPages(system.api.baseUrl, user!.token, {
        signIn: '#access-code',
        main: '#app-url',
      });
      if (r.dashboard) dash = await servedFiles(system.api.baseUrl, r.dashboard.files);
    } finally {
      await system.close();
    }
    const kb = (s: TServedSet) => (s.jsBytes + s.cssBytes) / 1000;
    figures.add(
      'served.signin',
      'sign-in page: JS + CSS transferred (as served)',
      'KB',
      kb(pages.signIn),
    );
    figures.add(
      'served.main',
      'main screen: JS + CSS transferred (as served)',
      'KB',
      kb(pages.main),
    );
    if (dash)
      figures.add(
        'served.dash',
        'dashboard chunk (with what it adds): JS transferred (as served)',
        'KB',
        kb(dash),
      );
    // What the charting library costs on its own, bundled and compressed the same way: the
    // dashboard chunk is read against it (its target is close to what ECharts alone weighs).
    const echarts = await measureEchartsFloor(join(REPO_ROOT, 'apps/web'));
    figures.add(
      'echarts.module',
      "the dashboard's chart module alone (ECharts as it registers it, echarts-for-react), brotli 11",
      'KB',
      echarts.chartModule.brBytes / 1000,
    );
    figures.add(
      'echarts.registered',
      'ECharts as the dashboard registers it (its chart module without echarts-for-react), brotli 11',
      'KB',
      echarts.registered.brBytes / 1000,
    );
    figures.add(
      'echarts.floor',
      'ECharts at the least for the chart types drawn: core, canvas renderer, line and bar charts and their grid, brotli 11',
      'KB',
      echarts.floor.brBytes / 1000,
    );
    figures.baseline('echarts.registered', 'ECharts at the least for the chart types drawn', [
      echarts.floor.brBytes / 1000,
    ]);
    // The dashboard's own screens: what its chunk sends beyond the chart module.
    const ownKb = dash ? kb(dash) - echarts.chartModule.brBytes / 1000 : null;
    if (ownKb !== null)
      figures.add(
        'served.dash.own',
        "dashboard chunk beyond its chart module (the dashboard's own code, as served)",
        'KB',
        ownKb,
      );
    const floorRatio = echarts.registered.brBytes / echarts.floor.brBytes;
    const rawJs = r.allJs.rawBytes / 1000;
    for (const id of ['served.signin', 'served.main'])
      figures.baseline(id, "the build's whole JS, raw", [rawJs]);
    if (dash)
      figures.baseline('served.dash', "the dashboard's chart module alone, brotli 11", [
        echarts.chartModule.brBytes / 1000,
      ]);
    const describe = (s: TServedSet) =>
      s.files
        .map((f) => `${f.path} (${f.encoding}, ${formatValue(f.bytes / 1000, 'KB')})`)
        .join(', ');
    figures.baseline('first.js.raw', "the build's whole JS, raw", [r.allJs.rawBytes / 1000]);
    figures.baseline('first.js.gzip', "the build's whole JS, gzip", [r.allJs.gzipBytes / 1000]);
    if (r.dashboard) {
      figures.baseline('dash.raw', 'first-load JS, raw', [r.firstLoadJs.rawBytes / 1000]);
      figures.baseline('dash.gzip', 'first-load JS, gzip', [r.firstLoadJs.gzipBytes / 1000]);
    }
    const gzipKb = r.firstLoadJs.gzipBytes / 1000;
    const echartsOk = r.echartsInFirstLoad.length === 0 && r.dashboard !== null;
    const targets: TTargetCheck[] = [
      {
        target: `Sign-in page and main screen: JS + CSS transferred (as served, compressed) at most ${PAGE_SERVED_TARGET_KB} KB each`,
        measured: `sign-in page ${formatValue(kb(pages.signIn), 'KB')}, main screen ${formatValue(kb(pages.main), 'KB')}`,
        met: kb(pages.signIn) <= PAGE_SERVED_TARGET_KB && kb(pages.main) <= PAGE_SERVED_TARGET_KB,
      },
      {
        target: `Dashboard chunk (with what it adds): transferred (as served, compressed) at most ${DASHBOARD_SERVED_TARGET_KB} KB`,
        measured: dash ? formatValue(kb(dash), 'KB') : 'no dashboard chunk found',
        met: dash !== null && kb(dash) <= DASHBOARD_SERVED_TARGET_KB,
      },
      {
        target: `ECharts as the dashboard registers it at most ${ECHARTS_FLOOR_RATIO_TARGET}x the floor of the chart types it draws (line and bar charts on a grid, canvas renderer), brotli 11`,
        measured: `${formatValue(echarts.registered.brBytes / 1000, 'KB')} against ${formatValue(echarts.floor.brBytes / 1000, 'KB')}: ${floorRatio.toFixed(3)}x`,
        met: floorRatio <= ECHARTS_FLOOR_RATIO_TARGET,
      },
      {
        target: `Dashboard's own code beyond ECharts (its chunk as served minus its chart module) at most ${DASHBOARD_OWN_TARGET_KB} KB compressed`,
        measured: ownKb !== null ? formatValue(ownKb, 'KB') : 'no dashboard chunk found',
        met: ownKb !== null && ownKb <= DASHBOARD_OWN_TARGET_KB,
      },
      {
        target: 'First-load JS under 300 KB gzip, with echarts loaded only on the dashboard',
        measured:
          `${formatValue(gzipKb, 'KB')} gzip (${formatValue(r.firstLoadJs.rawBytes / 1000, 'KB')} raw); ECharts ` +
          (r.echartsInFirstLoad.length
            ? `IN the first load (${r.echartsInFirstLoad.join(', ')})`
            : r.dashboardChunk
              ? `only behind the lazy ${r.dashboardChunk}`
              : 'not found in any chunk'),
        met: gzipKb < FIRST_LOAD_GZIP_TARGET_KB && echartsOk,
      },
    ];
    return {
      name: 'web',
      title: this.title,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      runs: ctx.sizes.web.runs,
      setup: [
        ctx.webDistDir
          ? `Build measured: ${ctx.webDistDir}.`
          : 'Build: `vite build` of @aso/web from the working tree into a temporary folder (apps/web/dist is left alone).',
        "First load: module scripts and modulepreloads of index.html and their static imports (es-module-lexer), plus its stylesheets. Dashboard: the dashboard tab's chunk (`dashboard-tab-*.js`, a dynamic import of the first load whose static closure holds ECharts, marker `_echarts_instance_`) with its static imports, counting only files not already loaded; what it fetches only on use (the date picker's calendar, the CSV writer of an export) is not counted.",
        'gzip: zlib level 6, each file compressed on its own. KB = 1000 bytes. Sizes do not vary between runs; one run.',
        `As served: the api serving this build (WEB_DIST_DIR; the build's pre-compressed .br/.gz files), the sign-in page (anonymous) and the main screen (signed in) each loaded in a fresh context of the system Chromium until the network is idle, counting the body bytes transferred of every same-origin script and stylesheet (the lazily loaded chunks a page fetches at load included); the dashboard chunk's files fetched with \`Accept-Encoding: ${SERVED_ACCEPT_ENCODING}\` as Chromium sends it.`,
      ],
      figures: figures.build(),
      tables: [
        {
          title: 'Files',
          columns: ['Group', 'Files'],
          rows: [
            ['Sign-in page (as served)', describe(pages.signIn)],
            ['Main screen (as served)', describe(pages.main)],
            ['Dashboard chunk (as served)', dash ? describe(dash) : '-'],
            ['First-load JS', r.firstLoadJs.files.join(', ')],
            ['First-load CSS', r.firstLoadCss.files.join(', ')],
            ['Dashboard (lazy)', r.dashboard?.files.join(', ') ?? '-'],
          ],
        },
      ],
      targets,
      findings: [
        `ECharts as the dashboard registers it (line and bar charts, grid, tooltip, mark lines, canvas renderer; legends and the zoom control are HTML) is ${formatValue(echarts.registered.brBytes / 1000, 'KB')} compressed, ${formatValue(echarts.chartModule.brBytes / 1000, 'KB')} with echarts-for-react; at the least for the chart types it draws (line and bar charts on a grid, canvas renderer) it is ${formatValue(echarts.floor.brBytes / 1000, 'KB')} (${floorRatio.toFixed(3)}x). The dashboard chunk adds its own screen (${ownKb !== null ? formatValue(ownKb, 'KB') : '-'} beyond its chart module as served) to that.`,
      ],
    };
  },
};
