import { Agent } from 'node:http';
import { FOUR_APP_AUDIT, followAudit, runAudit, type TAuditOutcome } from '../harness/audit.runner';
import { nowMs } from '../harness/sse.client';
import type { BenchSystem } from '../harness/bench.system';
import type { TBenchUser } from '../harness/bench.users';
import { ProcessSampler, type TProcessUsage } from '../probes/process.sampler';
import { prefixMemory, redisUsedMemory } from '../probes/redis.probe';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { median, percentile } from '../stats/stats.helpers';
import { BenchFailure, type TBenchResult, type TTable, type TTargetCheck } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';
import { cacheHits } from './audit.bench';

/**
 * Scraper environment that turns the snapshot cache off: `POST /api/analyze` offers no way to
 * ask for the scrape job's `bypassCache`, so the benchmark sets the cache TTL to 0 instead.
 */
export const NO_CACHE_ENV = { APP_CACHE_TTL: '0' };

/** Target: 100 concurrent audits with a 300 ms store delay complete at p95 under 60 s. */
export const THROUGHPUT_P95_TARGET_MS = 60_000;

/** Peaks of Redis memory seen while sampling every second. */
class RedisMemorySampler {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  peakPrefixBytes = 0;
  peakUsedBytes = 0;

  constructor(
    private readonly system: BenchSystem,
    private readonly intervalMs = 1_000,
  ) {}

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const [prefix, used] = await Promise.all([
        prefixMemory(this.system.redis, this.system.prefix),
        redisUsedMemory(this.system.redis),
      ]);
      this.peakPrefixBytes = Math.max(this.peakPrefixBytes, prefix.bytes);
      this.peakUsedBytes = Math.max(this.peakUsedBytes, used);
    } finally {
      this.busy = false;
    }
  }

  start(): this {
    void this.sample().catch(() => undefined);
    this.timer = setInterval(() => void this.sample().catch(() => undefined), this.intervalMs);
    return this;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sample().catch(() => undefined);
  }
}

/** One burst: `count` audits submitted at once, spread over `users`, each followed to `complete`. */
async function burst(
  system: BenchSystem,
  users: readonly TBenchUser[],
  count: number,
  agent: Agent,
): Promise<{ t0: number; outcomes: TAuditOutcome[] }> {
  const t0 = nowMs();
  const outcomes = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const user = users[i % users.length]!;
      const submittedAt = nowMs();
      const { id } = await system.api.analyze(user.token, FOUR_APP_AUDIT);
      return followAudit(system.api, user, id, submittedAt, { agent, timeoutMs: 900_000 });
    }),
  );
  for (const o of outcomes) {
    if (cacheHits(o) !== 0)
      throw new BenchFailure(
        `audit ${o.id}: the cache was not bypassed (${cacheHits(o)} cache hits)`,
      );
  }
  return { t0, outcomes };
}

/**
 * Benchmark 2 (docs/BENCHMARKS.md): `audits` audits of the 4 recorded apps submitted at once, store
 * delay 300 ms, cache off (the scraper runs with `APP_CACHE_TTL=0`: the analyze route offers no
 * bypass), worker concurrency as in the defaults; then the same with two scraper processes.
 * Figures: audits per minute, p50/p95/max completion time (submit -> `complete`), peak RSS and CPU
 * of the api and each worker (/proc), Redis memory (keys of the run's prefix, and `used_memory` of
 * the shared server). Baselines: one audit alone on the same processes (for times and rate), the
 * idle process (for RSS), Redis before the burst, and one scraper process (for the two-scraper
 * rate).
 */
