import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { lowerCpuPriority } from './cpu-priority';

/**
 * Runs `lowerCpuPriority(niceness)` in a fresh node process (so this test process keeps its
 * own priority), starts a worker thread after it, and reports the nice value of each of the
 * child's threads as /proc shows it, with the function's outcome.
 */
function inChild(niceness: number, startUnderNice?: number) {
  const script = `
    import { readdirSync, readFileSync } from 'node:fs';
    import { Worker } from 'node:worker_threads';
    import { lowerCpuPriority } from ${JSON.stringify(new URL('./cpu-priority.ts', import.meta.url).href)};
    const outcome = lowerCpuPriority(${niceness});
    const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((resolve) => worker.once('online', resolve));
    // Field 19 of /proc/<pid>/task/<tid>/stat, counted after the command name's parenthesis.
    const nice = (tid) => Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
    const threads = readdirSync('/proc/self/task').map((tid) => nice(tid));
    console.log(JSON.stringify({ outcome, threads }));
    process.exit(0);
  `;
  const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', script];
  const [cmd, ...args] =
    startUnderNice === undefined ? node : ['nice', '-n', String(startUnderNice), ...node];
  const out = execFileSync(cmd!, args, { encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as {
    outcome: ReturnType<typeof lowerCpuPriority>;
    threads: number[];
  };
}

describe('lowerCpuPriority', () => {
  it.runIf(process.platform === 'linux')(
    'sets every thread running, and the threads started later inherit it',
    () => {
      const { outcome, threads } = inChild(7);
      expect(outcome.niceness).toBe(7);
      expect(outcome.refused).toEqual([]);
      // V8's and libuv's threads were running before the call.
      expect(outcome.lowered).toBeGreaterThan(1);
      // ...and the worker thread started after it (a node process has more than 5 threads).
      expect(threads.length).toBeGreaterThan(outcome.lowered);
      expect(new Set(threads)).toEqual(new Set([7]));
    },
  );

  it.runIf(process.platform === 'linux')(
    'keeps a process started at a lower priority there, refusing nothing',
    () => {
      const { outcome, threads } = inChild(7, 12);
      expect(outcome).toEqual({ niceness: 12, lowered: 0, refused: [] });
      expect(new Set(threads)).toEqual(new Set([12]));
    },
  );

  it.runIf(process.platform === 'linux')('leaves the priority alone at 0', () => {
    const { outcome, threads } = inChild(0);
    expect(outcome.lowered).toBe(0);
    expect(new Set(threads)).toEqual(new Set([outcome.niceness]));
  });

  it.each([-1, 20, 2.5, Number.NaN])('refuses niceness %s', (n) => {
    expect(() => lowerCpuPriority(n)).toThrow(RangeError);
  });
});
