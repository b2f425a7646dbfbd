import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ZStepEventData } from '@aso/contracts';
import { DEFAULT_WORKER_NICENESS, QUEUES } from '@aso/queue';
import { checkProgress, FOUR_APP_AUDIT, openProgress } from '../harness/audit.runner';
import type { TBenchUser } from '../harness/bench.users';
import { collectGarbage } from '../harness/gc';
import type { BenchSystem } from '../harness/bench.system';
import { openStreams, type TReceivedMessage, type TSseConnection } from '../harness/sse.client';
import {
  measureSseFloor,
  type TSseFloor,
  type TSseFloorMessage,
  type TSseFloorSchedule,
} from '../harness/sse-floor';
import { ProcessSampler } from '../probes/process.sampler';
import { cpuMsSince } from '../probes/own-cpu';
import { processRedisConnections } from '../probes/redis.probe';
import { metricValue, scrapeMetrics } from '../probes/prometheus.probe';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { median, percentile } from '../stats/stats.helpers';
import { BenchFailure, type TBenchResult, type TTargetCheck } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';
import { NO_CACHE_ENV } from './throughput.bench';

/** Target: SSE relay latency p95 under 50 ms with at least {@link SSE_TARGET_MIN_CLIENTS} clients. */
export const SSE_P95_TARGET_MS = 50;
/**
 * Target at the transport's floor: relay latency p95 at most this multiple of the p95 of a bare
 * `node:http` server writing the same run's messages to the same streams at the same moments.
 * Being relative to its own run's floor, it holds for any load shape of at least {@link
 * SSE_FLOOR_MIN_CLIENTS} clients (`--size sse.clients=... --size sse.audits=...`).
 */
export const SSE_FLOOR_RATIO_TARGET = 1.2;
/** Fewest clients the absolute p95 target is judged at (the load it was set for). */
export const SSE_TARGET_MIN_CLIENTS = 2000;
/** Fewest clients the floor-relative target is judged at: below, the smoke test's sizes. */
export const SSE_FLOOR_MIN_CLIENTS = 500;

/** Soft limit of open files of this process (`Max open files` of /proc/self/limits); null when unknown. */
export function openFilesLimit(limits = readFileSync('/proc/self/limits', 'utf8')): number | null {
  const m = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
  if (!m) return null;
  return m[1] === 'unlimited' ? Infinity : Number(m[1]);
}

/** What one fan-out run measured. */
interface TFanOutRun {
  /** Relay latencies of live `step` messages (worker append -> client receipt, ms). */
  latencies: number[];
  /** The run's load shape (streams per audit, each audit's live messages at their moments), for the floor. */
  schedule: TSseFloorSchedule;
  /** Messages received in total, and how many were replayed (emitted before the client connected). */
  messages: number;
  replayed: number;
  loopDelayP99Ms: number;
  /** `nodejs_eventloop_lag_p99_seconds` of the api's /metrics over the same window (ms); null without /metrics. */
  promLoopP99Ms: number | null;
  /** `aso_sse_open_streams` of the api's /metrics once every client connected; null without /metrics. */
  promOpenStreams: number | null;
  clientLoopDelayP99Ms: number;
  apiPeakRssMb: number;
  /** CPU of the gateway process (user and system) from the queue's resume to the last complete (ms). */
  apiCpuMs: number;
  /** Over the same window: the workers' CPU (scraper and analyzer, ms), the Redis server's (ms; null when unknown), and this load generator's (ms). */
  workersCpuMs: number;
  redisCpuMs: number | null;
  clientCpuMs: number;
  /** Redis connections of the gateway: before any client, at each quarter of the clients, and the most seen while streaming. */
  redisConnections: { at: number; count: number; names: string[] }[];
  maxRedisConnectionsStreaming: number;
}

async function connectAll(
  system: BenchSystem,
  plan: readonly { user: TBenchUser; auditId: string }[],
  agent: Agent,
  onQuarter: (connected: number) => Promise<void>,
): Promise<TSseConnection[]> {
  const quarters = new Set([1, 2, 3, 4].map((q) => Math.ceil((plan.length * q) / 4)));
  return openStreams(
    plan.length,
    (i) => openProgress(system.api, plan[i]!.user, plan[i]!.auditId, { agent }),
    async (connected) => {
      if (quarters.has(connected)) await onQuarter(connected);
    },
  );
}

