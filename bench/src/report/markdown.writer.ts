import { cpus, availableParallelism, loadavg, release, totalmem } from 'node:os';
import { median, percentile, ratio } from '../stats/stats.helpers';
import { BENCH_NAMES, type TBenchName, type TBenchResult, type TFigure } from '../bench.types';
import { formatRatio, formatValue } from './format.helpers';

/** The machine a benchmark ran on. */
export interface TMachine {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  node: string;
  kernel: string;
  /** 1-minute load average when the run started (the machine is shared). */
  load1: number;
}

/** This machine, now. */
export function currentMachine(): TMachine {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: `Linux ${release()}`,
    load1: Math.round(loadavg()[0]! * 10) / 10,
  };
}

/** A benchmark that failed: its error instead of figures (a wrong run is not a result). */
export interface TFailedBench {
  name: TBenchName;
  title: string;
  startedAt: string;
  failed: string;
}

/** One benchmark's entry in BENCHMARKS.md, with the machine it ran on. */
export type TStoredEntry = (TBenchResult | TFailedBench) & { machine: TMachine };

/** What BENCHMARKS.md holds, per benchmark (the latest run of each). */
export type TStoredResults = Partial<Record<TBenchName, TStoredEntry>>;

const DATA_OPEN = '<!-- bench-data ';
const DATA_CLOSE = ' -->';

/** Reads the results embedded in an earlier BENCHMARKS.md; empty when there are none. */
export function readStoredResults(markdown: string): TStoredResults {
  const start = markdown.lastIndexOf(DATA_OPEN);
  if (start < 0) return {};
  const end = markdown.indexOf(DATA_CLOSE, start + DATA_OPEN.length);
  if (end < 0) return {};
  try {
    return JSON.parse(markdown.slice(start + DATA_OPEN.length, end)) as TStoredResults;
  } catch {
    return {};
  }
}

const isFailed = (e: TStoredEntry): e is TFailedBench & { machine: TMachine } => 'failed' in e;

