import { z } from 'zod';
import { ZCheckAccessAnswer, ZDashboard, ZDashboardList, ZSavedAudit } from '@aso/contracts';
import { generateExport } from '../data/asc-export.generator';
import { loadTest } from '../harness/wrk.load';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { median } from '../stats/stats.helpers';
import { BenchFailure, type TBenchResult, type TTargetCheck } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** Target: chart-data and reports answer at p99 under 50 ms; so do the page-load reads. */
export const READS_P99_TARGET_MS = 50;

/**
 * Target: each page-load read (audit, saved audits, dashboards, check-access) serves at least
 * this share (ratio 0-1) of `/healthz`'s requests per second on the same server in the same run.
 */
export const PAGE_LOAD_RPS_SHARE_TARGET = 0.25;

/**
 * Targets at the framework's floor: the audit read serves at least this share (ratio 0-1) of
 * `/healthz`'s requests per second with p99 under {@link AUDIT_READ_P99_FLOOR_TARGET_MS}, and the
 * list reads (saved audits, dashboards) at least {@link LIST_READ_FLOOR_SHARE_TARGET}.
 */
export const AUDIT_READ_FLOOR_SHARE_TARGET = 0.6;
export const AUDIT_READ_P99_FLOOR_TARGET_MS = 10;
export const LIST_READ_FLOOR_SHARE_TARGET = 0.7;

/** App of the audit the page-load reads fetch (a recorded app of the replay server). */
const SPOTIFY = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';

/** Saved audits and dashboards the reading user has (their lists as a page load reads them). */
const SAVED_ITEMS = 3;

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

/** One endpoint under load: its figure id, label and path (known once the data exists). */
interface TEndpoint {
  id: string;
  label: string;
  path: () => string;
  auth: boolean;
}

/**
 * A group of endpoints driven at the same number of connections, the first being `/healthz`
 * (their baseline, same server, same run, same connections).
 */
interface TGroup {
  connections: number;
  endpoints: TEndpoint[];
}

