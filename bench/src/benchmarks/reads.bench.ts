import { generateExport } from '../data/asc-export.generator';
import { loadTest } from '../harness/wrk.load';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { median } from '../stats/stats.helpers';
import { BenchFailure, type TBenchResult, type TTargetCheck } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** Target: chart-data and reports answer at p99 under 50 ms. */
export const READS_P99_TARGET_MS = 50;

/** Last day of the benchmark dataset (its years end here). */
const LAST_DAY = '2025-12-31';

/**
 * The `Accept-Encoding` every browser sends (the web client reads chart-data through fetch): the
 * load generator asks for compressed answers as the real client does, and does not decompress
 * them, so the figures are the server's, not the cost of parsing megabytes of JSON in the load
 * generator.
 */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br';

function daysBefore(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Benchmark 5 (docs/BENCHMARKS.md): `GET /api/chart-data/{id}` and `GET
 * /api/reports/{id}?start&end` on a dataset of `years` years of daily rows (uploaded through `POST
 * /api/uploads`, CONSTRUCTED exports in the samples' layout), under wrk: requests/s and latency
 * p50/p99. Reports are read for the last 30 days, the last year and the whole span. Baseline: `GET
 * /healthz` on the same server in the same run. Endpoints take turns within each run.
 */
export const readsBenchmark: TBenchmark = {
  name: 'reads',
  title: 'Reads: chart data and KPI reports under load',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const size = ctx.sizes.reads;
    const system = await ctx.system('reads', 0);
    const figures = new FiguresBuilder();
    const firstDay = `${Number(LAST_DAY.slice(0, 4)) - size.years + 1}-01-01`;
    const rows =
      Math.round(
        (Date.parse(`${LAST_DAY}T00:00:00Z`) - Date.parse(`${firstDay}T00:00:00Z`)) / 86_400_000,
      ) + 1;
    let downloadId = '';
    const endpoints: { id: string; label: string; path: () => string; auth: boolean }[] = [
      { id: 'healthz', label: 'GET /healthz', path: () => '/healthz', auth: false },
      {
        id: 'chart',
        label: `GET /api/chart-data/{id} (${rows} rows)`,
        path: () => `/api/chart-data/${downloadId}`,
        auth: true,
      },
      {
        id: 'report30',
        label: 'GET /api/reports/{id}, last 30 days',
        path: () => `/api/reports/${downloadId}?start=${daysBefore(LAST_DAY, 29)}&end=${LAST_DAY}`,
        auth: true,
      },
      {
        id: 'report365',
        label: 'GET /api/reports/{id}, last 365 days',
        path: () => `/api/reports/${downloadId}?start=${daysBefore(LAST_DAY, 364)}&end=${LAST_DAY}`,
        auth: true,
      },
      {
        id: 'reportAll',
        label: `GET /api/reports/{id}, whole span (${size.years} years)`,
        path: () => `/api/reports/${downloadId}?start=${firstDay}&end=${LAST_DAY}`,
        auth: true,
      },
    ];
    await system.ensureWorkers({ 'csv-merge': { count: 1 } });
    const [user] = await system.users(1);
    const token = user!.token;
    const spec = {
      appName: 'Bench Reads App',
      territory: 'United States',
      startDay: firstDay,
      rows,
    };
    const answer = await system.api.upload(user!.token, {
      conversionCSV: {
        filename: 'constructed_conversion_reads.csv',
        bytes: generateExport({ ...spec, kind: 'conversion' }).bytes,
      },
      redownloadsCSV: {
        filename: 'constructed_redownloads_reads.csv',
        bytes: generateExport({ ...spec, kind: 'redownloads' }).bytes,
      },
    });
    downloadId = answer.mergedData.downloadId;
    // Each answer once, checked against its contract, before it is timed.
    const chart = await system.api.chartData(user!.token, downloadId);
    if (chart.length !== rows)
      throw new BenchFailure(`chart-data answered ${chart.length} rows, expected ${rows}`);
    for (const e of endpoints.filter((x) => x.id.startsWith('report'))) {
      const q = new URL(e.path(), system.api.baseUrl).searchParams;
      const report = await system.api.report(user!.token, downloadId, {
        start: q.get('start')!,
        end: q.get('end')!,
      });
      if (report.range.end !== LAST_DAY)
        throw new BenchFailure(
          `${e.label}: the report's range ends ${report.range.end}, expected ${LAST_DAY}`,
        );
    }

    for (let run = 0; run < size.runs; run++) {
      for (const e of endpoints) {
        const profile = ctx.cpuProfile && run === 0;
        if (profile) await system.startApiProfile();
        const r = await loadTest(`${system.api.baseUrl}${e.path()}`, {
          durationS: size.durationS,
          connections: size.connections,
          headers: { 'Accept-Encoding': BROWSER_ACCEPT_ENCODING },
          authorization: e.auth ? `Bearer ${token}` : undefined,
        });
        if (profile) await system.stopApiProfile(`reads-${e.id}`);
        figures.add(`${e.id}.rps`, `${e.label}: requests/s`, 'req/s', r.rps);
        figures.add(`${e.id}.p50`, `${e.label}: latency p50`, 'ms', r.p50);
        figures.add(`${e.id}.p99`, `${e.label}: latency p99`, 'ms', r.p99);
      }
      ctx.log(
        `reads: run ${run + 1}/${size.runs}: ` +
          endpoints
            .map((e) => `${e.id} p99 ${formatValue(figures.samples(`${e.id}.p99`).at(-1)!, 'ms')}`)
            .join(', '),
      );
    }
    for (const e of endpoints.slice(1)) {
      for (const m of ['rps', 'p50', 'p99'])
        figures.baseline(
          `${e.id}.${m}`,
          'GET /healthz, same server, same run',
          figures.samples(`healthz.${m}`),
        );
    }
    const targets: TTargetCheck[] = [];
    if (size.years >= 5 && size.durationS >= 5) {
      const worst = endpoints
        .slice(1)
        .map((e) => ({ e, p99: median(figures.samples(`${e.id}.p99`)) }));
      targets.push({
        target: 'chart-data and reports p99 under 50 ms',
        measured:
          worst
            .map(
              (w) =>
                `${w.e.id === 'chart' ? 'chart-data' : w.e.label.replace('GET /api/reports/{id}, ', 'reports ')} ${formatValue(w.p99, 'ms')}`,
            )
            .join('; ') + ` (median p99 over runs, ${size.connections} connections)`,
        met: worst.every((w) => w.p99 < READS_P99_TARGET_MS),
      });
    }
    return {
      name: 'reads',
      title: this.title,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      runs: size.runs,
      setup: [
        `Dataset: ${size.years} years of daily rows (${firstDay} to ${LAST_DAY}, ${rows} days), conversion + redownloads exports (CONSTRUCTED, samples' layout) merged by POST /api/uploads.`,
        `wrk (Debian's, in its own process, 1 thread): ${size.connections} keep-alive connections, ${size.durationS} s per endpoint per run, bearer token, \`Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}\` as a browser sends it (answers are not decompressed by the load generator); any answer with a status of 400 or more, socket error or timeout fails the benchmark (no request is conditional and none is redirected, so the answers counted are 200s). Each answer was checked once against its contract first. Until 2026-11-21 the load came from autocannon in the benchmark's own process, whose per-answer body handling capped chart-data near 450 requests/s (see the analysis).`,
        'Processes: the api (loaded), an idle csv-merge worker.',
      ],
      figures: figures.build(),
      tables: [],
      targets,
      findings: [],
    };
  },
};
