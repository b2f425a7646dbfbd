import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSse } from '@aso/api-client';
import { generateExport } from '../data/asc-export.generator';
import type { TProcessMemory } from '../harness/bench.system';
import { parseStatusRssBytes } from '../probes/process.sampler';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { median } from '../stats/stats.helpers';
import { BenchFailure, type TBenchResult, type TTargetCheck } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** Target: the api's RSS after the run within 10 % of its value after warm-up. */
export const SOAK_RSS_GROWTH_TARGET_PCT = 10;

const SPOTIFY = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';

/** Least-squares slope of `ys` over `xs` (units of y per unit of x); 0 with fewer than 2 points. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  const mx = xs.slice(0, n).reduce((a, b) => a + b, 0) / n;
  const my = ys.slice(0, n).reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** One sample of the api's memory: RSS (MB) and the probe's breakdown (bytes; null if it failed). */
interface TSoakSample {
  t: number;
  mb: number;
  heap: TProcessMemory | null;
}

/** The api right after two forced full collections: RSS, live heap and reserved heap (MB). */
interface TCollected {
  mb: number;
  liveMb: number;
  heapTotalMb: number;
}

/** RSS of process `pid` now (MB = 10^6 bytes). */
function rssMb(pid: number): number {
  return (parseStatusRssBytes(readFileSync(`/proc/${pid}/status`, 'utf8')) ?? 0) / 1e6;
}

/**
 * Benchmark 7 (docs/BENCHMARKS.md): memory under a mixed load. Virtual users read an audit
 * (`GET /api/audit/{id}`), list saved audits and dashboards, open and close progress streams
 * (`GET /api/progress`, replayed and ended), and upload two small exports (one merge per user
 * at a time) in a loop for the warm-up and then the measured duration; the api's RSS is
 * sampled every few seconds. Reported: RSS after warm-up, after the run, their ratio (target:
 * within 10 %), and the slope of RSS over the measured part (MB per minute: steady growth
 * shows as a positive slope). Errors fail the benchmark.
 */
