import { Agent } from 'node:http';
import { STEP_IDS, STEP_LABELS, ZStepEventData, type TStepId } from '@aso/contracts';
import {
  FOUR_APP_AUDIT,
  RECORDED_APPS,
  runAudit,
  SPEC_ESTIMATE_4_LINKS_MS,
  type TAuditOutcome,
} from '../harness/audit.runner';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { median } from '../stats/stats.helpers';
import { BenchFailure, type TBenchResult } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** Target: a warm 4-app audit with no store delay in under 2 s. */
export const WARM_AUDIT_TARGET_MS = 2_000;

/** Cache hits reported by the audit's final `cache_check` message ('…: 4 cache hits'). */
export function cacheHits(outcome: Pick<TAuditOutcome, 'messages'>): number {
  let hits = 0;
  for (const m of outcome.messages) {
    if (m.event !== 'step') continue;
    const step = ZStepEventData.parse(JSON.parse(m.data));
    if (step.step_id === 'cache_check' && step.status === 'done') {
      hits = Number(/: (\d+) cache hits?/.exec(step.message)?.[1] ?? 0);
    }
  }
  return hits;
}

/**
 * Benchmark 1 (docs/BENCHMARKS.md): one audit of the 4 recorded apps (Spotify with Instagram,
 * TikTok and Rivian as competitors), cold and warm cache, for each store delay: wall time from
 * `POST /api/analyze` to the `complete` event and each step's time (`ended_at - started_at`). Cold
 * = the apps' snapshots deleted through the admin API first; warm = right after a cold run, so all
 * 4 are cache hits (checked from the `cache_check` message). Baseline: the progress view's estimate
 * for 4 links (3 min 40 s). One unmeasured audit first warms the processes up.
 */
export const auditBenchmark: TBenchmark = {
  name: 'audit',
  title: 'One audit of 4 apps: cold and warm cache',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const { runs, delaysMs } = ctx.sizes.audit;
    const system = await ctx.system('audit', delaysMs[0] ?? 0);
    const agent = new Agent({ keepAlive: true });
    const figures = new FiguresBuilder();
    const steps = new Map<string, Map<TStepId, number[]>>();
    const variants: string[] = [];
    try {
      await system.ensureWorkers({ scraper: { count: 1 }, analyzer: { count: 1 } });
      const [user] = await system.users(1);
      ctx.log('audit: warm-up audit');
      await runAudit(system.api, user!, FOUR_APP_AUDIT, { agent });

      for (const delay of delaysMs) {
        await system.setStoreDelay(delay);
        for (let run = 0; run < runs; run++) {
          for (const cache of ['cold', 'warm'] as const) {
            if (cache === 'cold') {
              for (const app of RECORDED_APPS)
                await system.api.clearAppCache(system.adminCode, app.appId);
            }
            const outcome = await runAudit(system.api, user!, FOUR_APP_AUDIT, { agent });
            const hits = cacheHits(outcome);
            const wantHits = cache === 'cold' ? 0 : RECORDED_APPS.length;
            if (hits !== wantHits) {
              throw new BenchFailure(
                `audit ${outcome.id}: a ${cache} run had ${hits} cache hits, expected ${wantHits}`,
              );
            }
            const key = `${cache}-${delay}`;
            if (!variants.includes(key)) variants.push(key);
            figures.add(
              `${key}.wall`,
              `${cache} cache, store delay ${delay} ms: POST -> complete`,
              's',
              outcome.wallMs / 1000,
            );
            let perStep = steps.get(key);
            if (!perStep) steps.set(key, (perStep = new Map<TStepId, number[]>()));
            for (const [id, ms] of Object.entries(outcome.stepMs) as [TStepId, number][]) {
              perStep.set(id, [...(perStep.get(id) ?? []), ms]);
            }
            ctx.log(
              `audit: ${key} run ${run + 1}/${runs}: ${formatValue(outcome.wallMs / 1000, 's')}`,
            );
          }
        }
      }
    } finally {
      agent.destroy();
    }

    for (const key of variants) {
      figures.baseline(`${key}.wall`, 'progress estimate for 4 links (3 min 40 s)', [
        SPEC_ESTIMATE_4_LINKS_MS / 1000,
      ]);
    }
    const warm = figures.samples('warm-0.wall');
    const targets = warm.length
      ? [
          {
            target: 'Warm 4-app audit with no store delay under 2 s',
            measured: `median ${formatValue(median(warm), 's')}, p95 ${formatValue(figures.p95('warm-0.wall'), 's')}`,
            met: median(warm) * 1000 < WARM_AUDIT_TARGET_MS,
          },
        ]
      : [];
    const stepTable = {
      title:
        "Time of each step, median over runs (ms, `ended_at - started_at` of the step's final `done` event)",
      columns: ['Step', ...variants.map((v) => v.replace('-', ' cache, delay ') + ' ms')],
      rows: STEP_IDS.map((id) => [
        `${id} (${STEP_LABELS[id]})`,
        ...variants.map((v) => {
          const xs = steps.get(v)?.get(id);
          return xs?.length ? String(Math.round(median(xs))) : '-';
        }),
      ]),
    };
    const findings: string[] = [];
    for (const v of variants) {
      const per = steps.get(v);
      if (!per) continue;
      const ranked = [...per.entries()]
        .map(([id, xs]) => [id, median(xs)] as const)
        .sort((a, b) => b[1] - a[1]);
      const top = ranked.slice(0, 2).map(([id, ms]) => `${id} ${Math.round(ms)} ms`);
      findings.push(
        `${v.replace('-', ' cache, store delay ')} ms: longest steps ${top.join(', ')}.`,
      );
    }
    return {
      name: 'audit',
      title: this.title,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      runs,
      setup: [
        `Audit: ${RECORDED_APPS.map((a) => `${a.name} (${a.appId})`).join(', ')}; the first is the main app.`,
        `Store delays: ${delaysMs.join(' and ')} ms per answer (replay server). Cold: the 4 apps' snapshots deleted with DELETE /api/admin/cache/app/{appId}; warm: the run right after, 4 cache hits.`,
        'Processes: api, 1 scraper, 1 heuristic analyzer (default concurrency), replay server; one unmeasured warm-up audit first.',
        'Wall time: from just before POST /api/analyze to the receipt of `complete` on GET /api/progress (opened as soon as the id arrived); every stream is checked against a replay of the same audit.',
      ],
      figures: figures.build(),
      tables: [stepTable],
      targets,
      findings,
    };
  },
};