/** The figure's median, p95 and ratio to its baseline's median (null without a baseline). */
export function figureStats(f: TFigure): {
  median: number;
  p95: number;
  baselineMedian: number | null;
  ratio: number | null;
} {
  const m = median(f.samples);
  const b = f.baseline?.samples.length ? median(f.baseline.samples) : null;
  return {
    median: m,
    p95: percentile(f.samples, 95),
    baselineMedian: b,
    ratio: b === null ? null : ratio(m, b),
  };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(columns: string[], rows: string[][]): string {
  return [
    `| ${columns.map(cell).join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

function machineLine(m: TMachine): string {
  return `${m.cores} cores (${m.cpuModel}), ${m.memoryGb} GiB memory, Node ${m.node}, ${m.kernel}; load average ${m.load1} at the start`;
}

function renderEntry(e: TStoredEntry, index: number): string {
  const out: string[] = [`## ${index}. ${e.title}`, ''];
  out.push(
    `Run ${e.startedAt.replace('T', ' ').slice(0, 16)} UTC on ${machineLine(e.machine)}.`,
    '',
  );
  if (isFailed(e)) {
    out.push(`**FAILED**: ${e.failed}`, '', 'No figures: a failed run is not a result.', '');
    return out.join('\n');
  }
  out.push(
    `Duration ${formatValue(e.durationMs / 1000, 's')}; each figure over ${e.runs} repeated run${e.runs === 1 ? '' : 's'}.`,
    '',
  );
  for (const err of e.errors ?? []) out.push(`**FAILED**: ${err}`, '');
  for (const s of e.setup) out.push(`- ${s}`);
  out.push('');
  out.push(
    table(
      ['Figure', 'Median', 'p95', 'Runs', 'Baseline (same run)', 'Baseline median', 'Ratio'],
      e.figures.map((f) => {
        const s = figureStats(f);
        return [
          f.label,
          formatValue(s.median, f.unit),
          formatValue(s.p95, f.unit),
          String(f.samples.length),
          f.baseline?.label ?? '-',
          s.baselineMedian === null ? '-' : formatValue(s.baselineMedian, f.unit),
          formatRatio(s.ratio),
        ];
      }),
    ),
    '',
  );
  for (const t of e.tables) out.push(`${t.title}:`, '', table(t.columns, t.rows), '');
  if (e.targets.length) {
    out.push('Targets:', '');
    for (const t of e.targets)
      out.push(`- ${t.met ? 'met' : '**MISSED**'}: ${t.target}. Measured: ${t.measured}.`);
    out.push('');
  }
  if (e.findings.length) {
    out.push('Observations:', '');
    for (const f of e.findings) out.push(`- ${f}`);
    out.push('');
  }
  return out.join('\n');
}

/** 'Latest run: <date> UTC on <machine>' for the most recent entry, with a blank line; nothing without entries. */
function latestRunLine(entries: readonly TStoredEntry[]): string[] {
  const latest = [...entries].sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0];
  if (!latest) return [];
  return [
    `Latest run: ${latest.startedAt.slice(0, 10)} on ${machineLine(latest.machine)}. Each section gives its own date and machine.`,
    '',
  ];
}

/**
 * Renders BENCHMARKS.md: how to read it, the targets' standing, one section per benchmark
 * (setup, figures with median, p95 and ratio to the in-run baseline, extra tables, targets,
 * observations), the hand-written `analysis` (what dominates where a target is missed), and
 * the results as data so that `pnpm bench <name>` can update one section.
 */
export function renderMarkdown(results: TStoredResults, analysis: string | null): string {
  const entries = BENCH_NAMES.map((n) => results[n]).filter(
    (e): e is TStoredEntry => e !== undefined,
  );
  const out: string[] = [
    '# Benchmarks',
    '',
    'Written by `pnpm bench` (package `bench/`, `pnpm bench <name>` re-runs one of: ' +
      BENCH_NAMES.join(', ') +
      '). Do not edit by hand: the next run rewrites it.',
    '',
    'How to read it: every figure is given as the median and the p95 (nearest rank, so with 3 runs the p95 is the worst run) over repeated runs. ' +
      'The machine is shared and its absolute speed drifts, so each figure is also compared with a baseline measured in the same run, as the ratio median / baseline median. ' +
      'Targets are judged on the median. MB = 10^6 bytes, KB = 1000 bytes, CPU % is percent of one core.',
    '',
    ...latestRunLine(entries),
    '## Targets',
    '',
    table(
      ['Target', 'Measured', 'Status'],
      entries.flatMap((e) =>
        isFailed(e)
          ? [[e.title, `benchmark failed: ${e.failed.slice(0, 200)}`, '**FAILED**']]
          : [
              ...e.targets.map((t) => [t.target, t.measured, t.met ? 'met' : '**MISSED**']),
              // A failure is its own row only when no target already tells it.
              ...(e.targets.length ? [] : (e.errors ?? [])).map((err) => [
                e.title,
                `failed: ${err.slice(0, 200)}`,
                '**FAILED**',
              ]),
            ],
      ),
    ),
    '',
  ];
  entries.forEach((e) => out.push(renderEntry(e, BENCH_NAMES.indexOf(e.name) + 1)));
  if (analysis) out.push(analysis.trim(), '');
  // JSON has '--' only inside strings, where \u002d reads back as '-': the comment stays closed.
  out.push(`${DATA_OPEN}${JSON.stringify(results).replace(/--/g, '-\\u002d')}${DATA_CLOSE}`, '');
  return out.join('\n');
}

/** The figures of `results` as a plain-text table for the terminal. */
export function renderConsoleTable(results: readonly (TBenchResult | TFailedBench)[]): string {
  const rows: string[][] = [['Benchmark', 'Figure', 'Median', 'p95', 'Baseline median', 'Ratio']];
  for (const r of results) {
    if ('failed' in r) {
      rows.push([r.name, `FAILED: ${r.failed.split('\n')[0]!.slice(0, 100)}`, '', '', '', '']);
      continue;
    }
    for (const f of r.figures) {
      const s = figureStats(f);
      rows.push([
        r.name,
        f.label,
        formatValue(s.median, f.unit),
        formatValue(s.p95, f.unit),
        s.baselineMedian === null ? '-' : formatValue(s.baselineMedian, f.unit),
        formatRatio(s.ratio),
      ]);
    }
    for (const t of r.targets)
      rows.push([r.name, `TARGET ${t.met ? 'met' : 'MISSED'}: ${t.target}`, '', '', '', '']);
    for (const e of r.errors ?? [])
      rows.push([r.name, `FAILED: ${e.split('\n')[0]!.slice(0, 100)}`, '', '', '', '']);
  }
  const widths = rows[0]!.map((_, i) =>
    Math.min(90, Math.max(...rows.map((row) => row[i]!.length))),
  );
  return rows
    .map((row) =>
      row.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  '),
    )
    .join('\n');
}