export const soakBenchmark: TBenchmark = {
  name: 'soak',
  title: 'Soak: the api memory under a mixed load',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const size = ctx.sizes.soak;
    const system = await ctx.system('soak', 0);
    await system.ensureWorkers({
      scraper: { count: 1 },
      analyzer: { count: 1 },
      'csv-merge': { count: 1 },
    });
    const users = await system.users(size.users);
    const base = system.api.baseUrl;
    const first = users[0]!;
    // One finished audit whose stream every SSE open replays.
    const { id: auditId } = await system.api.analyze(first.token, { appStoreUrl: SPOTIFY });
    for (let i = 0; ; i++) {
      const status = (await system.api.audit(first.token, auditId)).status;
      if (status === 'done') break;
      if (status === 'failed' || i > 600) throw new BenchFailure(`the soak's audit ${status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const exports = (['conversion', 'redownloads'] as const).map((kind) =>
      generateExport({
        kind,
        appName: 'Soak App',
        territory: 'United States',
        startDay: '2025-01-01',
        rows: 90,
      }),
    );

    const counts = { audit: 0, lists: 0, sse: 0, upload: 0 };
    const errors: string[] = [];
    const pid = system.apiProcess.pid;
    const samples: TSoakSample[] = [];
    const t0 = performance.now();
    const warmupEnd = t0 + size.warmupS * 1000;
    const end = warmupEnd + size.durationS * 1000;
    const sample = async () => {
      const t = (performance.now() - t0) / 1000;
      const mb = rssMb(pid);
      const heap = await system.apiMemory().catch(() => null);
      samples.push({ t, mb, heap });
    };
    const sampler = setInterval(() => void sample(), size.sampleEveryS * 1000);
    // With --heap-snapshots: a heap snapshot of the api at the end of the warm-up and at the end, to
    // compare what the heap holds (kept in the work folder with --keep).
    const snapshots: Promise<void>[] = [];
    const snapshot = (name: string) =>
      ctx.heapSnapshots
        ? system.apiHeapSnapshot(join(ctx.workDir, `soak-api-${name}.heapsnapshot`))
        : Promise.resolve();
    const warmupSnapshot = setTimeout(
      () => snapshots.push(snapshot('after-warmup')),
      size.warmupS * 1000,
    );
    // RSS swings by 100 MB with the collector's cycle (the old space fills with garbage, then
    // a full collection empties it): what the api holds once its garbage is gone is read after
    // two forced full collections at the end of the warm-up and just before the load stops,
    // both under the load.
    const collected: { warm?: TCollected; end?: TCollected } = {};
    const collect = async (at: 'warm' | 'end') => {
      const heap = await system.apiMemoryAfterGc();
      collected[at] = {
        mb: rssMb(pid),
        liveMb: heap.heapUsed / 1e6,
        heapTotalMb: heap.heapTotal / 1e6,
      };
    };
    const collecting: Promise<void>[] = [];
    const collectTimers = [
      setTimeout(() => collecting.push(collect('warm')), size.warmupS * 1000),
      setTimeout(
        () => collecting.push(collect('end')),
        Math.max(size.warmupS * 1000, (size.warmupS + size.durationS) * 1000 - 3_000),
      ),
    ];
    const get = async (token: string, path: string) => {
      const res = await fetch(`${base}${path}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
    };
    const step = async (u: (typeof users)[number], i: number) => {
      const kind = i % 20;
      if (kind < 12) {
        await get(first.token, `/api/audit/${auditId}`);
        counts.audit++;
      } else if (kind < 16) {
        await get(u.token, i % 2 ? '/api/saved-audits' : '/api/dashboards');
        counts.lists++;
      } else if (kind < 19) {
        for await (const m of readSse(`${base}/api/progress?auditId=${auditId}`, {
          headers: { authorization: `Bearer ${first.token}` },
          signal: AbortSignal.timeout(30_000),
        })) {
          if (m.event === 'complete') break;
        }
        counts.sse++;
      } else {
        await system.api.upload(u.token, {
          conversionCSV: { filename: 'soak-conversion.csv', bytes: exports[0]!.bytes },
          redownloadsCSV: { filename: 'soak-redownloads.csv', bytes: exports[1]!.bytes },
        });
        counts.upload++;
      }
    };
    await Promise.all(
      users.map(async (u, n) => {
        for (let i = n; performance.now() < end; i++) {
          try {
            await step(u, i);
          } catch (err) {
            errors.push((err as Error).message);
            if (errors.length > 20) return;
          }
        }
      }),
    );
    clearInterval(sampler);
    clearTimeout(warmupSnapshot);
    for (const t of collectTimers) clearTimeout(t);
    await Promise.all(collecting);
    await sample();
    await Promise.all(snapshots);
    await snapshot('end');
    if (errors.length > 0)
      throw new BenchFailure(
        `${errors.length} requests failed, e.g. ${errors.slice(0, 3).join('; ')}`,
      );

    const measured = samples.filter((s) => s.t >= size.warmupS);
    // RSS swings with the collector by tens of MB between samples: each end is the median of
    // a window (the first and the last tenth of the measured part, at least one sample).
    const window = Math.max(1, Math.round(measured.length / 10));
    const afterWarmup = median(measured.slice(0, window).map((s) => s.mb));
    const afterRun = median(measured.slice(-window).map((s) => s.mb));
    // The same two windows for the V8 heap: live objects (used) and what V8 reserved (total).
    const heapMb = (part: TSoakSample[], key: 'heapUsed' | 'heapTotal' | 'external') =>
      median(part.filter((s) => s.heap).map((s) => s.heap![key] / 1e6));
    const growthPct = ((afterRun - afterWarmup) / afterWarmup) * 100;
    const perMinute =
      slope(
        measured.map((s) => s.t / 60),
        measured.map((s) => s.mb),
      ) || 0;
    const head = measured.slice(0, window);
    const last = measured.slice(-window);
    const figures = new FiguresBuilder()
      .add('rss.warm', 'api RSS after warm-up (median of the first tenth)', 'MB', afterWarmup)
      .add('rss.end', 'api RSS at the end (median of the last tenth)', 'MB', afterRun)
      .add('rss.growth', 'api RSS growth, end vs. after warm-up', '%', Math.max(0, growthPct))
      .add(
        'rss.slope',
        'api RSS slope over the measured part (MB/min, 0 when falling)',
        'MB',
        Math.max(0, perMinute),
      );
    for (const [key, what] of [
      ['heapUsed', 'V8 heap used'],
      ['heapTotal', 'V8 heap reserved (heapTotal)'],
    ] as const)
      figures
        .add(
          `${key}.warm`,
          `api ${what} after warm-up (median of the first tenth)`,
          'MB',
          heapMb(head, key),
        )
        .add(
          `${key}.end`,
          `api ${what} at the end (median of the last tenth)`,
          'MB',
          heapMb(last, key),
        );
    for (const [at, when] of [
      ['warm', 'at the end of the warm-up'],
      ['end', 'just before the load stops'],
    ] as const) {
      const c = collected[at];
      if (!c) continue;
      figures
        .add(`gc.rss.${at}`, `api RSS right after two full collections, ${when}`, 'MB', c.mb)
        .add(
          `gc.live.${at}`,
          `api V8 heap used right after two full collections (live objects), ${when}`,
          'MB',
          c.liveMb,
        );
    }
    const findings: string[] = [];
    if (collected.warm && collected.end) {
      const pct = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;
      findings.push(
        `Once the garbage is collected the api holds ${formatValue(collected.warm.mb, 'MB')} RSS and ${formatValue(collected.warm.liveMb, 'MB')} of live V8 heap at the end of the warm-up, and ${formatValue(collected.end.mb, 'MB')} RSS and ${formatValue(collected.end.liveMb, 'MB')} live at the end (${pct(collected.warm.mb, collected.end.mb)} and ${pct(collected.warm.liveMb, collected.end.liveMb)}). Between collections the V8 heap used swings between ${formatValue(Math.min(...measured.filter((s) => s.heap).map((s) => s.heap!.heapUsed / 1e6)), 'MB')} and ${formatValue(Math.max(...measured.filter((s) => s.heap).map((s) => s.heap!.heapUsed / 1e6)), 'MB')}, and RSS with it: the window medians above depend on where in that cycle their samples fall.`,
      );
    }
    figures
      .add(
        'external.end',
        'api memory outside the V8 heap held by JS objects (external, incl. Buffers) at the end',
        'MB',
        heapMb(last, 'external'),
      )
      .add(
        'requests',
        'requests answered',
        'count',
        counts.audit + counts.lists + counts.sse + counts.upload,
      );
    ctx.log(
      `soak: RSS ${formatValue(afterWarmup, 'MB')} after warm-up, ${formatValue(afterRun, 'MB')} at the end (${growthPct.toFixed(1)} %), slope ${perMinute.toFixed(2)} MB/min`,
    );
    const targets: TTargetCheck[] =
      size.durationS >= 600
        ? [
            {
              target: `api RSS after the run within ${SOAK_RSS_GROWTH_TARGET_PCT} % of its value after warm-up, no steady growth`,
              measured: `${formatValue(afterWarmup, 'MB')} -> ${formatValue(afterRun, 'MB')} (${growthPct.toFixed(1)} %), slope ${perMinute.toFixed(2)} MB/min`,
              met: growthPct <= SOAK_RSS_GROWTH_TARGET_PCT,
            },
          ]
        : [];
    return {
      name: 'soak',
      title: this.title,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      runs: 1,
      setup: [
        `${size.users} virtual users in a loop for ${size.warmupS} s of warm-up and ${size.durationS} s measured: of every 20 steps, 12 GET /api/audit/{id}, 4 list reads (saved audits, dashboards), 3 progress streams opened, replayed to their complete event and closed, 1 upload of two CONSTRUCTED 90-day exports (merged).`,
        `The api's RSS (/proc/<pid>/status VmRSS) sampled every ${size.sampleEveryS} s, with its V8 heap (reserved and used, per space) and external memory read in the process by the preloaded probe; "after warm-up" and "at the end" are the medians of the first and the last tenth of the measured samples (RSS swings with the collector between samples); the slope is a least-squares fit over all measured samples.`,
        `Requests: ${counts.audit} audit reads, ${counts.lists} list reads, ${counts.sse} progress streams, ${counts.upload} uploads.`,
      ],
      figures: figures.build(),
      tables: [
        {
          title:
            'api memory over time (MB; V8 heap and external from process.memoryUsage() and v8.getHeapSpaceStatistics())',
          columns: [
            't (s)',
            'RSS',
            'V8 heap reserved',
            'new space reserved',
            'old space reserved',
            'V8 heap used (live and not yet collected)',
            'external',
          ],
          rows: samples
            .filter((_, i) => i % Math.max(1, Math.floor(samples.length / 20)) === 0)
            .map((s) => [
              s.t.toFixed(0),
              s.mb.toFixed(1),
              ...(s.heap
                ? [
                    s.heap.heapTotal,
                    s.heap.spaces.new_space?.size ?? 0,
                    s.heap.spaces.old_space?.size ?? 0,
                    s.heap.heapUsed,
                    s.heap.external,
                  ].map((b) => (b / 1e6).toFixed(1))
                : ['-', '-', '-', '-', '-']),
            ]),
        },
      ],
      targets,
      findings,
    };
  },
};