/**
 * The load shape of a fan-out run, for the transport floor: the streams of each audit, and each
 * audit's messages that were live for all its clients (emitted after the last of them
 * connected) at the moment they were emitted (`emittedAt`, relative to the run's first) with
 * their size. The terminal `complete` carries no time: it is placed with the audit's last step,
 * which the workers emit just before it.
 */
function loadShape(
  auditIds: readonly string[],
  plan: readonly { auditId: string }[],
  conns: readonly TSseConnection[],
  references: ReadonlyMap<string, { messages: readonly TReceivedMessage[] }>,
): TSseFloorSchedule {
  const groups = auditIds.map((id) => plan.filter((p) => p.auditId === id).length);
  const shaped: TSseFloorMessage[] = [];
  for (const [group, auditId] of auditIds.entries()) {
    const connectedAt = Math.max(
      ...conns.filter((_, i) => plan[i]!.auditId === auditId).map((c) => c.connectedAt),
    );
    let lastAt: number | null = null;
    for (const m of references.get(auditId)!.messages) {
      const dataBytes = Buffer.byteLength(m.data);
      if (m.event === 'step') {
        const { emittedAt } = ZStepEventData.parse(JSON.parse(m.data));
        if (emittedAt === undefined || emittedAt < connectedAt) continue;
        lastAt = emittedAt;
        shaped.push({ group, atMs: emittedAt, event: 'step', dataBytes });
      } else if (m.event === 'complete' && lastAt !== null) {
        shaped.push({ group, atMs: lastAt, event: 'complete', dataBytes });
      }
    }
  }
  const first = Math.min(...shaped.map((m) => m.atMs));
  return { groups, messages: shaped.map((m) => ({ ...m, atMs: m.atMs - first })) };
}

/**
 * One run: `audits` audits are queued while the scrape queue is paused, `clients` streams are
 * opened over them (round robin), then the queue is resumed, so every event is live for every
 * client. Every client's messages must equal a replay of its
 * audit read afterwards (nothing lost, repeated or reordered); a failed audit fails the run.
 */
