import { fork } from 'node:child_process';
import { once } from 'node:events';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BenchFailure } from '../bench.types';
import { REPO_ROOT } from './service.process';
import { openSse, openStreams, type TSseConnection } from './sse.client';

const SERVER_SCRIPT = fileURLToPath(new URL('./sse-floor.server.ts', import.meta.url));
/** Longest wait for the server to listen, to answer a burst, or to end (ms). */
const STEP_TIMEOUT_MS = 30_000;

/** What {@link measureSseFloor} measured. */
export interface TSseFloor {
  /** Receipt latencies (emit -> receipt, ms) of every message on every stream. */
  latencies: number[];
  /** Event-loop delay p99 of this process (the load generator) while the bursts arrived (ms). */
  clientLoopDelayP99Ms: number;
}

async function withTimeout<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new BenchFailure(`SSE floor: ${what} took over ${STEP_TIMEOUT_MS} ms`)),
          STEP_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The floor under the SSE fan-out figures on this machine: `clients` streams opened by this
 * process with the same client as the benchmark (`openSse`, one keep-alive agent) on a bare
 * `node:http` server in its own process (`sse-floor.server.ts`), which writes one message of
 * `dataBytes` bytes to every stream at once, `bursts` times, `gapMs` apart. Every latency is
 * the server's `emittedAt` to this process's receipt of the chunk (ms), as in the benchmark;
 * what it shows is the cost of the writes, of loopback TCP and of the reads alone, with no
 * gateway logic, no audits and no workers.
 *
 * @throws BenchFailure when the server does not start or answer in time, or when a stream
 *   did not get every message exactly once, in order.
 */
export async function measureSseFloor(opts: {
  clients: number;
  bursts: number;
  gapMs: number;
  dataBytes: number;
}): Promise<TSseFloor> {
  const child = fork(SERVER_SCRIPT, [String(opts.dataBytes)], {
    cwd: REPO_ROOT,
    execArgv: ['--conditions=@aso/source', '--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  let conns: TSseConnection[] = [];
  try {
    const [ready] = (await withTimeout('starting the server', once(child, 'message'))) as [
      { port: number },
    ];
    const url = `http://127.0.0.1:${ready.port}/`;
    conns = await openStreams(opts.clients, () => openSse(url, { agent }));

    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    for (let b = 0; b < opts.bursts; b++) {
      const answered = once(child, 'message');
      child.send('burst');
      const [{ written }] = (await withTimeout('a burst', answered)) as [{ written: number }];
      if (written !== opts.clients)
        throw new BenchFailure(
          `SSE floor: the server wrote to ${written} of ${opts.clients} streams`,
        );
      await new Promise((resolve) => setTimeout(resolve, opts.gapMs));
    }
    loop.disable();
    child.send('end');
    await withTimeout('ending the streams', Promise.all(conns.map((c) => c.done)));

    const latencies: number[] = [];
    for (const c of conns) {
      const ids = c.messages.map((m) => m.id).join(',');
      const want = Array.from({ length: opts.bursts }, (_, i) => String(i + 1)).join(',');
      if (ids !== want)
        throw new BenchFailure(`SSE floor: a stream got messages [${ids}], expected [${want}]`);
      for (const m of c.messages) {
        const { emittedAt } = JSON.parse(m.data) as { emittedAt: number };
        latencies.push(m.receivedAt - emittedAt);
      }
    }
    return { latencies, clientLoopDelayP99Ms: loop.percentile(99) / 1e6 };
  } finally {
    for (const c of conns) c.close();
    agent.destroy();
    if (child.exitCode === null) child.kill();
  }
}
