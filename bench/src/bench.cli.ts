/**
 * `pnpm bench [name...] [options]`: runs the benchmarks of docs/BENCHMARKS.md (all, or the named
 * ones: audit, throughput, sse, csv, reads, web, soak, faults, watch, asc, keywords, start, storage, render), prints a table and writes docs/BENCHMARKS.md (a
 * partial run replaces only its own sections). Exits 1 when a benchmark failed (an audit failed, an
 * event was lost, an answer broke its contract): a fast but wrong run is no result.
 *
 * Options:
 *   --quick            tiny sizes (as the CI smoke test); does not write BENCHMARKS.md
 *   --runs <n>         repeated runs of every benchmark (default: per benchmark, 3-5)
 *   --csv-mb <list>    export sizes of the CSV ladder in MB, e.g. 1,5 (default 1,5,20)
 *   --size <name=value> any other load shape, repeatable: sse.clients=3000, sse.audits=12,
 *                      csv.realYears=5, reads.pageConnections=64... (see size-overrides.ts);
 *                      an unknown name lists the known ones
 *   --profile          write V8 CPU profiles of the services and summarise them
 *   --heap-snapshots   soak: write V8 heap snapshots of the api after the warm-up and at the
 *                      end into the work folder (use with --keep)
 *   --web-dist <dir>   measure this built web app instead of building one
 *   --out <file>       where to write (default docs/BENCHMARKS.md); --no-write to skip
 *   --keep             keep the temporary folder (logs, generated files, profiles)
 *   --render           run nothing: rewrite BENCHMARKS.md from the results it holds and
 *                      bench/ANALYSIS.md (after editing the analysis)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closeAllSystems, runBenchmarks } from './bench.runner';
import { FULL_SIZES, SMOKE_SIZES, type TBenchSizes } from './bench.context';
import { REPO_ROOT } from './harness/service.process';
import {
  currentMachine,
  readStoredResults,
  renderConsoleTable,
  renderMarkdown,
  type TStoredResults,
} from './report/markdown.writer';
import { BENCH_NAMES, type TBenchName } from './bench.types';
import { applySizeOverrides, SizeOverrideError } from './size-overrides';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    'csv-mb': { type: 'string' },
    size: { type: 'string', multiple: true },
    profile: { type: 'boolean', default: false },
    'heap-snapshots': { type: 'boolean', default: false },
    'web-dist': { type: 'string' },
    out: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    render: { type: 'boolean', default: false },
  },
});

const unknown = positionals.filter((p) => !(BENCH_NAMES as readonly string[]).includes(p));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; choose from: ${BENCH_NAMES.join(', ')}`);
  process.exit(2);
}
const names: TBenchName[] = positionals.length
  ? BENCH_NAMES.filter((n) => positionals.includes(n))
  : [...BENCH_NAMES];

function withRuns(sizes: TBenchSizes, runs: number): TBenchSizes {
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs must be a whole number >= 1, got ${runs}`);
  return {
    audit: { ...sizes.audit, runs },
    throughput: { ...sizes.throughput, runs },
    sse: { ...sizes.sse, runs },
    csv: { ...sizes.csv, runs },
    reads: { ...sizes.reads, runs },
    web: sizes.web,
    soak: sizes.soak,
    faults: { runs },
    watch: { ...sizes.watch, runs },
    asc: sizes.asc,
    keywords: sizes.keywords,
    start: { runs },
    storage: sizes.storage,
    render: { pdfs: sizes.render.pdfs },
  };
}

let sizes = values.quick ? SMOKE_SIZES : FULL_SIZES;
if (values.runs !== undefined) sizes = withRuns(sizes, Number(values.runs));
if (values['csv-mb'] !== undefined) {
  const mb = values['csv-mb'].split(',').map(Number);
  if (mb.some((m) => !(m > 0)))
    throw new Error(`--csv-mb must list sizes in MB above 0, got ${values['csv-mb']}`);
  sizes = {
    ...sizes,
    csv: { ...sizes.csv, bytes: mb.map((m) => Math.round(m * 1e6)), rows: undefined },
  };
}
if (values.size?.length) {
  try {
    sizes = applySizeOverrides(sizes, values.size);
  } catch (error) {
    if (!(error instanceof SizeOverrideError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}
const write = !values.quick && !values['no-write'];
const out = resolve(REPO_ROOT, values.out ?? 'docs/BENCHMARKS.md');

/** Writes BENCHMARKS.md from `stored` and bench/ANALYSIS.md, laid out by the repository's formatter. */
function writeReport(stored: TStoredResults): void {
  const analysisFile = join(REPO_ROOT, 'bench/ANALYSIS.md');
  const analysis = existsSync(analysisFile) ? readFileSync(analysisFile, 'utf8') : null;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, renderMarkdown(stored, analysis));
  // Prettier owns the layout of markdown tables (`pnpm lint` checks it).
  try {
    execFileSync('pnpm', ['exec', 'prettier', '--write', out], {
      cwd: REPO_ROOT,
      stdio: 'ignore',
      timeout: 120_000,
    });
  } catch (err) {
    console.error(
      `prettier could not format ${out}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

if (values.render) {
  if (!existsSync(out)) throw new Error(`${out} does not exist: run the benchmarks first`);
  writeReport(readStoredResults(readFileSync(out, 'utf8')));
  console.log(`rewrote ${out}`);
  process.exit(0);
}
const workDir = mkdtempSync(join(tmpdir(), 'aso-bench-'));
const machine = currentMachine();
const started = Date.now();

let stopping = false;
const onSignal = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.error(`\n${signal}: stopping every process of the benchmark`);
  void closeAllSystems().finally(() => process.exit(130));
};
process.once('SIGINT', () => onSignal('SIGINT'));
process.once('SIGTERM', () => onSignal('SIGTERM'));

const log = (m: string) =>
  console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${m}`);
log(
  `benchmarks: ${names.join(', ')}; ${values.quick ? 'quick sizes' : 'full sizes'}${values.size?.length ? ` with ${values.size.join(', ')}` : ''}; work folder ${workDir}`,
);
log(
  `machine: ${machine.cores} cores, ${machine.memoryGb} GiB, Node ${machine.node}, load ${machine.load1}`,
);

const outcome = await runBenchmarks({
  names,
  sizes,
  workDir,
  cpuProfile: values.profile,
  heapSnapshots: values['heap-snapshots'],
  webDistDir: values['web-dist'] ? resolve(values['web-dist']) : null,
  log,
});

console.log(`\n${renderConsoleTable(outcome.results)}\n`);

if (write) {
  const stored: TStoredResults = existsSync(out)
    ? readStoredResults(readFileSync(out, 'utf8'))
    : {};
  for (const r of outcome.results) stored[r.name] = { ...r, machine };
  writeReport(stored);
  log(`wrote ${out}`);
}

if (values.keep || outcome.failed) log(`logs and files kept in ${workDir}`);
else rmSync(workDir, { recursive: true, force: true });
if (outcome.failed) {
  console.error('at least one benchmark FAILED (see above): its figures are not results');
  process.exit(1);
}
process.exit(0);