async function fanOutRun(
  ctx: TBenchContext,
  system: BenchSystem,
  users: readonly TBenchUser[],
  audits: number,
  clients: number,
): Promise<TFanOutRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const apiPid = system.apiProcess.pid;
  const redisConnections: TFanOutRun['redisConnections'] = [];
  const probe = async (at: number) => {
    const c = await processRedisConnections(system.redis, apiPid);
    redisConnections.push({ at, count: c.count, names: c.names });
  };
  try {
    // Held back until every client is connected, so that every event is live.
    await system.pauseQueue(QUEUES.scrape, true);
    const ids: { user: TBenchUser; auditId: string }[] = [];
    for (let i = 0; i < audits; i++) {
      const user = users[i % users.length]!;
      ids.push({ user, auditId: (await system.api.analyze(user.token, FOUR_APP_AUDIT)).id });
    }
    await probe(0);
    const plan = Array.from({ length: clients }, (_, i) => ids[i % ids.length]!);
    const conns = await connectAll(system, plan, agent, probe);
    ctx.log(`sse: ${clients} clients connected to ${audits} audits; resuming the scrape queue`);

    // prom-client resets its event-loop histogram on every scrape: this one opens the window.
    const before = await scrapeMetrics(system.api.baseUrl);
    const promOpenStreams = before === null ? null : metricValue(before, 'aso_sse_open_streams');
    // The load generator starts the window with no garbage of earlier phases (as the floor does).
    collectGarbage();
    await system.resetLoopDelay();
    if (ctx.cpuProfile) await system.startApiProfile();
    const clientLoop = monitorEventLoopDelay({ resolution: 10 });
    clientLoop.enable();
    const redisPid = Number(/process_id:(\d+)/.exec(await system.redis.info('server'))?.[1]);
    const sampler = new ProcessSampler([
      { name: 'api', pid: apiPid },
      ...system.workerProcesses
        .filter((w) => /^(scraper|analyzer)-/.test(w.name))
        .map((w) => ({ name: 'worker', pid: w.pid })),
      ...(redisPid > 0 ? [{ name: 'redis', pid: redisPid }] : []),
    ]).start();
    const clientCpuAtStart = process.cpuUsage();
    let maxStreaming = 0;
    const watch = setInterval(() => {
      processRedisConnections(system.redis, apiPid).then(
        (c) => (maxStreaming = Math.max(maxStreaming, c.count)),
        () => undefined,
      );
    }, 1_000);
    await system.pauseQueue(QUEUES.scrape, false);
    maxStreaming = Math.max(
      maxStreaming,
      (await processRedisConnections(system.redis, apiPid)).count,
    );
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.all(conns.map((c) => c.done));
    const finished = await Promise.race([
      all,
      new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 600_000))),
    ]);
    clearTimeout(timer);
    clearInterval(watch);
    clientLoop.disable();
    const loop = await system.loopDelay();
    const after = before === null ? null : await scrapeMetrics(system.api.baseUrl);
    const promLag = after === null ? null : metricValue(after, 'nodejs_eventloop_lag_p99_seconds');
    if (ctx.cpuProfile) await system.stopApiProfile(`fan-out-${clients}-clients-${Date.now()}`);
    const usages = sampler.stop();
    const clientCpuMs = cpuMsSince(clientCpuAtStart);
    const cpuMsOf = (name: string) =>
      usages.filter((u) => u.name === name).reduce((sum, u) => sum + u.cpuSeconds * 1000, 0);
    const usage = usages[0];
    if (finished === 'timeout') {
      const open = conns.filter(
        (c) => !c.messages.some((m) => m.event === 'complete' || m.event === 'error'),
      ).length;
      throw new BenchFailure(
        `${open} of ${clients} SSE clients did not get a terminal event within 600 s`,
      );
    }
    const broken = finished.filter((how) => how !== 'ended').length;
    if (broken > 0)
      throw new BenchFailure(
        `${broken} of ${clients} SSE streams broke before the server ended them`,
      );

    const references = new Map<string, Awaited<ReturnType<typeof openProgress>>>();
    for (const { user, auditId } of ids) {
      const replay = await openProgress(system.api, user, auditId, { agent });
      await replay.done;
      references.set(auditId, replay);
    }
    const latencies: number[] = [];
    let messages = 0;
    let replayed = 0;
    for (const [i, conn] of conns.entries()) {
      const { auditId } = plan[i]!;
      checkProgress(auditId, conn.messages, references.get(auditId)!.messages);
      messages += conn.messages.length;
      for (const m of conn.messages) {
        if (m.event !== 'step') continue;
        const { emittedAt } = ZStepEventData.parse(JSON.parse(m.data));
        if (emittedAt === undefined)
          throw new BenchFailure(`audit ${auditId}: a step message carries no emittedAt`);
        if (emittedAt < conn.connectedAt) replayed++;
        else latencies.push(m.receivedAt - emittedAt);
      }
    }
    const schedule = loadShape(
      ids.map(({ auditId }) => auditId),
      plan,
      conns,
      references,
    );
    if (latencies.length === 0)
      throw new BenchFailure('no live step message was received: nothing to measure');
    return {
      latencies,
      schedule,
      messages,
      replayed,
      loopDelayP99Ms: loop.p99,
      promLoopP99Ms: promLag === null ? null : promLag * 1000,
      promOpenStreams,
      clientLoopDelayP99Ms: clientLoop.percentile(99) / 1e6,
      apiPeakRssMb: usage!.peakRssMb,
      apiCpuMs: usage!.cpuSeconds * 1000,
      workersCpuMs: cpuMsOf('worker'),
      redisCpuMs: redisPid > 0 ? cpuMsOf('redis') : null,
      clientCpuMs,
      redisConnections,
      maxRedisConnectionsStreaming: maxStreaming,
    };
  } finally {
    agent.destroy();
    await system.pauseQueue(QUEUES.scrape, false).catch(() => undefined);
  }
}

