/** Names of the benchmarks, in the order `pnpm bench` runs them (docs/BENCHMARKS.md). */
export const BENCH_NAMES = [
  'audit',
  'throughput',
  'sse',
  'csv',
  'reads',
  'web',
  'soak',
  'faults',
  'watch',
  'asc',
  'keywords',
  'start',
  'storage',
  'render',
] as const;
export type TBenchName = (typeof BENCH_NAMES)[number];

/** Units a figure is given in. `ms`/`s` are durations, `MB` is 10^6 bytes, `KB` 10^3 bytes. */
export type TUnit =
  'ms' | 's' | 'KB' | 'MB' | 'MB/s' | 'req/s' | 'audits/min' | '%' | 'count' | 'x';

/**
 * One measured figure: one sample per repeated run. The report shows the median and the p95
 * (nearest rank) of `samples`, and, when a baseline is given, the ratio
 * median(samples) / median(baseline.samples).
 */
export interface TFigure {
  /** Stable id inside its benchmark, e.g. `warm-0.wall`. */
  id: string;
  label: string;
  unit: TUnit;
  samples: number[];
  /** The in-run baseline this figure is compared with (same unit). */
  baseline?: { label: string; samples: number[] };
}

/** Where one of the targets stands. */
export interface TTargetCheck {
  /** The target as docs/BENCHMARKS.md states it. */
  target: string;
  /** What was measured, with units (e.g. 'median 1.21 s, p95 1.40 s'). */
  measured: string;
  met: boolean;
}

/** An extra table of a benchmark (e.g. per-step times). Cells are already formatted. */
export interface TTable {
  title: string;
  columns: string[];
  rows: string[][];
}

/** What one benchmark produced. */
export interface TBenchResult {
  name: TBenchName;
  title: string;
  /** ISO 8601 time the benchmark started. */
  startedAt: string;
  /** Wall time of the whole benchmark (ms). */
  durationMs: number;
  /** Repeated runs behind each figure. */
  runs: number;
  /** How it was set up (sizes, delays, process counts), one line each. */
  setup: string[];
  figures: TFigure[];
  tables: TTable[];
  targets: TTargetCheck[];
  /** What dominates where a target is missed, and other observations. */
  findings: string[];
  /**
   * Failures met after some figures were measured (e.g. the largest merge did not finish):
   * the figures so far are kept, but the run counts as failed (non-zero exit).
   */
  errors?: string[];
}

/**
 * A fast but wrong run must not pass as a result (docs/BENCHMARKS.md): an audit that failed, an
 * event that was lost or repeated, an answer that does not match its contract. The CLI exits
 * non-zero.
 */
export class BenchFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BenchFailure';
  }
}
