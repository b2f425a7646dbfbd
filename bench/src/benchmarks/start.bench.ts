/**
 * `pnpm bench start`: how long the README's quick start takes until the system answers.
 *
 * A fresh clone of this repository's committed HEAD (beside a link to `../shared`, as a clone
 * next to this checkout has it) is installed (`pnpm install --frozen-lockfile`, packages from
 * pnpm's store as on any machine that installed once) and started with `pnpm start --offline`;
 * once it prints its ready line it is stopped and started again on the tree it built, `runs`
 * times. `pnpm start` prints how its time was spent (`ready in 12.3 s (build …, database …,
 * processes …)`), which is what is recorded. The in-run floor of the built-tree start is the
 * api alone from its `dist/` until `/readyz` answers: what no supervisor, build check or
 * migration can go below.
 *
 * Each start gets ports, a database and a Redis key prefix of its own (`HEALTH_PORT=0` for the
 * workers), so it runs beside another system on the same machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { deletePrefix, newPrefix, redisUrl, scratchDatabase } from '@aso/testkit';
import type { TBenchmark } from '../bench.context';
import type { TBenchResult, TFigure } from '../bench.types';
import { freeBenchPort, releaseBenchPort } from '../harness/ports.helpers';
import { answersOk, REPO_ROOT, waitFor } from '../harness/service.process';
import { median } from '../stats/stats.helpers';

/** Targets of the quick start (docs/BENCHMARKS.md). */
const BUILT_TREE_TARGET_S = 30;
const FRESH_CLONE_TARGET_S = 75;

/** What `pnpm start` reports on its ready line (seconds). */
interface TStartTimes {
  total: number;
  build: number;
  database: number;
  processes: number;
}

const READY_LINE =
  /ready in ([\d.]+) s \(build ([\d.]+) s, database ([\d.]+) s, processes ([\d.]+) s\)/;

/** Reads `pnpm start`'s ready line, or null when `text` has none yet. */
export function parseReadyLine(text: string): TStartTimes | null {
  const m = READY_LINE.exec(text);
  if (!m) return null;
  const [total, build, database, processes] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
  ];
  return { total, build, database, processes };
}

/** Runs `cmd` in `cwd` to its end. @throws Error with the end of its output when it fails. */
function runToEnd(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<void>((ok, fail) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
    child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? ok() : fail(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out}`)),
    );
  });
}

/** Stops a process group started detached: SIGINT (pnpm start stops its processes), then SIGKILL. */
async function stopGroup(child: ChildProcess, graceMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  process.kill(-child.pid, 'SIGINT');
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts `pnpm start --offline` in `cwd` and waits for its ready line (at most `timeoutMs`),
 * then stops it. Answers the times it printed.
 */
async function timedStart(
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<TStartTimes> {
  const child = spawn('pnpm', ['start', '--offline'], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  try {
    let times: TStartTimes | null = null;
    await waitFor(
      'the ready line of pnpm start',
      () => {
        if (child.exitCode !== null) throw new Error(`pnpm start exited:\n${out.slice(-3000)}`);
        times = parseReadyLine(out);
        return times !== null;
      },
      { timeoutMs, intervalMs: 100 },
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}\n${out.slice(-3000)}`);
    });
    return times!;
  } finally {
    await stopGroup(child);
  }
}

/** The api alone from `dist/` until `/readyz` answers (ms): the floor of a built-tree start. */
async function apiAloneMs(cwd: string, env: NodeJS.ProcessEnv, port: number): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', 'services/api/dist/main.js'], {
    cwd,
    env,
    detached: true,
    stdio: 'ignore',
  });
  try {
    await waitFor('the api alone to be ready', () => answersOk(`http://127.0.0.1:${port}/readyz`), {
      timeoutMs: 60_000,
      intervalMs: 50,
    });
    return performance.now() - t0;
  } finally {
    await stopGroup(child, 10_000);
  }
}

