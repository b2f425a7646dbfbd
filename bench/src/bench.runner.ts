import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BenchSystem } from './harness/bench.system';
import { auditBenchmark } from './benchmarks/audit.bench';
import { csvMergeBenchmark } from './benchmarks/csv-merge.bench';
import { readsBenchmark } from './benchmarks/reads.bench';
import { sseFanOutBenchmark } from './benchmarks/sse-fanout.bench';
import { throughputBenchmark } from './benchmarks/throughput.bench';
import { webBundleBenchmark } from './benchmarks/web.bench';
import { soakBenchmark } from './benchmarks/soak.bench';
import { faultsBenchmark } from './benchmarks/faults.bench';
import { watchBenchmark } from './benchmarks/watch.bench';
import { ascBenchmark } from './benchmarks/asc.bench';
import { keywordsBenchmark } from './benchmarks/keywords.bench';
import { startBenchmark } from './benchmarks/start.bench';
import { storageBenchmark } from './benchmarks/storage.bench';
import { renderBenchmark } from './benchmarks/render.bench';
import { describeProfile, summarizeProfile, type TCpuProfile } from './report/cpu-profile.summary';
import type { TFailedBench } from './report/markdown.writer';
import type { TBenchContext, TBenchmark, TBenchSizes } from './bench.context';
import type { TBenchName, TBenchResult } from './bench.types';

/** Every benchmark by name. */
export const BENCHMARKS: Record<TBenchName, TBenchmark> = {
  audit: auditBenchmark,
  throughput: throughputBenchmark,
  sse: sseFanOutBenchmark,
  csv: csvMergeBenchmark,
  reads: readsBenchmark,
  web: webBundleBenchmark,
  soak: soakBenchmark,
  faults: faultsBenchmark,
  watch: watchBenchmark,
  asc: ascBenchmark,
  keywords: keywordsBenchmark,
  start: startBenchmark,
  storage: storageBenchmark,
  render: renderBenchmark,
};

/** Options of {@link runBenchmarks}. */
export interface TRunBenchmarksOptions {
  names: readonly TBenchName[];
  sizes: TBenchSizes;
  workDir: string;
  cpuProfile?: boolean;
  heapSnapshots?: boolean;
  webDistDir?: string | null;
  /**
   * One system (database, prefix, replay server, api) for all benchmarks instead of a fresh one
   * each: faster (the smoke test), less isolated.
   */
  shareSystem?: boolean;
  log?: (message: string) => void;
}

/** Results in the order run; a benchmark that threw is a {@link TFailedBench}. */
export interface TRunOutcome {
  results: (TBenchResult | TFailedBench)[];
  failed: boolean;
}

/** What runs and must be closed on Ctrl-C: benchmark systems and resources a benchmark adopted. */
const open = new Set<{ close(): Promise<void> }>();

/** Stops every system still running (used on Ctrl-C so no server outlives the run). */
export async function closeAllSystems(): Promise<void> {
  const all = [...open];
  open.clear();
  await Promise.all(all.map((s) => s.close().catch(() => undefined)));
}

/**
 * CPU profile summaries of the processes of system `label` (written when they exited): per
 * process folder, the busiest profile (the main thread; tsx's loader thread writes one too).
 */
function profileFindings(workDir: string, label: string): string[] {
  const dir = BenchSystem.profileDir({ workDir, label });
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((proc) => {
      const summaries = readdirSync(join(dir, proc))
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) =>
          summarizeProfile(JSON.parse(readFileSync(join(dir, proc, f), 'utf8')) as TCpuProfile),
        );
      // A window profile of the api (taken through the probe) is one file per window.
      if (proc === 'api-window') {
        const files = readdirSync(join(dir, proc)).filter((f) => f.endsWith('.cpuprofile'));
        return summaries.map((s, i) =>
          describeProfile(`api during ${files[i]!.replace(/\.cpuprofile$/, '')}`, s),
        );
      }
      const busiest = summaries.sort((a, b) => b.busyMs - a.busyMs)[0];
      return busiest ? [describeProfile(`${proc} (whole process life)`, busiest)] : [];
    });
}

/**
 * Runs the named benchmarks one after the other. Each gets its own system (closed after it)
 * unless `shareSystem`; a benchmark that throws (a failed audit, a lost event, a wrong answer,
 * a process that would not start) is recorded as failed and the next one still runs.
 */
export async function runBenchmarks(opts: TRunBenchmarksOptions): Promise<TRunOutcome> {
  const log = opts.log ?? (() => undefined);
  const results: (TBenchResult | TFailedBench)[] = [];
  let shared: BenchSystem | null = null;
  try {
    for (const name of opts.names) {
      const bench = BENCHMARKS[name];
      const mine: BenchSystem[] = [];
      const ctx: TBenchContext = {
        sizes: opts.sizes,
        workDir: opts.workDir,
        cpuProfile: opts.cpuProfile ?? false,
        heapSnapshots: opts.heapSnapshots ?? false,
        webDistDir: opts.webDistDir ?? null,
        log,
        adopt: (resource) => {
          open.add(resource);
          return async () => {
            if (open.delete(resource)) await resource.close();
          };
        },
        system: async (label, storeDelayMs) => {
          if (opts.shareSystem && shared) {
            await shared.setStoreDelay(storeDelayMs);
            return shared;
          }
          log(`${name}: starting the system (database, Redis prefix, replay server, api)`);
          const s = await BenchSystem.start({
            label,
            workDir: opts.workDir,
            storeDelayMs,
            cpuProfile: opts.cpuProfile,
          });
          open.add(s);
          if (opts.shareSystem) shared = s;
          else mine.push(s);
          return s;
        },
      };
      const startedAt = new Date().toISOString();
      log(`${name}: ${bench.title}`);
      try {
        const result = await bench.run(ctx);
        for (const s of mine) {
          open.delete(s);
          await s.close();
        }
        if (opts.cpuProfile && !opts.shareSystem)
          result.findings.push(...profileFindings(opts.workDir, name));
        for (const e of result.errors ?? []) log(`${name}: FAILED: ${e}`);
        results.push(result);
      } catch (err) {
        const message =
          err instanceof Error
            ? `${err.name === 'BenchFailure' ? '' : `${err.name}: `}${err.message}`
            : String(err);
        log(`${name}: FAILED: ${message}`);
        results.push({ name, title: bench.title, startedAt, failed: message });
      } finally {
        for (const s of mine) {
          if (open.delete(s)) await s.close().catch(() => undefined);
        }
      }
    }
  } finally {
    if (shared) {
      open.delete(shared);
      await (shared as BenchSystem).close().catch(() => undefined);
    }
  }
  return { results, failed: results.some((r) => 'failed' in r || (r.errors?.length ?? 0) > 0) };
}