export const throughputBenchmark: TBenchmark = {
  name: 'throughput',
  title: 'Throughput: concurrent audits, one and two scraper processes',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const size = ctx.sizes.throughput;
    const system = await ctx.system('throughput', size.delayMs);
    await system.setStoreDelay(size.delayMs);
    const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
    const figures = new FiguresBuilder();
    const tables: TTable[] = [];
    const findings: string[] = [];
    const ratePerConfig = new Map<number, number[]>();
    try {
      const users = await system.users(size.users);
      for (const scrapers of size.scraperProcesses) {
        const tag = `s${scrapers}`;
        const what = `${scrapers} scraper${scrapers > 1 ? 's' : ''}`;
        const workers = await system.ensureWorkers({
          scraper: { count: scrapers, env: NO_CACHE_ENV },
          analyzer: { count: 1 },
        });
        const targets = [
          { name: 'api', pid: system.apiProcess.pid },
          ...workers.map((w) => ({ name: w.name.replace(/-\d+$/, ''), pid: w.pid })),
        ];
        // Several processes of one kind get numbered names: scraper #1, scraper #2.
        const named = targets.map((t) => {
          const same = targets.filter((o) => o.name === t.name);
          return same.length > 1 ? { ...t, name: `${t.name} #${same.indexOf(t) + 1}` } : t;
        });

        const single: number[] = [];
        for (let i = 0; i < size.baselineRuns; i++) {
          const o = await runAudit(system.api, users[0]!, FOUR_APP_AUDIT, { agent });
          single.push(o.wallMs);
        }
        ctx.log(`throughput: ${what}: one audit alone ${formatValue(median(single) / 1000, 's')}`);

        const usages: TProcessUsage[][] = [];
        const idleRss = new Map<string, number[]>();
        for (let run = 0; run < size.runs; run++) {
          const idle = new ProcessSampler(named).start().stop();
          const redisBefore = await prefixMemory(system.redis, system.prefix);
          const usedBefore = await redisUsedMemory(system.redis);
          const sampler = new ProcessSampler(named).start();
          const redisSampler = new RedisMemorySampler(system).start();
          const { t0, outcomes } = await burst(system, users, size.audits, agent);
          const usage = sampler.stop();
          await redisSampler.stop();
          usages.push(usage);
          const completion = outcomes.map((o) => o.completedAt - t0);
          const spanMs = Math.max(...completion);
          const rate = size.audits / (spanMs / 60_000);
          ratePerConfig.set(scrapers, [...(ratePerConfig.get(scrapers) ?? []), rate]);
          figures.add(`${tag}.rate`, `${what}: audits per minute`, 'audits/min', rate);
          figures.add(
            `${tag}.p50`,
            `${what}: completion time p50`,
            's',
            percentile(completion, 50) / 1000,
          );
          figures.add(
            `${tag}.p95`,
            `${what}: completion time p95`,
            's',
            percentile(completion, 95) / 1000,
          );
          figures.add(`${tag}.max`, `${what}: completion time max`, 's', spanMs / 1000);
          for (const [i, u] of usage.entries()) {
            figures.add(`${tag}.rss.${u.name}`, `${what}: ${u.name} peak RSS`, 'MB', u.peakRssMb);
            figures.add(
              `${tag}.cpu.${u.name}`,
              `${what}: ${u.name} CPU, average over the burst`,
              '%',
              u.avgCpuPct,
            );
            figures.add(
              `${tag}.cpupeak.${u.name}`,
              `${what}: ${u.name} CPU, peak (250 ms window)`,
              '%',
              u.peakCpuPct,
            );
            idleRss.set(u.name, [...(idleRss.get(u.name) ?? []), idle[i]!.peakRssMb]);
          }
          const growth = Math.max(0, redisSampler.peakPrefixBytes - redisBefore.bytes);
          figures.add(
            `${tag}.redis.prefix`,
            `${what}: Redis memory of the run's keys, peak growth during the burst`,
            'MB',
            growth / 1e6,
          );
          figures.add(
            `${tag}.redis.peraudit`,
            `${what}: Redis memory per audit (peak growth / audits)`,
            'KB',
            growth / size.audits / 1e3,
          );
          figures.add(
            `${tag}.redis.used`,
            `${what}: Redis used_memory (shared server), peak growth`,
            'MB',
            Math.max(0, redisSampler.peakUsedBytes - usedBefore) / 1e6,
          );
          ctx.log(
            `throughput: ${what} run ${run + 1}/${size.runs}: ${formatValue(rate, 'audits/min')}, ` +
              `p95 ${formatValue(percentile(completion, 95) / 1000, 's')}, max ${formatValue(spanMs / 1000, 's')}`,
          );
        }
        const singleS = single.map((ms) => ms / 1000);
        figures.baseline(
          `${tag}.rate`,
          'one audit at a time (60 s / single-audit wall time)',
          single.map((ms) => 60_000 / ms),
        );
        for (const p of ['p50', 'p95', 'max'])
          figures.baseline(`${tag}.${p}`, 'one audit alone, same processes', singleS);
        tables.push({
          title: `${what}: processes during the burst (median over runs)`,
          columns: [
            'Process',
            'Peak RSS (MB)',
            'CPU average (% of a core)',
            'CPU peak (% of a core)',
            'CPU time (s)',
          ],
          rows: named.map((t) => {
            const per = usages.map((u) => u.find((x) => x.name === t.name)!);
            return [
              t.name,
              formatValue(median(per.map((u) => u.peakRssMb)), 'count'),
              formatValue(median(per.map((u) => u.avgCpuPct)), 'count'),
              formatValue(median(per.map((u) => u.peakCpuPct)), 'count'),
              formatValue(median(per.map((u) => u.cpuSeconds)), 'count'),
            ];
          }),
        });
        for (const t of named) {
          const idle = idleRss.get(t.name);
          if (idle?.length)
            figures.baseline(`${tag}.rss.${t.name}`, 'the same process idle, just before', idle);
        }
        const busiest = named
          .map((t) => ({
            name: t.name,
            cpu: median(usages.map((u) => u.find((x) => x.name === t.name)!.avgCpuPct)),
          }))
          .sort((a, b) => b.cpu - a.cpu);
        findings.push(
          `${what}: busiest process ${busiest[0]!.name} at ${formatValue(busiest[0]!.cpu, '%')} of a core on average ` +
            `(then ${busiest
              .slice(1)
              .map((b) => `${b.name} ${formatValue(b.cpu, '%')}`)
              .join(
                ', ',
              )}); the machine has 2 cores shared with PostgreSQL, Redis and the load generator.`,
        );
      }
    } finally {
      agent.destroy();
    }

    const one = size.scraperProcesses[0];
    const two = size.scraperProcesses[1];
    if (one !== undefined && two !== undefined) {
      figures.baseline(
        `s${two}.rate`,
        `${one} scraper process${one > 1 ? 'es' : ''} (scaling ratio)`,
        ratePerConfig.get(one) ?? [],
      );
    }
    const targets: TTargetCheck[] = [];
    const p95 = figures.samples('s1.p95');
    if (p95.length && size.audits >= 100 && size.delayMs >= 300) {
      targets.push({
        target:
          '100 concurrent audits with 300 ms store delay complete at p95 under 60 s (2 cores)',
        measured: `p95 completion ${formatValue(median(p95), 's')} (median over runs; worst run ${formatValue(figures.p95('s1.p95'), 's')})`,
        met: median(p95) * 1000 < THROUGHPUT_P95_TARGET_MS,
      });
    }
    return {
      name: 'throughput',
      title: this.title,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      runs: size.runs,
      setup: [
        `${size.audits} audits of the 4 recorded apps submitted at once by ${size.users} users; each followed on its own progress stream and checked against a replay.`,
        `Store delay ${size.delayMs} ms per answer; cache off (APP_CACHE_TTL=0 on the scraper: POST /api/analyze has no cache bypass, so this is how the benchmark asks for it; every audit's cache_check is checked for 0 hits).`,
        `Worker concurrency as in the defaults (scraper 8, analyzer 4); scraper processes: ${size.scraperProcesses.join(', then ')}; 1 heuristic analyzer.`,
        'RSS and CPU from /proc/<pid>/stat and status every 250 ms; Redis memory every second (MEMORY USAGE of the keys of the run prefix, and INFO used_memory of the whole shared server), as growth over the value just before the burst (completed jobs and progress streams of earlier runs stay: BullMQ keeps 1,000 completed jobs for an hour, streams live 24 h).',
      ],
      figures: figures.build(),
      tables,
      targets,
      findings,
    };
  },
};
