import { createServer, type Server } from 'node:http';
import { Queue, type Job, type Worker } from 'bullmq';
import { checkEvictionPolicy, type TRedisClient } from './redis';
import { closeQuietly } from './producer';
import { jobBindings, jobLogger } from './job-logger';
import { createServiceMetrics, type TServiceMetrics } from './metrics';

/**
 * How long a worker gives the jobs it holds to finish on SIGTERM before it closes anyway (ms).
 * A Deployment's termination grace period must be longer (deploy/kubernetes).
 */
export const SHUTDOWN_TIMEOUT_MS = 25_000;

/** Logger shape used by the runtime (pino satisfies it). */
export interface TRuntimeLogger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  debug?(obj: object | string, msg?: string): void;
  /** When present (pino), job events are logged through a child logger per job. */
  child?(bindings: Record<string, unknown>): TRuntimeLogger;
}

/**
 * The logger of one job's events: {@link jobLogger} when `log` makes children (pino), else
 * `log` with the job's bindings merged into each line.
 */
function forJob(log: TRuntimeLogger, job: Job): TRuntimeLogger {
  if (log.child) return jobLogger({ child: log.child.bind(log) }, job);
  const b = jobBindings(job);
  const merge = (obj: object | string): object =>
    typeof obj === 'string' ? { ...b, msg: obj } : { ...b, ...obj };
  return {
    info: (obj, msg) => log.info(merge(obj), msg),
    warn: (obj, msg) => log.warn(merge(obj), msg),
    error: (obj, msg) => log.error(merge(obj), msg),
  };
}

/** Options of {@link runWorkerService}. */
export interface TWorkerServiceOptions {
  /** Service name for logs, e.g. `scraper`. */
  name: string;
  log: TRuntimeLogger;
  /** A command connection used for the start-up checks. */
  redis: TRedisClient;
  /** The service's workers, already created. */
  workers: Worker[];
  /** Port of the health endpoint (`GET /healthz`, plus `extraRoutes`); 0 picks a free one; null disables. */
  healthPort: number | null;
  /** Extra GET routes on the health server, path -> [content type, body]. */
  extraRoutes?: Record<string, () => Promise<[string, string]>>;
  /**
   * Metrics served at `GET /metrics` of the health server (Prometheus text format). Default: a
   * new registry labelled with `name` that counts the workers' jobs and reports their queues'
   * depth (see `createServiceMetrics`); pass one to add the service's own metrics; `false`
   * serves none. An `extraRoutes['/metrics']` takes precedence.
   */
  metrics?: TServiceMetrics | false;
  /** Called after the workers closed (close pools and connections here). */
  onClose?: () => Promise<void>;
  /** How long in-flight jobs may take to finish on shutdown (ms). Default {@link SHUTDOWN_TIMEOUT_MS}. */
  shutdownTimeoutMs?: number;
  /** Install SIGTERM/SIGINT handlers (default true; tests drive `close()` directly). */
  handleSignals?: boolean;
}

/** A running worker service. */
export interface TWorkerService {
  /** Port of the health server, when it runs. */
  healthPort: number | null;
  /** The metrics served at `/metrics` (null or absent when disabled). */
  metrics?: TServiceMetrics | null;
  /**
   * Stops taking jobs, waits for in-flight ones to finish (up to the timeout; past it the jobs
   * stay locked and BullMQ's stall check hands them to another worker: released, never lost),
   * then closes connections.
   */
  close(): Promise<void>;
}

/**
 * Runs workers as a service: logs the queues served and their
 * concurrency, checks Redis' eviction policy, serves `/healthz` and `/metrics` (docs/OPERATIONS.md),
 * logs each job's start, completion and failure with the job's ids and the audit or
 * upload it belongs to (docs/OPERATIONS.md), and closes cleanly on SIGTERM/SIGINT.
 */