/**
 * Benchmark 3 (docs/BENCHMARKS.md): `clients` concurrent SSE clients on one gateway process while
 * `audits` audits run (many clients per audit): relay latency p50/p95/p99 (the worker's
 * `emittedAt` -> the client's receipt), gateway event-loop delay p99 (measured inside the api
 * process by the preloaded probe), api RSS, and the gateway's Redis connections (its sockets to
 * Redis, named via CLIENT LIST) before clients, at each quarter of them and while streaming.
 * Baseline: the same with one client and one audit.
 */
export const sseFanOutBenchmark: TBenchmark = {
  name: 'sse',
  title: 'SSE fan-out: concurrent progress streams on one gateway',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const size = ctx.sizes.sse;
    const limit = openFilesLimit();
    if (limit !== null && limit < size.clients + 1_000) {
      throw new Error(
        `open files limit ${limit} is too low for ${size.clients} SSE clients: raise it to ${size.clients + 4_000} (ulimit -n; pnpm bench raises the soft limit to the hard one itself, so past the hard limit as root)`,
      );
    }
    const system = await ctx.system('sse', size.delayMs);
    await system.setStoreDelay(size.delayMs);
    const figures = new FiguresBuilder();
    const runsSeen: TFanOutRun[] = [];
    const floors: TSseFloor[] = [];
    const base: TFanOutRun[] = [];
    await system.ensureWorkers({
      scraper: { count: 1, env: NO_CACHE_ENV },
      analyzer: { count: 1 },
    });
    const users = await system.users(size.audits);
    for (let i = 0; i < size.baselineRuns; i++) {
      base.push(await fanOutRun(ctx, system, users, 1, 1));
      ctx.log(
        `sse: baseline run ${i + 1}/${size.baselineRuns}: p95 ${formatValue(percentile(base.at(-1)!.latencies, 95), 'ms')}`,
      );
    }
    for (let run = 0; run < size.runs; run++) {
      const r = await fanOutRun(ctx, system, users, size.audits, size.clients);
      runsSeen.push(r);
      ctx.log(
        `sse: run ${run + 1}/${size.runs}: ${r.latencies.length} live messages, p95 ${formatValue(percentile(r.latencies, 95), 'ms')}, ` +
          `p99 ${formatValue(percentile(r.latencies, 99), 'ms')}, gateway loop p99 ${formatValue(r.loopDelayP99Ms, 'ms')}, load generator loop p99 ${formatValue(r.clientLoopDelayP99Ms, 'ms')}`,
      );
      const f = await measureSseFloor(r.schedule);
      floors.push(f);
      ctx.log(
        `sse: transport floor ${run + 1}/${size.runs} (bare node:http server, the run's ${r.schedule.messages.length} messages to its ${size.clients} streams): ` +
          `p50 ${formatValue(percentile(f.latencies, 50), 'ms')}, p95 ${formatValue(percentile(f.latencies, 95), 'ms')}, ` +
          `load generator loop p99 ${formatValue(f.clientLoopDelayP99Ms, 'ms')}`,
      );
    }

    const n = size.clients;
    for (const r of runsSeen) {
      figures.add('p50', `relay latency p50, ${n} clients`, 'ms', percentile(r.latencies, 50));
      figures.add('p95', `relay latency p95, ${n} clients`, 'ms', percentile(r.latencies, 95));
      figures.add('p99', `relay latency p99, ${n} clients`, 'ms', percentile(r.latencies, 99));
      figures.add('loop', `gateway event-loop delay p99, ${n} clients`, 'ms', r.loopDelayP99Ms);
      figures.add('rss', `gateway peak RSS, ${n} clients`, 'MB', r.apiPeakRssMb);
      figures.add(
        'cpu',
        `gateway CPU from the resume to the last complete, ${n} clients`,
        'ms',
        r.apiCpuMs,
      );
      figures.add(
        'cpu.workers',
        "the workers' CPU over the same window (scraper, analyzer)",
        'ms',
        r.workersCpuMs,
      );
      if (r.redisCpuMs !== null)
        figures.add('cpu.redis', "the Redis server's CPU over the same window", 'ms', r.redisCpuMs);
      figures.add(
        'cpu.client',
        "the load generator's CPU over the same window",
        'ms',
        r.clientCpuMs,
      );
      figures.add(
        'redis',
        `gateway Redis connections with ${n} clients (most seen while streaming)`,
        'count',
        Math.max(r.maxRedisConnectionsStreaming, ...r.redisConnections.map((c) => c.count)),
      );
      figures.add('messages', `messages delivered (all clients)`, 'count', r.messages);
      figures.add('live', `live step messages measured (all clients)`, 'count', r.latencies.length);
      if (r.promLoopP99Ms !== null)
        figures.add(
          'promloop',
          `gateway event-loop lag p99 as its /metrics reports it (prom-client), ${n} clients`,
          'ms',
          r.promLoopP99Ms,
        );
      if (r.promOpenStreams !== null)
        figures.add(
          'promopen',
          "open SSE streams as the gateway's /metrics reports them, all clients connected",
          'count',
          r.promOpenStreams,
        );
      figures.add(
        'clientloop',
        `load generator's own event-loop delay p99 (part of the measured latency)`,
        'ms',
        r.clientLoopDelayP99Ms,
      );
    }
    for (const [run, f] of floors.entries()) {
      for (const q of [50, 95, 99])
        figures.add(
          `floor.p${q}`,
          `transport floor: receipt p${q}, a bare node:http server writing the run's messages to its ${n} streams at their moments`,
          'ms',
          percentile(f.latencies, q),
        );
      figures.add(
        'floor.ratio',
        'relay latency p95 / transport floor p95 of the same run',
        'x',
        percentile(runsSeen[run]!.latencies, 95) / percentile(f.latencies, 95),
      );
      figures.add(
        'floor.cpu',
        "transport floor: its server's CPU writing the run's messages",
        'ms',
        f.serverCpuMs,
      );
      figures.add(
        'floor.clientcpu',
        "transport floor: the load generator's CPU while the run's messages arrived",
        'ms',
        f.clientCpuMs,
      );
      figures.add(
        'floor.messages',
        "transport floor: step messages received (the run's live steps, on every stream of their audit)",
        'count',
        f.latencies.length,
      );
      figures.add(
        'floor.clientloop',
        "transport floor: the load generator's own event-loop delay p99",
        'ms',
        f.clientLoopDelayP99Ms,
      );
    }
    figures.baseline(
      'p50',
      'one client, one audit',
      base.map((r) => percentile(r.latencies, 50)),
    );
    figures.baseline(
      'p95',
      'one client, one audit',
      base.map((r) => percentile(r.latencies, 95)),
    );
    figures.baseline(
      'p99',
      'one client, one audit',
      base.map((r) => percentile(r.latencies, 99)),
    );
    figures.baseline(
      'loop',
      'one client, one audit',
      base.map((r) => r.loopDelayP99Ms),
    );
    figures.baseline(
      'rss',
      'one client, one audit',
      base.map((r) => r.apiPeakRssMb),
    );
    figures.baseline(
      'redis',
      'the same gateway before any client connected',
      runsSeen.map((r) => r.redisConnections[0]!.count),
    );
    if (floors.length)
      figures.baseline(
        'cpu',
        "the transport floor's server writing the same messages",
        floors.map((f) => f.serverCpuMs),
      );
    figures.baseline(
      'clientloop',
      'one client, one audit',
      base.map((r) => r.clientLoopDelayP99Ms),
    );
    if (runsSeen.some((r) => r.promLoopP99Ms !== null)) {
      figures.baseline(
        'promloop',
        'one client, one audit',
        base.flatMap((r) => (r.promLoopP99Ms === null ? [] : [r.promLoopP99Ms])),
      );
    }

    const growth = runsSeen.map((r) => ({
      points: r.redisConnections.map((c) => `${c.at} clients: ${c.count}`).join(', '),
      streaming: r.maxRedisConnectionsStreaming,
      constant:
        new Set([...r.redisConnections.map((c) => c.count), r.maxRedisConnectionsStreaming])
          .size === 1,
      names: r.redisConnections.at(-1)!.names,
    }));
    const targets: TTargetCheck[] = [];
    const shape = `${n.toLocaleString('en-US')} clients over ${size.audits} audits`;
    if (runsSeen.length && n >= SSE_TARGET_MIN_CLIENTS) {
      const p95 = median(figures.samples('p95'));
      const constant = growth.every((g) => g.constant);
      targets.push({
        target: `SSE p95 under ${SSE_P95_TARGET_MS} ms with ${shape} and a constant number of Redis connections`,
        measured:
          `p95 ${formatValue(p95, 'ms')} (median over runs; worst run ${formatValue(figures.p95('p95'), 'ms')}); Redis connections of the gateway ` +
          (constant
            ? `constant at ${growth[0]!.streaming} in every run (${growth[0]!.names.join(', ')}) from 0 to ${n} clients and while streaming`
            : `NOT constant: ${growth.map((g) => `${g.points}; while streaming at most ${g.streaming}`).join(' / ')}`) +
          (floors.length
            ? `; transport floor of this machine (a bare node:http server writing the same messages to the same streams at the same moments, same load generator): p95 ${formatValue(median(figures.samples('floor.p95')), 'ms')}`
            : ''),
        met: p95 < SSE_P95_TARGET_MS && constant,
      });
    }
    if (floors.length && n >= SSE_FLOOR_MIN_CLIENTS) {
      const ratio = median(figures.samples('floor.ratio'));
      targets.push({
        target: `SSE relay p95 with ${shape} at most ${SSE_FLOOR_RATIO_TARGET}x the transport floor of the same run (a bare node:http server writing the run's messages to the same streams at the same moments)`,
        measured: `${formatValue(ratio, 'x')} (median over runs of each run's ratio; relay p95 ${formatValue(median(figures.samples('p95')), 'ms')}, floor p95 ${formatValue(median(figures.samples('floor.p95')), 'ms')})`,
        met: ratio <= SSE_FLOOR_RATIO_TARGET,
      });
    }
    const last = runsSeen.at(-1);
    return {
      name: 'sse',
      title: this.title,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      runs: size.runs,
      setup: [
        `${n} SSE clients (plain node:http, one keep-alive agent, bearer header) spread round robin over ${size.audits} audits of the 4 recorded apps, each audit owned by its own user; all clients in this one load-generator process.`,
        `The audits are queued while the scrape queue is paused (BullMQ pause); once every client is connected it is resumed (1 scraper, 1 analyzer at their default WORKER_NICENESS ${DEFAULT_WORKER_NICENESS} as \`pnpm start\` runs them, store delay ${size.delayMs} ms, cache off), so the events are live. Latency counts live step messages only (emittedAt at or after the client connected).`,
        "Every client's messages are checked against a replay of its audit read afterwards: same ids, same payloads, same order; any difference fails the benchmark.",
        'Gateway event-loop delay: monitorEventLoopDelay inside the api process (preloaded probe, 10 ms resolution), window = from all clients connected to the last complete.',
        "Redis connections of the gateway: the api process's TCP sockets to Redis (/proc), named through CLIENT LIST.",
        `Transport floor, after each run: the same ${n} streams of the same client, grouped as the run's audits, on a bare node:http server in its own process (no framework, no bus, no audits, no workers: bench/src/harness/sse-floor.server.ts), which writes the run's live messages (each audit's steps at the moments the workers emitted them, each as large as in the run, the terminal complete with the last step) to the streams of their audit, the messages of one audit that are due together in one write; latency = the moment a message was due to the chunk's receipt, as above. It is the cost of the socket writes, loopback TCP and the reads of the same load on this machine.`,
      ],
      figures: figures.build(),
      tables: last
        ? [
            {
              title: 'Redis connections of the gateway as clients connect (last run)',
              columns: ['Clients connected', 'Connections', 'Names (CLIENT LIST)'],
              rows: [
                ...last.redisConnections.map((c) => [
                  String(c.at),
                  String(c.count),
                  c.names.join(', '),
                ]),
                ['(streaming, most seen)', String(last.maxRedisConnectionsStreaming), ''],
              ],
            },
          ]
        : [],
      targets,
      findings: last
        ? [
            `Last run: ${last.messages} messages delivered, ${last.latencies.length} live step messages measured, ${last.replayed} replayed (emitted before their client connected).`,
          ]
        : [],
    };
  },
};
