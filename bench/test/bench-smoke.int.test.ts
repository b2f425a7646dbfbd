import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeAllSystems, runBenchmarks } from '../src/bench.runner';
import { SMOKE_SIZES } from '../src/bench.context';
import { REPO_ROOT } from '../src/harness/service.process';
import { readStoredResults, renderMarkdown } from '../src/report/markdown.writer';
import { BENCH_NAMES, type TBenchResult } from '../src/bench.types';

// Keeps every benchmark working (CI runs only this, never the full sizes): each runs
// for real against the api and workers as separate processes, with tiny sizes, on one shared
// system. The benchmarks themselves fail on a failed audit, a lost or repeated event, or an
// answer that breaks its contract; this test checks that each produced its figures.
const workDir = mkdtempSync(join(tmpdir(), 'aso-bench-smoke-'));
afterAll(async () => {
  await closeAllSystems();
  rmSync(workDir, { recursive: true, force: true });
});

// The faults benchmark runs the fault suite's own scenarios (`@aso/testkit/system`), which CI
// already runs in the faults project: running them a second time here would only add minutes.
// The start benchmark clones, installs and builds the whole repository, which CI itself just did.
// The render benchmark starts that same whole system with the web app built and served (what
// the fault suite's render case runs), so it is left out for the same reason as faults.
const SMOKED = BENCH_NAMES.filter((n) => !['faults', 'start', 'render'].includes(n));

// A built web app is measured as it is; without one the benchmark builds it (slower).
const builtWeb = join(REPO_ROOT, 'apps/web/dist');

describe('pnpm bench --quick (every benchmark with tiny sizes)', () => {
  it(
    'runs every benchmark but faults, start and render to figures, with no failed audit and no lost event',
    { timeout: 600_000 },
    async () => {
      const outcome = await runBenchmarks({
        names: SMOKED,
        sizes: SMOKE_SIZES,
        workDir,
        shareSystem: true,
        webDistDir: existsSync(join(builtWeb, 'index.html')) ? builtWeb : null,
      });
      const failures = outcome.results
        .filter((r) => 'failed' in r)
        .map((r) => `${r.name}: ${'failed' in r ? r.failed : ''}`);
      expect(failures).toEqual([]);
      expect(outcome.failed).toBe(false);
      const byName = new Map(outcome.results.map((r) => [r.name, r as TBenchResult]));
      expect([...byName.keys()]).toEqual(SMOKED);

      for (const r of byName.values()) {
        expect(r.figures.length, `${r.name} figures`).toBeGreaterThan(0);
        for (const f of r.figures) {
          expect(f.samples.length, `${r.name} ${f.id}`).toBeGreaterThan(0);
          for (const v of [...f.samples, ...(f.baseline?.samples ?? [])]) {
            expect(Number.isFinite(v) && v >= 0, `${r.name} ${f.id} = ${v}`).toBe(true);
          }
        }
      }
      const sample = (name: (typeof BENCH_NAMES)[number], id: string) =>
        byName.get(name)!.figures.find((f) => f.id === id)?.samples[0] ?? Number.NaN;

      // One audit: cold and warm ran, the warm one faster than the 3 min 40 s estimate.
      expect(sample('audit', 'cold-0.wall')).toBeGreaterThan(0);
      expect(sample('audit', 'warm-0.wall')).toBeLessThan(220);
      // Throughput: both audits completed within the burst.
      expect(sample('throughput', 's1.rate')).toBeGreaterThan(0);
      expect(sample('throughput', 's1.max')).toBeGreaterThanOrEqual(sample('throughput', 's1.p50'));
      // SSE: every client got every message of its audit (checked against a replay inside the
      // benchmark); 20 clients over 2 audits of 12 steps deliver well over 20 x 12 messages.
      expect(sample('sse', 'messages')).toBeGreaterThan(20 * 12);
      expect(sample('sse', 'redis')).toBe(
        byName.get('sse')!.figures.find((f) => f.id === 'redis')!.baseline!.samples[0],
      );
      // The gateway's own gauge (when its /metrics exists) saw every client.
      if (byName.get('sse')!.figures.some((f) => f.id === 'promopen'))
        expect(sample('sse', 'promopen')).toBe(20);
      // The transport floor wrote the run's own live steps to the same streams, each once.
      expect(sample('sse', 'live')).toBeGreaterThan(0);
      expect(sample('sse', 'floor.messages')).toBe(sample('sse', 'live'));
      // CSV: a merge answered; reads: each endpoint answered under load.
      expect(sample('csv', '200rows.rate')).toBeGreaterThan(0);
      expect(sample('csv', '200rows.time')).toBeGreaterThan(0);
      for (const id of [
        'healthz.rps',
        'chart.rps',
        'report30.rps',
        'reportAll.rps',
        'pageHealthz.rps',
        'audit.rps',
        'saved.rps',
        'dashboards.rps',
        'access.rps',
      ])
        expect(sample('reads', id)).toBeGreaterThan(0);
      // Keywords: every pair read once, never more requests in a window than the limit.
      expect(sample('keywords', 'round')).toBeGreaterThan(0);
      expect(sample('keywords', 'window')).toBeLessThanOrEqual(20);
      expect(sample('keywords', 'row')).toBeGreaterThan(0);
      // Web: a first load was found, and ECharts sits in a lazily loaded chunk.
      expect(sample('web', 'first.js.gzip')).toBeGreaterThan(0);
      expect(sample('web', 'dash.gzip')).toBeGreaterThan(0);
      // Storage: queued jobs took Redis memory, finished audits kept their streams, a keyword
      // read of 200 ids takes more than its 1.6 KB of ids.
      expect(sample('storage', 'queued.job')).toBeGreaterThan(0);
      expect(sample('storage', 'done.progress')).toBeGreaterThan(0);
      expect(sample('storage', 'keyword.tuple')).toBeGreaterThan(1.6);

      // The report renders every section and reads back.
      const stored = Object.fromEntries(
        outcome.results.map((r) => [
          r.name,
          {
            ...r,
            machine: {
              cpuModel: 'test',
              cores: 2,
              memoryGb: 1,
              node: process.version,
              kernel: 'Linux',
              load1: 0,
            },
          },
        ]),
      );
      const md = renderMarkdown(stored, null);
      for (const r of byName.values()) expect(md).toContain(`. ${r.title}`);
      expect(Object.keys(readStoredResults(md)).sort()).toEqual([...SMOKED].sort());
    },
  );
});
