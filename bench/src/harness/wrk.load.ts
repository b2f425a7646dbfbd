import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { z } from 'zod';
import { BenchFailure } from '../bench.types';

const execFileAsync = promisify(execFile);

/** Lua script that makes wrk print its summary as one JSON line (see the script). */
const SUMMARY_SCRIPT = fileURLToPath(new URL('./wrk-summary.lua', import.meta.url));
/** Marker of the script's JSON line in wrk's output. */
const SUMMARY_MARKER = 'WRK_SUMMARY ';
/** Seconds a single request may take before wrk counts it as a timeout. */
const REQUEST_TIMEOUT_S = 30;
/** Time wrk gets beyond its run to start, finish and report before it is killed (ms). */
const EXIT_GRACE_MS = 30_000;

/** wrk's summary as printed by `wrk-summary.lua` (times in microseconds). */
const ZWrkSummary = z.object({
  requests: z.number().int().nonnegative(),
  durationUs: z.number().int().positive(),
  bytes: z.number().int().nonnegative(),
  connectErrors: z.number().int().nonnegative(),
  readErrors: z.number().int().nonnegative(),
  writeErrors: z.number().int().nonnegative(),
  /** Answers with a status of 400 or more. */
  statusErrors: z.number().int().nonnegative(),
  timeouts: z.number().int().nonnegative(),
  p50Us: z.number().nonnegative(),
  p99Us: z.number().nonnegative(),
  maxUs: z.number().nonnegative(),
});
export type TWrkSummary = z.infer<typeof ZWrkSummary>;

/** One load run's figures. */
export interface TLoadFigures {
  /** Answers per second over the run (every answer counted is below 400, see {@link loadTest}). */
  rps: number;
  /** Latency percentiles of the answers (ms, microsecond resolution). */
  p50: number;
  p99: number;
  /** Answers received. */
  requests: number;
}

/**
 * Reads the summary line of `wrk-summary.lua` out of wrk's standard output.
 * @throws BenchFailure when the line is missing or malformed.
 */
export function parseWrkSummary(stdout: string): TWrkSummary {
  const line = stdout.split('\n').find((l) => l.startsWith(SUMMARY_MARKER));
  if (!line) throw new BenchFailure(`wrk printed no summary: ${stdout.slice(0, 500)}`);
  const parsed = ZWrkSummary.safeParse(JSON.parse(line.slice(SUMMARY_MARKER.length)));
  if (!parsed.success) throw new BenchFailure(`wrk's summary is malformed: ${line}`);
  return parsed.data;
}

/**
 * Drives `url` with wrk (Debian's `wrk`, a load generator written in C, in its own process:
 * one thread, `connections` keep-alive connections, `durationS` seconds), every request
 * sending the `headers` given and `Authorization` when `authorization` is set (passed through
 * the environment, not the command line). Returns answers/s and latency p50/p99 (ms).
 *
 * wrk rather than an in-process Node load generator: autocannon 9 turns every chunk of every
 * answer into a string and appends it to the answer's body, which cost about 3 ms of the
 * load generator's CPU per 120 kB answer on the machine the benchmarks ran on (a bare
 * `node:http` server sending 120 kB: 287 answers/s under autocannon, about 23,000 under wrk),
 * so the benchmark measured its own load generator rather than the server.
 *
 * @throws BenchFailure when wrk is not installed, fails, runs past its time, or reports any
 *   answer with a status of 400 or more, a connect/read/write error, a timeout, or no answer.
 */
export async function loadTest(
  url: string,
  opts: {
    durationS: number;
    connections: number;
    headers?: Record<string, string>;
    authorization?: string;
  },
): Promise<TLoadFigures> {
  const args = [
    '-t1',
    `-c${opts.connections}`,
    `-d${opts.durationS}s`,
    '--timeout',
    `${REQUEST_TIMEOUT_S}s`,
    '-s',
    SUMMARY_SCRIPT,
    ...Object.entries(opts.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    url,
  ];
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync('wrk', args, {
      timeout: opts.durationS * 1000 + EXIT_GRACE_MS,
      env: { ...process.env, WRK_AUTHORIZATION: opts.authorization ?? '' },
    }));
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    throw new BenchFailure(
      e.code === 'ENOENT'
        ? 'wrk is not installed: the reads benchmark drives its load with it (apt-get install -y wrk)'
        : `wrk failed on ${url}: ${e.message} ${String(e.stderr ?? '').slice(0, 500)}`,
      { cause: err },
    );
  }
  const s = parseWrkSummary(stdout);
  const errors = s.connectErrors + s.readErrors + s.writeErrors;
  if (s.statusErrors > 0 || errors > 0 || s.timeouts > 0) {
    throw new BenchFailure(
      `${url}: ${s.statusErrors} answers with a status of 400 or more, ${errors} socket errors, ${s.timeouts} timeouts under load`,
    );
  }
  if (s.requests === 0) throw new BenchFailure(`${url}: no answer at all under load`);
  return {
    rps: s.requests / (s.durationUs / 1e6),
    p50: s.p50Us / 1000,
    p99: s.p99Us / 1000,
    requests: s.requests,
  };
}
