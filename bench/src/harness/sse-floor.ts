import { fork } from 'node:child_process';
import { once } from 'node:events';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BenchFailure } from '../bench.types';
import { cpuMsSince } from '../probes/own-cpu';
import { collectGarbage } from './gc';
import { REPO_ROOT } from './service.process';
import { openSse, openStreams, type TSseConnection } from './sse.client';

const SERVER_SCRIPT = fileURLToPath(new URL('./sse-floor.server.ts', import.meta.url));
/** Longest wait for the server to listen, to end, or beyond its last message to answer (ms). */
const STEP_TIMEOUT_MS = 30_000;

/** One message of a fan-out run as the floor writes it again. */
export interface TSseFloorMessage {
  /** Group of streams it goes to (an audit's clients in the run). */
  group: number;
  /** When it was emitted in the run, after the run's first message (ms). */
  atMs: number;
  /** `step` messages are measured; the terminal `complete` is written but not measured. */
  event: 'step' | 'complete';
  /** Size of its `data` line in the run (bytes of UTF-8). */
  dataBytes: number;
}

/** A fan-out run's load shape: the streams of each group, and the messages in emit order. */
export interface TSseFloorSchedule {
  /** Streams per group: group `g` has `groups[g]` streams. */
  groups: number[];
  messages: TSseFloorMessage[];
}

/** What {@link measureSseFloor} measured. */
export interface TSseFloor {
  /** Receipt latencies (due -> receipt, ms) of every `step` message on every stream. */
  latencies: number[];
  /** Event-loop delay p99 of this process (the load generator) while the messages arrived (ms). */
  clientLoopDelayP99Ms: number;
  /** CPU of the floor's server (user and system) from the play's start to its last write (ms). */
  serverCpuMs: number;
  /** CPU of this process (the load generator) from the play's start to the streams' end (ms). */
  clientCpuMs: number;
}

/** Waits for `p` at most {@link STEP_TIMEOUT_MS} beyond `extraMs`. */
async function withTimeout<T>(what: string, p: Promise<T>, extraMs = 0): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new BenchFailure(`SSE floor: ${what} took over ${STEP_TIMEOUT_MS + extraMs} ms`),
            ),
          STEP_TIMEOUT_MS + extraMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The floor under the SSE fan-out figures on this machine: the run's streams, opened by this
 * process with the same client as the benchmark (`openSse`, one keep-alive agent), on a bare
 * `node:http` server in its own process (`sse-floor.server.ts`), which writes the run's
 * messages to the streams of their group at the moments they were emitted, each as large as
 * the message it stands for. Every latency is the moment the message was due to this
 * process's receipt of its chunk (ms), as in the benchmark: what it shows is the cost of the
 * writes, of loopback TCP and of the reads of that same load, with no gateway logic, no
 * progress bus, no audits and no workers.
 *
 * @throws BenchFailure when the server does not start or answer in time, or when a stream
 *   did not get every message of its group exactly once, in order.
 */
export async function measureSseFloor(schedule: TSseFloorSchedule): Promise<TSseFloor> {
  const child = fork(SERVER_SCRIPT, [], {
    cwd: REPO_ROOT,
    execArgv: ['--conditions=@aso/source', '--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const streamGroup = schedule.groups.flatMap((n, g) => Array<number>(n).fill(g));
  const perGroup = schedule.groups.map(
    (_, g) => schedule.messages.filter((m) => m.group === g).length,
  );
  let conns: TSseConnection[] = [];
  try {
    const [ready] = (await withTimeout('starting the server', once(child, 'message'))) as [
      { port: number },
    ];
    const url = `http://127.0.0.1:${ready.port}/`;
    conns = await openStreams(streamGroup.length, (i) =>
      openSse(`${url}?group=${streamGroup[i]}`, { agent }),
    );

    // The load generator starts with none of the relay run's garbage (as that run did).
    collectGarbage();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const lastAt = Math.max(0, ...schedule.messages.map((m) => m.atMs));
    const answered = once(child, 'message');
    const clientCpuAtStart = process.cpuUsage();
    child.send({ play: schedule.messages });
    const [{ delivered, cpuMs }] = (await withTimeout('playing the run', answered, lastAt)) as [
      { delivered: number; cpuMs: number },
    ];
    const want = perGroup.reduce((sum, k, g) => sum + k * schedule.groups[g]!, 0);
    if (delivered !== want)
      throw new BenchFailure(`SSE floor: the server delivered ${delivered} of ${want} messages`);
    child.send('end');
    await withTimeout('ending the streams', Promise.all(conns.map((c) => c.done)));
    loop.disable();
    const clientCpuMs = cpuMsSince(clientCpuAtStart);

    const latencies: number[] = [];
    for (const [i, c] of conns.entries()) {
      const ids = c.messages.map((m) => m.id).join(',');
      const expected = Array.from({ length: perGroup[streamGroup[i]!]! }, (_, k) =>
        String(k + 1),
      ).join(',');
      if (ids !== expected)
        throw new BenchFailure(`SSE floor: a stream got messages [${ids}], expected [${expected}]`);
      for (const m of c.messages) {
        if (m.event !== 'step') continue;
        const { emittedAt } = JSON.parse(m.data) as { emittedAt: number };
        latencies.push(m.receivedAt - emittedAt);
      }
    }
    return {
      latencies,
      clientLoopDelayP99Ms: loop.percentile(99) / 1e6,
      serverCpuMs: cpuMs,
      clientCpuMs,
    };
  } finally {
    for (const c of conns) c.close();
    agent.destroy();
    if (child.exitCode === null) child.kill();
  }
}