export const startBenchmark: TBenchmark = {
  name: 'start',
  title: 'Quick start: pnpm start --offline from a fresh clone and on a built tree',
  async run(ctx): Promise<TBenchResult> {
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    const runs = ctx.sizes.start.runs;
    const clone = join(ctx.workDir, 'start', 'main');
    const ports = await Promise.all([freeBenchPort(), freeBenchPort(), freeBenchPort()]);
    const [port, replayPort, standInPort] = ports;
    // Created and migrated by pnpm start itself, as on a new machine.
    const database = scratchDatabase('aso_bench_start');
    const prefix = newPrefix();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      CI: '',
      PORT: String(port),
      STORE_REPLAY_PORT: String(replayPort),
      ASC_STAND_IN_PORT: String(standInPort),
      HEALTH_PORT: '0',
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl(),
      QUEUE_PREFIX: prefix,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
    };
    try {
      ctx.log('start: cloning the committed HEAD');
      await runToEnd('git', ['clone', '-q', REPO_ROOT, clone], ctx.workDir, env);
      symlinkSync(resolve(REPO_ROOT, '..', 'shared'), join(clone, '..', 'shared'));

      ctx.log('start: pnpm install --frozen-lockfile');
      const i0 = performance.now();
      await runToEnd('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], clone, env);
      const installS = (performance.now() - i0) / 1000;

      ctx.log('start: pnpm start --offline on the fresh clone (builds everything)');
      const fresh = await timedStart(clone, env, 10 * 60_000);

      const built: TStartTimes[] = [];
      const floor: number[] = [];
      for (let r = 0; r < runs; r++) {
        ctx.log(`start: pnpm start --offline on the built tree (${r + 1}/${runs})`);
        built.push(await timedStart(clone, env, 5 * 60_000));
        floor.push((await apiAloneMs(clone, env, port)) / 1000);
      }

      const freshTotal = installS + fresh.total;
      const builtTotals = built.map((b) => b.total);
      const figures: TFigure[] = [
        {
          id: 'fresh.total',
          label: 'fresh clone: install + build + migrate + start, until ready',
          unit: 's',
          samples: [freshTotal],
          baseline: { label: 'pnpm install alone', samples: [installS] },
        },
        { id: 'fresh.build', label: 'fresh clone: build', unit: 's', samples: [fresh.build] },
        {
          id: 'built.total',
          label: 'built tree: pnpm start --offline until ready',
          unit: 's',
          samples: builtTotals,
          baseline: { label: 'the api alone from dist until /readyz', samples: floor },
        },
        {
          id: 'built.build',
          label: 'built tree: build check (turbo cache)',
          unit: 's',
          samples: built.map((b) => b.build),
        },
        {
          id: 'built.database',
          label: 'built tree: database check and migrations',
          unit: 's',
          samples: built.map((b) => b.database),
        },
        {
          id: 'built.processes',
          label: 'built tree: processes started until the api is ready',
          unit: 's',
          samples: built.map((b) => b.processes),
        },
      ];
      const builtMedian = median(builtTotals);
      return {
        name: 'start',
        title: startBenchmark.title,
        startedAt,
        durationMs: performance.now() - t0,
        runs,
        setup: [
          'a clone of the committed HEAD beside a link to ../shared; pnpm install from pnpm’s store (no network)',
          `pnpm start --offline (api, five workers, replay server, App Store Connect stand-in), then ${runs} start(s) on the built tree`,
          'ready = the api answers /readyz (pnpm start’s ready line)',
        ],
        figures,
        tables: [],
        targets: [
          {
            target: `fresh clone ready in under ${FRESH_CLONE_TARGET_S} s`,
            measured: `${freshTotal.toFixed(1)} s (install ${installS.toFixed(1)} s, build ${fresh.build.toFixed(1)} s, database ${fresh.database.toFixed(1)} s, processes ${fresh.processes.toFixed(1)} s)`,
            met: freshTotal < FRESH_CLONE_TARGET_S,
          },
          {
            target: `built tree ready in under ${BUILT_TREE_TARGET_S} s`,
            measured: `median ${builtMedian.toFixed(1)} s (api alone ${median(floor).toFixed(1)} s)`,
            met: builtMedian < BUILT_TREE_TARGET_S,
          },
        ],
        findings: [],
      };
    } finally {
      ports.forEach(releaseBenchPort);
      await database.drop().catch(() => undefined);
      await deletePrefix(prefix).catch(() => undefined);
    }
  },
};