export async function runWorkerService(opts: TWorkerServiceOptions): Promise<TWorkerService> {
  const { log, workers } = opts;
  for (const w of workers) {
    w.on('active', (job) => forJob(log, job).debug?.({}, 'job started'));
    w.on('completed', (job) => {
      const durationMs =
        job.processedOn && job.finishedOn ? job.finishedOn - job.processedOn : undefined;
      forJob(log, job).info({ durationMs }, 'job completed');
    });
    w.on('failed', (job, err) =>
      job
        ? forJob(log, job).warn({ err: err.message }, 'job failed')
        : log.warn({ queue: w.name, err: err.message }, 'job failed'),
    );
    w.on('stalled', (jobId) =>
      log.warn(
        { queue: w.name, jobId },
        'job stalled: its worker stopped renewing the lock; it runs again',
      ),
    );
    w.on('error', (err) => log.error({ queue: w.name, err }, 'worker error'));
  }

  // Queue handles for the depth gauges, on the service's command connection; closed with it.
  const depthQueues: Queue[] = [];
  let metrics: TServiceMetrics | null = null;
  if (opts.metrics !== false) {
    metrics = opts.metrics ?? createServiceMetrics({ service: opts.name });
    const prefixes = new Map<string, string>();
    for (const w of workers) {
      metrics.observeWorker(w);
      const prefix = w.opts.prefix ?? 'bull';
      if (prefixes.get(w.name) === prefix) continue;
      prefixes.set(w.name, prefix);
      const q = new Queue(w.name, { connection: opts.redis, prefix });
      q.on('error', () => undefined);
      depthQueues.push(q);
      // Skipped while Redis is down: this connection would hold the reads until it is back.
      metrics.watchQueue(q, () => !['reconnecting', 'close', 'end'].includes(opts.redis.status));
    }
  }
  log.info(
    {
      service: opts.name,
      queues: workers.map((w) => ({ queue: w.name, concurrency: w.concurrency })),
    },
    `${opts.name} serving ${workers.map((w) => `${w.name} (concurrency ${w.concurrency})`).join(', ')}`,
  );
  void checkEvictionPolicy(opts.redis, log);

  let server: Server | null = null;
  let port: number | null = null;
  if (opts.healthPort !== null) {
    const routes: Record<string, () => Promise<[string, string]>> = {
      ...(metrics ? { '/metrics': () => metrics.render() } : {}),
      ...opts.extraRoutes,
    };
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (req.method === 'GET' && path === '/healthz') {
        const running = workers.every((w) => w.isRunning());
        res.writeHead(running ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: running ? 'ok' : 'closing', service: opts.name }));
        return;
      }
      const route = req.method === 'GET' ? routes[path] : undefined;
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      route().then(
        ([type, body]) => res.writeHead(200, { 'content-type': type }).end(body),
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => server!.listen(opts.healthPort!, resolve));
    const addr = server.address();
    port = typeof addr === 'object' && addr ? addr.port : null;
    log.info({ port }, 'health endpoint listening');
  }

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      log.info({ service: opts.name }, 'closing: finishing in-flight jobs');
      const timeout = opts.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS;
      const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), timeout).unref());
      // A worker closed while it still reads the server version would leave that read to
      // reject with no listener once the connection is dropped (see closeQuietly).
      const opened = (w: Worker) =>
        Promise.race([
          w.waitUntilReady().catch(() => undefined),
          new Promise((r) => setTimeout(r, 2_000).unref()),
        ]);
      const done = Promise.all(workers.map((w) => opened(w).then(() => w.close()))).then(
        () => 'closed' as const,
      );
      if ((await Promise.race([done, timer])) === 'timeout') {
        log.warn(
          { timeoutMs: timeout },
          'in-flight jobs did not finish in time; they will be retried after the stall interval',
        );
        // Drop the connections: lock renewal stops, so once the lock expires BullMQ's stall
        // check hands the job to another worker.
        await Promise.all(workers.map((w) => w.disconnect()));
      }
      await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
      // Shares the caller's connection: closing only drops BullMQ's listeners on it.
      await Promise.all(depthQueues.map((q) => closeQuietly(q)));
      await opts.onClose?.();
      log.info({ service: opts.name }, 'closed');
    })());

  if (opts.handleSignals !== false) {
    const onSignal = (signal: string) => {
      log.info({ signal }, 'signal received');
      close().then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, 'error while closing');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    process.once('SIGINT', () => onSignal('SIGINT'));
  }
  return { healthPort: port, metrics, close };
}