/** Answers `SAVED_ITEMS` finished audits of `SPOTIFY` for `token`, each saved (ids). */
async function seedAudits(
  system: Awaited<ReturnType<TBenchContext['system']>>,
  token: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < SAVED_ITEMS; n++) {
    const { id } = await system.api.analyze(token, { appStoreUrl: SPOTIFY });
    for (let i = 0; ; i++) {
      const status = (await system.api.audit(token, id)).status;
      if (status === 'done') break;
      if (status === 'failed' || i > 600) throw new BenchFailure(`the reads' audit ${status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await system.api.call('/api/saved-audits', ZSavedAudit, {
      token,
      body: { auditId: id, storefront: 'us' },
    });
    ids.push(id);
  }
  return ids;
}

/**
 * Benchmark 5 (docs/BENCHMARKS.md), under wrk, each group against `GET /healthz` on the same
 * server in the same run at the same number of connections (endpoints take turns within each
 * run):
 * - the reads every page load makes (`GET /api/audit/{id}` of a finished 4-step audit, `GET
 *   /api/saved-audits`, `GET /api/dashboards`, `GET /api/check-access`) at
 *   `pageConnections`: requests/s as a share of `/healthz`'s, latency p50/p99;
 * - `GET /api/chart-data/{id}` and `GET /api/reports/{id}?start&end` on a dataset of `years`
 *   years of daily rows (uploaded through `POST /api/uploads`, CONSTRUCTED exports in the
 *   samples' layout) at `connections`: reports for the last 30 days, the last year and the
 *   whole span.
 */
export const readsBenchmark: TBenchmark = {
  name: 'reads',
  title: 'Reads: page-load calls, chart data and KPI reports under load',
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
    let auditId = '';
    const pageEndpoints: TEndpoint[] = [
      {
        id: 'audit',
        label: 'GET /api/audit/{id}',
        path: () => `/api/audit/${auditId}`,
        auth: true,
      },
      { id: 'saved', label: 'GET /api/saved-audits', path: () => '/api/saved-audits', auth: true },
      { id: 'dashboards', label: 'GET /api/dashboards', path: () => '/api/dashboards', auth: true },
      { id: 'access', label: 'GET /api/check-access', path: () => '/api/check-access', auth: true },
    ];
    const dataEndpoints: TEndpoint[] = [
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
    const healthz = (id: string, connections: number): TEndpoint => ({
      id,
      label: `GET /healthz (${connections} connections)`,
      path: () => '/healthz',
      auth: false,
    });
    const groups: TGroup[] = [
      {
        connections: size.pageConnections,
        endpoints: [healthz('pageHealthz', size.pageConnections), ...pageEndpoints],
      },
      {
        connections: size.connections,
        endpoints: [healthz('healthz', size.connections), ...dataEndpoints],
      },
    ];
    await system.ensureWorkers({
      scraper: { count: 1 },
      analyzer: { count: 1 },
      'csv-merge': { count: 1 },
    });
    const [user] = await system.users(1);
    const token = user!.token;
    const spec = {
      appName: 'Bench Reads App',
      territory: 'United States',
      startDay: firstDay,
      rows,
    };
    const answer = await system.api.upload(token, {
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
    const auditIds = await seedAudits(system, token);
    auditId = auditIds[0]!;
    for (let n = 0; n < SAVED_ITEMS; n++) {
      await system.api.call('/api/dashboards', ZDashboard, {
        token,
        body: {
          appName: answer.mergedData.appName,
          territory: answer.mergedData.territory,
          configJson: {
            downloadId,
            headers: answer.mergedData.headers,
            totalRows: answer.mergedData.totalRows,
            createdFrom: 'csv_upload',
          },
        },
      });
    }
    // Each answer once, checked against its contract, before it is timed.
    const audit = await system.api.audit(token, auditId);
    const auditBytes = Buffer.byteLength(JSON.stringify(audit));
    const saved = await system.api.call('/api/saved-audits', z.array(ZSavedAudit), { token });
    const boards = await system.api.call('/api/dashboards', ZDashboardList, { token });
    const access = await system.api.call('/api/check-access', ZCheckAccessAnswer, { token });
    if (saved.length !== SAVED_ITEMS || boards.length !== SAVED_ITEMS)
      throw new BenchFailure(
        `the lists answered ${saved.length} saved audits and ${boards.length} dashboards, expected ${SAVED_ITEMS} each`,
      );
    if (!('isUser' in access) || !access.isUser)
      throw new BenchFailure('check-access did not recognise the signed-in user');
    const chart = await system.api.chartData(token, downloadId);
    if (chart.length !== rows)
      throw new BenchFailure(`chart-data answered ${chart.length} rows, expected ${rows}`);
    for (const e of dataEndpoints.filter((x) => x.id.startsWith('report'))) {
      const q = new URL(e.path(), system.api.baseUrl).searchParams;
      const report = await system.api.report(token, downloadId, {
        start: q.get('start')!,
        end: q.get('end')!,
      });
      if (report.range.end !== LAST_DAY)
        throw new BenchFailure(
          `${e.label}: the report's range ends ${report.range.end}, expected ${LAST_DAY}`,
        );
    }

    for (let run = 0; run < size.runs; run++) {
      for (const group of groups) {
        for (const e of group.endpoints) {
          const profile = ctx.cpuProfile && run === 0;
          if (profile) await system.startApiProfile();
          const r = await loadTest(`${system.api.baseUrl}${e.path()}`, {
            durationS: size.durationS,
            connections: group.connections,
            headers: { 'Accept-Encoding': BROWSER_ACCEPT_ENCODING },
            authorization: e.auth ? `Bearer ${token}` : undefined,
          });
          if (profile) await system.stopApiProfile(`reads-${e.id}`);
          figures.add(`${e.id}.rps`, `${e.label}: requests/s`, 'req/s', r.rps);
          figures.add(`${e.id}.p50`, `${e.label}: latency p50`, 'ms', r.p50);
          figures.add(`${e.id}.p99`, `${e.label}: latency p99`, 'ms', r.p99);
        }
      }
      ctx.log(
        `reads: run ${run + 1}/${size.runs}: ` +
          groups
            .flatMap((g) => g.endpoints)
            .map(
              (e) =>
                `${e.id} ${formatValue(figures.samples(`${e.id}.rps`).at(-1)!, 'req/s')} p99 ${formatValue(figures.samples(`${e.id}.p99`).at(-1)!, 'ms')}`,
            )
            .join(', '),
      );
    }
    for (const group of groups) {
      const [base, ...rest] = group.endpoints;
      for (const e of rest) {
        for (const m of ['rps', 'p50', 'p99'])
          figures.baseline(
            `${e.id}.${m}`,
            `GET /healthz, same server, same run, ${group.connections} connections`,
            figures.samples(`${base!.id}.${m}`),
          );
      }
    }
    const targets: TTargetCheck[] = [];
    if (size.years >= 5 && size.durationS >= 5) {
      const healthzRps = median(figures.samples('pageHealthz.rps'));
      const page = pageEndpoints.map((e) => ({
        e,
        rps: median(figures.samples(`${e.id}.rps`)),
        p99: median(figures.samples(`${e.id}.p99`)),
      }));
      targets.push({
        target: `Page-load reads (audit, saved audits, dashboards, check-access) each at least ${PAGE_LOAD_RPS_SHARE_TARGET * 100} % of /healthz's requests/s at ${size.pageConnections} connections, p99 under ${READS_P99_TARGET_MS} ms`,
        measured:
          page
            .map(
              (w) =>
                `${w.e.label.replace('GET ', '')} ${formatValue(w.rps, 'req/s')} (${((w.rps / healthzRps) * 100).toFixed(0)} %), p99 ${formatValue(w.p99, 'ms')}`,
            )
            .join('; ') +
          `; /healthz ${formatValue(healthzRps, 'req/s')}, p99 ${formatValue(median(figures.samples('pageHealthz.p99')), 'ms')} (medians over runs)`,
        met: page.every(
          (w) => w.rps >= PAGE_LOAD_RPS_SHARE_TARGET * healthzRps && w.p99 < READS_P99_TARGET_MS,
        ),
      });
      const share = (w: (typeof page)[number]) => w.rps / healthzRps;
      const audit = page.find((w) => w.e.id === 'audit')!;
      targets.push({
        target: `Audit read at least ${AUDIT_READ_FLOOR_SHARE_TARGET} of /healthz's requests/s in the same run, p99 under ${AUDIT_READ_P99_FLOOR_TARGET_MS} ms`,
        measured: `${share(audit).toFixed(2)} of /healthz, p99 ${formatValue(audit.p99, 'ms')} (medians over runs)`,
        met:
          share(audit) >= AUDIT_READ_FLOOR_SHARE_TARGET &&
          audit.p99 < AUDIT_READ_P99_FLOOR_TARGET_MS,
      });
      const lists = page.filter((w) => w.e.id === 'saved' || w.e.id === 'dashboards');
      targets.push({
        target: `List reads (saved audits, dashboards) at least ${LIST_READ_FLOOR_SHARE_TARGET} of /healthz's requests/s in the same run`,
        measured: lists
          .map((w) => `${w.e.label.replace('GET ', '')} ${share(w).toFixed(2)}`)
          .join('; '),
        met: lists.every((w) => share(w) >= LIST_READ_FLOOR_SHARE_TARGET),
      });
      const worst = dataEndpoints.map((e) => ({ e, p99: median(figures.samples(`${e.id}.p99`)) }));
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
        `Page-load reads: one user with ${SAVED_ITEMS} saved audits (finished audits of Spotify through the replay server; the audit read is ${formatValue(auditBytes / 1000, 'KB')} of JSON) and ${SAVED_ITEMS} dashboards; check-access with the user's bearer token; ${size.pageConnections} connections.`,
        `Dataset: ${size.years} years of daily rows (${firstDay} to ${LAST_DAY}, ${rows} days), conversion + redownloads exports (CONSTRUCTED, samples' layout) merged by POST /api/uploads; chart-data and reports at ${size.connections} connections.`,
        `wrk (Debian's, in its own process, 1 thread): keep-alive connections, ${size.durationS} s per endpoint per run, bearer token, \`Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}\` as a browser sends it (answers are not decompressed by the load generator); any answer with a status of 400 or more, socket error or timeout fails the benchmark (no request is conditional and none is redirected, so the answers counted are 200s). Each answer was checked once against its contract first. Until 2026-11-21 the load came from autocannon in the benchmark's own process, whose per-answer body handling capped chart-data near 450 requests/s (see the analysis).`,
        'Processes: the api (loaded), an idle scraper, analyzer and csv-merge worker.',
      ],
      figures: figures.build(),
      tables: [],
      targets,
      findings: [],
    };
  },
};
