import { readdirSync, readFileSync } from 'node:fs';
import { FaultSystem } from '@aso/testkit/system';
import { FOUR_APP_AUDIT } from '../harness/audit.runner';
import {
  clockTicksPerSecond,
  parseStatTicks,
  parseStatusRssBytes,
} from '../probes/process.sampler';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { median } from '../stats/stats.helpers';
import { BenchFailure, type TBenchResult } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** PDFs the render worker prints at once (its default `CONCURRENCY`). */
const AT_ONCE = 2;

/** `/proc/<pid>/smaps_rollup`'s `Pss` (bytes): the process's share of the pages it maps. */
function pssBytes(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** `root` and every process below it (Chromium's browser, renderer and helper processes). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * Samples the render worker and its Chromium every 250 ms: the Node process's RSS, the whole
 * tree's RSS and PSS (what a container's memory limit counts is closer to the PSS sum: pages
 * shared by Chromium's processes are counted once), and the tree's CPU time (each process's
 * last ticks, so processes that ended meanwhile keep theirs).
 */
class TreeSampler {
  peakNodeRss = 0;
  peakTreeRss = 0;
  peakTreePss = 0;
  private readonly ticks = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;

  constructor(private readonly root: number) {}

  private sample(): void {
    let rss = 0;
    let pss = 0;
    for (const pid of processTree(this.root)) {
      try {
        const r = parseStatusRssBytes(readFileSync(`/proc/${pid}/status`, 'utf8')) ?? 0;
        if (pid === this.root) this.peakNodeRss = Math.max(this.peakNodeRss, r);
        rss += r;
        pss += pssBytes(pid);
        this.ticks.set(pid, parseStatTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')));
      } catch {
        // gone meanwhile
      }
    }
    this.peakTreeRss = Math.max(this.peakTreeRss, rss);
    this.peakTreePss = Math.max(this.peakTreePss, pss);
  }

  start(): this {
    this.startedAt = performance.now();
    this.sample();
    // Ticks before the window are not the window's.
    for (const [pid, t] of this.ticks) this.ticks.set(pid, -t);
    this.timer = setInterval(() => this.sample(), 250);
    return this;
  }

  /** Stops; answers the tree's average CPU over the window (percent of one core). */
  stop(): number {
    if (this.timer) clearInterval(this.timer);
    const before = new Map([...this.ticks].filter(([, t]) => t <= 0).map(([p, t]) => [p, -t]));
    this.sample();
    let ticks = 0;
    for (const [pid, t] of this.ticks) ticks += Math.max(0, t - (before.get(pid) ?? 0));
    const seconds = (performance.now() - this.startedAt) / 1000;
    return (ticks / clockTicksPerSecond() / seconds) * 100;
  }
}

/**
 * `pnpm bench render`: `pdfs` finished 4-app audits printed to PDF by the render worker, two
 * at a time (its CONCURRENCY), through `GET /api/audit/{id}/report.pdf` (the first request of
 * each renders; the PDF is checked to be one). The system is `pnpm start --offline`'s (the web
 * app built and served, the print pages opened by the worker's one Chromium), through
 * `FaultSystem` of `@aso/testkit/system`. Measured: the worker's memory with its Chromium (the
 * figures its Kubernetes requests and limits come from), its CPU, and PDFs per minute.
 */
export const renderBenchmark: TBenchmark = {
  name: 'render',
  title: 'PDF reports: the render worker with its Chromium',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const { pdfs } = ctx.sizes.render;
    ctx.log('render: starting the whole system with the web app (pnpm start builds it)');
    const system = await FaultSystem.start({ storeDelayMs: 0, web: true });
    const release = ctx.adopt({ close: () => system.stop() });
    try {
      // One user per render slot: renders take turns per user (one at a time each), so the
      // PDFs asked for at once are different users'.
      const tokens: string[] = [];
      for (let u = 0; u < AT_ONCE; u++) tokens.push((await system.newUser(`render-${u}`)).token);
      const audits: { id: string; token: string }[] = [];
      for (let i = 0; i < pdfs; i++) {
        const token = tokens[i % AT_ONCE]!;
        audits.push({ id: (await system.api.analyze(token, FOUR_APP_AUDIT)).id, token });
      }
      for (const { id, token } of audits) {
        const status = await system.settle(token, id, 300_000);
        if (status !== 'done') throw new BenchFailure(`audit ${id} ended ${status}`);
      }
      const pid = system.pid('render');
      const idle = new TreeSampler(pid).start();
      await new Promise((r) => setTimeout(r, 1_000));
      idle.stop();
      const sampler = new TreeSampler(pid).start();
      const t0 = performance.now();
      const each: number[] = [];
      for (let i = 0; i < audits.length; i += AT_ONCE) {
        await Promise.all(
          audits.slice(i, i + AT_ONCE).map(async ({ id, token }) => {
            const started = performance.now();
            const res = await fetch(`${system.apiUrl}/api/audit/${id}/report.pdf`, {
              headers: { authorization: `Bearer ${token}` },
              signal: AbortSignal.timeout(300_000),
            });
            const body = Buffer.from(await res.arrayBuffer());
            if (res.status !== 200 || body.subarray(0, 5).toString() !== '%PDF-')
              throw new BenchFailure(`report.pdf of ${id} answered ${res.status}`);
            each.push(performance.now() - started);
          }),
        );
      }
      const wallS = (performance.now() - t0) / 1000;
      const cpu = sampler.stop();
      const figures = new FiguresBuilder()
        .add('node.rss', 'render worker (Node) peak RSS', 'MB', sampler.peakNodeRss / 1e6)
        .add(
          'tree.rss',
          'render worker and its Chromium: peak RSS summed over the processes',
          'MB',
          sampler.peakTreeRss / 1e6,
        )
        .add(
          'tree.pss',
          'render worker and its Chromium: peak PSS summed over the processes',
          'MB',
          sampler.peakTreePss / 1e6,
        )
        .add('cpu', 'render worker and its Chromium: CPU, average', '%', cpu)
        .add('rate', `PDFs per minute, ${AT_ONCE} at a time`, 'count', pdfs / (wallS / 60))
        .add('pdf', 'one PDF: request -> bytes', 's', median(each) / 1000);
      figures.baseline('tree.pss', 'the same processes idle, just before', [
        idle.peakTreePss / 1e6,
      ]);
      return {
        name: 'render',
        title: this.title,
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        runs: 1,
        setup: [
          `The whole system as \`pnpm start --offline\` runs it (services from dist/, the web app built and served), on a Redis and a database of its own (\`FaultSystem\`); store delay 0.`,
          `${pdfs} finished audits of the 4 recorded apps owned by ${AT_ONCE} users in turn, each PDF asked for once with GET /api/audit/{id}/report.pdf, ${AT_ONCE} at a time (the render worker's CONCURRENCY; one per user, as renders take turns per user); each answer checked to be a PDF.`,
          'Memory of the render worker and every process below it (Chromium: browser, renderers, helpers) from /proc every 250 ms: RSS and PSS (smaps_rollup) summed; CPU from their ticks.',
        ],
        figures: figures.build(),
        tables: [],
        targets: [],
        findings: [
          `Printing ${AT_ONCE} PDFs at a time, the render worker with its Chromium peaked at ${formatValue(sampler.peakTreePss / 1e6, 'MB')} PSS (${formatValue(sampler.peakTreeRss / 1e6, 'MB')} RSS summed, pages shared by Chromium's processes counted in each), the Node process alone at ${formatValue(sampler.peakNodeRss / 1e6, 'MB')}.`,
        ],
      };
    } finally {
      await release();
    }
  },
};
