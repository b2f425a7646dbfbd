import { createReadStream, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import Papa from 'papaparse';
import { parseAndMergeExports } from '@aso/csv-merge';
import { generateExport, type TGeneratedExport } from '../data/asc-export.generator';
import { nowMs } from '../harness/sse.client';
import { UPLOAD_WAIT_MS } from '../harness/bench.system';
import { BackendCpu } from '../probes/backend-cpu';
import { cpuMsSince } from '../probes/own-cpu';
import { ProcessSampler } from '../probes/process.sampler';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { median } from '../stats/stats.helpers';
import { BenchFailure, type TBenchResult, type TTargetCheck } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** Targets: two 20 MB exports merged in under 5 s with the worker under 400 MB RSS. */
export const MERGE_TARGET_MS = 5_000;
export const MERGE_RSS_TARGET_MB = 400;
/** Smallest export of the ladder the 5 s target is judged on (bytes). */
const LARGE_MERGE_TARGET_BYTES = 20_000_000;
/** Targets of real-size merges (ten years of daily rows): p95 under 300 ms alone... */
export const REAL_MERGE_P95_TARGET_MS = 300;
/** ...and, ten users at once, p95 under 3 times a lone merge (its median). */
export const REAL_MERGE_CONCURRENT_RATIO_TARGET = 3;

/**
 * Floor targets of real-size merges: the worker's CPU per merge at most this many times the CPU
 * of papaparse alone splitting the same two files (the library the worker splits them with)...
 */
export const REAL_MERGE_CPU_FLOOR_RATIO_TARGET = 1.2;
/**
 * ...and ten users at once, p95 at most this many times the machine's own floor: the CPU ten
 * lone merges cost the machine (the worker, the api, the PostgreSQL backends and the load
 * generator) spread over the cores (10 x the lone CPU per merge / cores).
 */
export const REAL_MERGE_CONCURRENT_FLOOR_RATIO_TARGET = 1.3;

/** The load the absolute real-size targets were set for: at least ten years, ten users. */
const REAL_TARGET_MIN_YEARS = 10;
const REAL_TARGET_MIN_USERS = 10;
/** The floor targets are judged past the smoke test's sizes: enough lone merges and users. */
const FLOOR_TARGET_MIN_RUNS = 5;
const FLOOR_TARGET_MIN_USERS = 4;

/** Times papaparse splits the pair for its floor (after as many unmeasured ones). */
const PARSE_FLOOR_ROUNDS = 30;

/**
 * CPU (ms, user + system of this process) of papaparse alone splitting `texts` into records,
 * per pass over all of them: the least any merge of these files costs with that library.
 */
function papaparseFloorMs(texts: readonly string[]): number {
  const pass = () => {
    let records = 0;
    for (const text of texts) records += Papa.parse<string[]>(text, { delimiter: ',' }).data.length;
    return records;
  };
  for (let i = 0; i < PARSE_FLOOR_ROUNDS; i++) pass();
  const before = process.cpuUsage();
  for (let i = 0; i < PARSE_FLOOR_ROUNDS; i++) pass();
  return cpuMsSince(before) / PARSE_FLOOR_ROUNDS;
}

/**
 * CPU (ms, user + system of this process) of the worker's own parse and merge of the pair
 * (`parseAndMergeExports` on one thread: sniffing, splitting, reading every cell, merging the
 * days), without the job, the parse threads or storage: what the merge's code adds to the
 * parse library, on the same bytes in the same run. Throws BenchFailure when the merge does not
 * give `rows` rows.
 */
async function mergeCodeMs(pair: readonly [Uint8Array, Uint8Array], rows: number): Promise<number> {
  const pass = async () => {
    const merged = await parseAndMergeExports({
      conversionCSV: Readable.from([Buffer.from(pair[0])]),
      redownloadsCSV: Readable.from([Buffer.from(pair[1])]),
    });
    if (merged.rowCount !== rows)
      throw new BenchFailure(`the merge code gave ${merged.rowCount} rows, expected ${rows}`);
  };
  for (let i = 0; i < PARSE_FLOOR_ROUNDS; i++) await pass();
  const before = process.cpuUsage();
  for (let i = 0; i < PARSE_FLOOR_ROUNDS; i++) await pass();
  return cpuMsSince(before) / PARSE_FLOOR_ROUNDS;
}

/** Real-size merges done before the measured ones (see where they are sent). */
const REAL_WARMUP_MERGES = 5;

/** Last day of the real-size exports (their years end here). */
const REAL_LAST_DAY = '2025-12-31';

/** The app and territory written in the generated exports' preamble. */
const APP_NAME = 'Bench Habit Tracker';
const TERRITORY = 'United States';

/** How long the client waits for an upload's answer: past the api's UPLOAD_WAIT_MS, so the api answers first. */
const UPLOAD_CLIENT_TIMEOUT_MS = UPLOAD_WAIT_MS + 30_000;

/** 1-based line of the header row (the first line starting with the quoted `Date` cell), 1 when none. */
export function headerLine(head: string): number {
  const i = head.split(/\r?\n/).findIndex((l) => /^\ufeff?"?Date"?,/.test(l));
  return i < 0 ? 1 : i + 1;
}

/**
 * The baseline: csv-parse alone reading `file` from disk from its header row on, every
 * record, nothing converted (the same library the csv-merge worker uses, at its best: the
 * preamble is skipped with `from_line`, so every record has the header's length). Returns the
 * records read, header included.
 */
export async function csvParseOnly(file: string, fromLine: number): Promise<number> {
  let records = 0;
  const parser = createReadStream(file).pipe(
    parse({ bom: true, from_line: fromLine, skip_empty_lines: true }),
  );
  for await (const _record of parser as AsyncIterable<string[]>) records++;
  return records;
}

type TFile = TGeneratedExport & { path: string; filename: string };

/** Generates the conversion and redownloads exports of one size step into `dir`. */
function generatePair(
  dir: string,
  tag: string,
  size: { bytes?: number; rows?: number },
): Record<'conversionCSV' | 'redownloadsCSV', TFile> {
  const big = size.rows === undefined;
  const spec = {
    appName: APP_NAME,
    territory: TERRITORY,
    // Long spans need 4-digit years (M/D/YY only covers 1950-2049).
    startDay: big ? '1500-01-01' : '2025-01-01',
    yearDigits: big ? (4 as const) : (2 as const),
    ...(big ? { targetBytes: size.bytes } : { rows: size.rows }),
  };
  const file = (kind: 'conversion' | 'redownloads', rows?: number): TFile => {
    const g = generateExport(rows === undefined ? { ...spec, kind } : { ...spec, kind, rows });
    const f = {
      ...g,
      path: join(dir, `bench-${tag}-${kind}.csv`),
      filename: `constructed_${kind}_bench-${tag}.csv`,
    };
    writeFileSync(f.path, f.bytes);
    return f;
  };
  // The merge refuses exports of different date ranges: the redownloads export covers the
  // conversion export's days (its rows are narrower, so it is the smaller file).
  const conversionCSV = file('conversion');
  return { conversionCSV, redownloadsCSV: file('redownloads', conversionCSV.rows) };
}

/**
 * Benchmark 4 (docs/BENCHMARKS.md): `POST /api/uploads` with a conversion export of each size of
 * the ladder up to 20 MB and the redownloads export of the same days (generated, CONSTRUCTED, in
 * the samples' layout; the merge refuses exports of different date ranges): time from the upload's start to the answer, csv-merge worker peak RSS, MB/s. Baseline:
 * csv-parse alone parsing the same two files in this process in the same run. A size whose merge
 * fails or times out ends the ladder and fails the benchmark (the figures of the smaller sizes are
 * kept).
 */
export const csvMergeBenchmark: TBenchmark = {
  name: 'csv',
  title: 'CSV merge: two App Store Connect exports',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const size = ctx.sizes.csv;
    const steps: { tag: string; bytes?: number; rows?: number }[] =
      size.rows !== undefined
        ? [{ tag: `${size.rows}rows`, rows: size.rows }]
        : size.bytes.map((b) => ({ tag: `${b / 1e6}MB`, bytes: b }));
    const system = await ctx.system('csv', 0);
    const figures = new FiguresBuilder();
    const errors: string[] = [];
    const described: string[] = [];
    const [merger] = await system.ensureWorkers({ 'csv-merge': { count: 1 } });
    const users = await system.users(Math.max(2, size.realUsers));
    const [user, second] = users;
    let largest: { label: string; bytes: number } | null = null;

    // Real size: what a daily App Store Connect export of ten years holds (under 4,000 rows).
    const realFirstDay = `${Number(REAL_LAST_DAY.slice(0, 4)) - size.realYears + 1}-01-01`;
    const realRows =
      Math.round(
        (Date.parse(`${REAL_LAST_DAY}T00:00:00Z`) - Date.parse(`${realFirstDay}T00:00:00Z`)) /
          86_400_000,
      ) + 1;
    const real = (['conversion', 'redownloads'] as const).map((kind) =>
      generateExport({
        kind,
        appName: APP_NAME,
        territory: TERRITORY,
        startDay: realFirstDay,
        rows: realRows,
      }),
    );
    const realLabel = `2 x ${size.realYears} years of daily rows (${realRows} rows)`;
    described.push(
      `${realLabel}: conversion ${formatValue(real[0]!.bytes.length / 1000, 'KB')}, redownloads ${formatValue(real[1]!.bytes.length / 1000, 'KB')}, ${realFirstDay} to ${REAL_LAST_DAY} in both (CONSTRUCTED); ${REAL_WARMUP_MERGES} unmeasured uploads (compiling), ${size.realRuns} uploads alone, then ${size.realRounds} rounds of ${size.realUsers} users uploading such a pair at once (each upload timed on its own).`,
    );
    const uploadReal = async (u: (typeof users)[number]): Promise<number> => {
      const started = nowMs();
      const answer = await system.api.upload(
        u.token,
        {
          conversionCSV: { filename: 'constructed_conversion_10y.csv', bytes: real[0]!.bytes },
          redownloadsCSV: { filename: 'constructed_redownloads_10y.csv', bytes: real[1]!.bytes },
        },
        UPLOAD_CLIENT_TIMEOUT_MS,
      );
      const ms = nowMs() - started;
      if (answer.mergedData.totalRows !== realRows)
        throw new BenchFailure(
          `${realLabel}: the merge answered ${answer.mergedData.totalRows} rows, expected ${realRows}`,
        );
      return ms;
    };
    // Unmeasured merges first: the first merges pay for compiling, in the api, the worker and
    // each of the worker's parse threads (which take the files of a merge by turns), and V8
    // optimises the parse only after some of them. A long-running server pays this once.
    for (let warm = 0; warm < REAL_WARMUP_MERGES; warm++) await uploadReal(user!);
    const aloneCpu = new ProcessSampler([
      { name: 'csv-merge', pid: merger!.pid },
      { name: 'api', pid: system.apiProcess.pid },
    ]).start();
    const aloneBackends = await new BackendCpu(system).start();
    const clientAtStart = process.cpuUsage();
    for (let run = 0; run < size.realRuns; run++) {
      figures.add(
        'real.time',
        `${realLabel}: upload start -> answer, alone`,
        'ms',
        await uploadReal(user!),
      );
    }
    // The worker's CPU over the lone merges (its parse threads included: one process), per
    // merge, against papaparse alone on the same bytes in this process, same run.
    const [workerCpu, apiCpu] = aloneCpu.stop();
    const clientMs = cpuMsSince(clientAtStart);
    const pgCpuS = await aloneBackends.stop();
    // What else a lone merge costs the machine: the api (the upload, the answer), PostgreSQL
    // (storing the uploads and the rows) and the load generator (building the upload, reading
    // the answer), each per merge over the same lone merges.
    const perMerge = (seconds: number) => (seconds * 1000) / size.realRuns;
    const aroundMs = {
      api: perMerge(apiCpu!.cpuSeconds),
      pg: pgCpuS === null ? 0 : perMerge(pgCpuS),
      client: clientMs / size.realRuns,
    };
    figures.add('real.cpu.api', `${realLabel}: api CPU per merge, alone`, 'ms', aroundMs.api);
    if (pgCpuS !== null)
      figures.add(
        'real.cpu.pg',
        `${realLabel}: PostgreSQL backends' CPU per merge, alone`,
        'ms',
        aroundMs.pg,
      );
    figures.add(
      'real.cpu.client',
      `${realLabel}: the load generator's CPU per merge, alone`,
      'ms',
      aroundMs.client,
    );
    figures.add(
      'real.cpu.all',
      `${realLabel}: the machine's CPU per merge, alone (worker, api, PostgreSQL, load generator)`,
      'ms',
      perMerge(workerCpu!.cpuSeconds) + aroundMs.api + aroundMs.pg + aroundMs.client,
    );
    const floorMs = papaparseFloorMs(real.map((e) => new TextDecoder().decode(e.bytes)));
    figures.add(
      'real.cpu',
      `${realLabel}: csv-merge worker CPU per merge, alone`,
      'ms',
      (workerCpu!.cpuSeconds * 1000) / size.realRuns,
    );
    figures.add(
      'real.floor',
      `${realLabel}: papaparse alone splitting both files, CPU`,
      'ms',
      floorMs,
    );
    figures.baseline('real.cpu', 'papaparse alone on the same two files, same run', [floorMs]);
    figures.add(
      'real.code',
      `${realLabel}: the worker's parse and merge alone (one thread, no job, no storage), CPU`,
      'ms',
      await mergeCodeMs([real[0]!.bytes, real[1]!.bytes], realRows),
    );
    figures.baseline('real.code', 'papaparse alone on the same two files, same run', [floorMs]);
    for (let round = 0; round < size.realRounds; round++) {
      const times = await Promise.all(users.slice(0, size.realUsers).map((u) => uploadReal(u)));
      for (const ms of times)
        figures.add(
          'real.concurrent',
          `${realLabel}: upload start -> answer, ${size.realUsers} users at once`,
          'ms',
          ms,
        );
    }
    figures.baseline(
      'real.concurrent',
      'the same upload alone, same run',
      figures.samples('real.time'),
    );
    ctx.log(
      `csv: ${realLabel}: alone p95 ${formatValue(figures.p95('real.time'), 'ms')}, ${size.realUsers} at once p95 ${formatValue(figures.p95('real.concurrent'), 'ms')}`,
    );

    ladder: for (const step of steps) {
      ctx.log(
        `csv: generating two exports of ${step.bytes ? formatValue(step.bytes / 1e6, 'MB') : `${step.rows} rows`}`,
      );
      const files = generatePair(ctx.workDir, step.tag, step);
      const totalBytes = files.conversionCSV.bytes.length + files.redownloadsCSV.bytes.length;
      const expectedRows = Math.max(files.conversionCSV.rows, files.redownloadsCSV.rows);
      const label = step.bytes
        ? `2 x ${formatValue(step.bytes / 1e6, 'MB')}`
        : `2 x ${step.rows} rows`;
      described.push(
        `${label}: conversion ${formatValue(files.conversionCSV.bytes.length / 1e6, 'MB')} (${files.conversionCSV.rows} days), ` +
          `redownloads ${formatValue(files.redownloadsCSV.bytes.length / 1e6, 'MB')} (${files.redownloadsCSV.rows} days), merged ${expectedRows} rows.`,
      );
      /** Uploads the two files as `u` and checks the answer (BenchFailure when it is wrong). */
      const uploadPair = async (u: NonNullable<typeof user>): Promise<void> => {
        const answer = await system.api.upload(
          u.token,
          {
            conversionCSV: {
              filename: files.conversionCSV.filename,
              bytes: files.conversionCSV.bytes,
            },
            redownloadsCSV: {
              filename: files.redownloadsCSV.filename,
              bytes: files.redownloadsCSV.bytes,
            },
          },
          UPLOAD_CLIENT_TIMEOUT_MS,
        );
        const merged = answer.mergedData;
        if (
          merged.totalRows !== expectedRows ||
          merged.appName !== APP_NAME ||
          merged.territory !== TERRITORY ||
          merged.headers.at(-1) !== 'Territory'
        ) {
          throw new BenchFailure(
            `the merge answered ${merged.totalRows} rows for ${merged.appName ?? 'no app'} / ${merged.territory ?? 'no territory'} ` +
              `(last column ${merged.headers.at(-1)}); expected ${expectedRows} rows for ${APP_NAME} / ${TERRITORY}, last column Territory`,
          );
        }
      };
      const baselineMs: number[] = [];
      for (let run = 0; run < size.runs; run++) {
        const t0 = nowMs();
        for (const f of Object.values(files)) {
          const records = await csvParseOnly(
            f.path,
            headerLine(f.bytes.subarray(0, 4096).toString('utf8')),
          );
          if (records !== f.rows + 1)
            throw new BenchFailure(
              `csv-parse read ${records} records of ${f.filename}, expected ${f.rows + 1}`,
            );
        }
        baselineMs.push(nowMs() - t0);

        const sampler = new ProcessSampler([
          { name: 'csv-merge', pid: merger!.pid },
          { name: 'api', pid: system.apiProcess.pid },
        ]).start();
        const started = nowMs();
        try {
          await uploadPair(user!);
        } catch (err) {
          const [worker] = sampler.stop();
          if (err instanceof BenchFailure) throw err;
          errors.push(
            `${label}: the upload failed after ${formatValue((nowMs() - started) / 1000, 's')} ` +
              `(${err instanceof Error ? err.message : String(err)}); csv-merge worker peak RSS ${formatValue(worker!.peakRssMb, 'MB')}, ` +
              `CPU ${formatValue(worker!.cpuSeconds, 's')}.${step === steps.at(-1) ? '' : ' Larger sizes were not tried.'}`,
          );
          break ladder;
        }
        const ms = nowMs() - started;
        const [worker, api] = sampler.stop();
        figures.add(`${step.tag}.time`, `${label}: upload start -> answer`, 's', ms / 1000);
        figures.add(
          `${step.tag}.rate`,
          `${label}: throughput`,
          'MB/s',
          totalBytes / 1e6 / (ms / 1000),
        );
        figures.add(
          `${step.tag}.rss`,
          `${label}: csv-merge worker peak RSS`,
          'MB',
          worker!.peakRssMb,
        );
        figures.add(
          `${step.tag}.cpu`,
          `${label}: csv-merge worker CPU time`,
          's',
          worker!.cpuSeconds,
        );
        figures.add(`${step.tag}.apirss`, `${label}: api peak RSS`, 'MB', api!.peakRssMb);
        ctx.log(
          `csv: ${label} run ${run + 1}/${size.runs}: ${formatValue(ms / 1000, 's')}, worker peak RSS ${formatValue(worker!.peakRssMb, 'MB')}`,
        );
      }
      figures.baseline(
        `${step.tag}.time`,
        'csv-parse alone (from the header row), same two files, this process',
        baselineMs.map((ms) => ms / 1000),
      );
      figures.baseline(
        `${step.tag}.rate`,
        'csv-parse alone',
        baselineMs.map((ms) => totalBytes / 1e6 / (ms / 1000)),
      );
      largest = { label, bytes: step.bytes ?? 0 };

      // The worker merges several uploads at once (CONCURRENCY): the largest size, twice at a time.
      if (step !== steps.at(-1)) continue;
      for (let run = 0; run < size.runs; run++) {
        const sampler = new ProcessSampler([{ name: 'csv-merge', pid: merger!.pid }]).start();
        const started = nowMs();
        const settled = await Promise.allSettled([uploadPair(user!), uploadPair(second!)]);
        const ms = nowMs() - started;
        const [worker] = sampler.stop();
        const failed = settled.find((r) => r.status === 'rejected');
        if (failed) {
          const reason: unknown = failed.reason;
          if (reason instanceof BenchFailure) throw reason;
          errors.push(
            `${label}, two uploads at once: failed after ${formatValue(ms / 1000, 's')} ` +
              `(${reason instanceof Error ? reason.message : String(reason)}); csv-merge worker peak RSS ${formatValue(worker!.peakRssMb, 'MB')}.`,
          );
          break;
        }
        figures.add(
          `${step.tag}.pair.time`,
          `${label}, two uploads at once (two users): start -> both answered`,
          's',
          ms / 1000,
        );
        figures.add(
          `${step.tag}.pair.rss`,
          `${label}, two uploads at once: csv-merge worker peak RSS`,
          'MB',
          worker!.peakRssMb,
        );
        ctx.log(
          `csv: ${label} two at once, run ${run + 1}/${size.runs}: ${formatValue(ms / 1000, 's')}, worker peak RSS ${formatValue(worker!.peakRssMb, 'MB')}`,
        );
      }
      if (figures.samples(`${step.tag}.pair.time`).length > 0) {
        figures.baseline(
          `${step.tag}.pair.time`,
          'one upload of the same files, same run',
          figures.samples(`${step.tag}.time`),
        );
      }
    }

    const targets: TTargetCheck[] = [];
    const aloneMedian = figures.median('real.time');
    const concurrentP95 = figures.p95('real.concurrent');
    if (size.realYears >= REAL_TARGET_MIN_YEARS && size.realUsers >= REAL_TARGET_MIN_USERS) {
      const aloneP95 = figures.p95('real.time');
      targets.push(
        {
          target: `Real-size merge (two exports of ${size.realYears} years of daily rows): upload to answer p95 under ${REAL_MERGE_P95_TARGET_MS} ms`,
          measured: `p95 ${formatValue(aloneP95, 'ms')}, median ${formatValue(aloneMedian, 'ms')} over ${size.realRuns} uploads`,
          met: aloneP95 < REAL_MERGE_P95_TARGET_MS,
        },
        {
          target: `${size.realUsers} users merging such pairs at once: p95 under ${REAL_MERGE_CONCURRENT_RATIO_TARGET} times a lone merge`,
          measured: `p95 ${formatValue(concurrentP95, 'ms')} over ${size.realRounds * size.realUsers} uploads = ${(concurrentP95 / aloneMedian).toFixed(2)} x the lone median (${formatValue(aloneMedian, 'ms')})`,
          met: concurrentP95 < REAL_MERGE_CONCURRENT_RATIO_TARGET * aloneMedian,
        },
      );
    }
    // Relative to floors of the same run, so judged at any real size and any number of users
    // (`--size csv.realYears=... --size csv.realUsers=...`), past the smoke test's.
    if (size.realRuns >= FLOOR_TARGET_MIN_RUNS && size.realUsers >= FLOOR_TARGET_MIN_USERS) {
      const cpuMs = median(figures.samples('real.cpu'));
      const floorMs = median(figures.samples('real.floor'));
      const cores = availableParallelism();
      const allMs = median(figures.samples('real.cpu.all'));
      const machineFloorMs = (size.realUsers * allMs) / cores;
      const workerFloorMs = (size.realUsers * cpuMs) / cores;
      targets.push(
        {
          target: `Real-size merge CPU (two exports of ${size.realYears} years of daily rows) at most ${REAL_MERGE_CPU_FLOOR_RATIO_TARGET}x papaparse alone on the same two files (same run)`,
          measured: `${formatValue(cpuMs, 'ms')} per merge (worker, /proc ticks over ${size.realRuns} merges) vs ${formatValue(floorMs, 'ms')} = ${(cpuMs / floorMs).toFixed(2)}x`,
          met: cpuMs <= REAL_MERGE_CPU_FLOOR_RATIO_TARGET * floorMs,
        },
        {
          target: `${size.realUsers} users at once: p95 at most ${REAL_MERGE_CONCURRENT_FLOOR_RATIO_TARGET}x the machine's floor (${size.realUsers} x the CPU a lone merge costs the machine / cores)`,
          measured: `p95 ${formatValue(concurrentP95, 'ms')} vs ${formatValue(machineFloorMs, 'ms')} (${size.realUsers} x ${formatValue(allMs, 'ms')} of worker, api, PostgreSQL and load generator / ${cores} cores) = ${(concurrentP95 / machineFloorMs).toFixed(2)}x; against the worker's CPU alone (${size.realUsers} x ${formatValue(cpuMs, 'ms')} / ${cores}) ${(concurrentP95 / workerFloorMs).toFixed(2)}x`,
          met: concurrentP95 <= REAL_MERGE_CONCURRENT_FLOOR_RATIO_TARGET * machineFloorMs,
        },
      );
    }
    const top = steps.at(-1);
    if (top?.bytes !== undefined && top.bytes >= LARGE_MERGE_TARGET_BYTES) {
      const done = largest?.bytes === top.bytes;
      const t = done ? median(figures.samples(`${top.tag}.time`)) : Number.NaN;
      const rss = done ? median(figures.samples(`${top.tag}.rss`)) : Number.NaN;
      targets.push({
        target: `Merge of two ${formatValue(top.bytes / 1e6, 'MB')} files under ${MERGE_TARGET_MS / 1000} s with worker RSS under ${MERGE_RSS_TARGET_MB} MB`,
        measured: done
          ? `${formatValue(t, 's')} (median; worst ${formatValue(figures.p95(`${top.tag}.time`), 's')}), worker peak RSS ${formatValue(rss, 'MB')}`
          : `did not finish: ${errors.at(-1) ?? 'not reached'}`,
        met: done && t * 1000 < MERGE_TARGET_MS && rss < MERGE_RSS_TARGET_MB,
      });
    }
    return {
      name: 'csv',
      title: this.title,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      runs: size.runs,
      setup: [
        'Files: CONSTRUCTED exports generated into a temporary folder (never committed) in the layout of fixtures/asc-analytics (BOM, CRLF, quoted preamble and header, quoted thousands), both of the same days; a 20 MB export spans centuries of days, so large sizes use M/D/YYYY dates.',
        ...described,
        `One POST /api/uploads with both files (multipart), answered once the csv-merge worker stored the dataset; the answer is checked (rows, app name, territory, columns). The api waits up to ${UPLOAD_WAIT_MS / 1000} s (UPLOAD_WAIT_MS) before answering 504. At the largest size, two such uploads by two users are then also sent at once (the worker merges 4 jobs at a time by default).`,
        'Processes: api and 1 csv-merge worker (default concurrency and lock settings); RSS and CPU from /proc every 250 ms.',
      ],
      figures: figures.build(),
      tables: [],
      targets,
      findings: [],
      errors,
    };
  },
};
