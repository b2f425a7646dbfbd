import { createServer, type Server } from 'node:http';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { checkEvictionPolicy } from './redis';

/** Logger shape used by the runtime (pino satisfies it). */
export interface RuntimeLogger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

/** Options of {@link runWorkerService}. */
export interface WorkerServiceOptions {
  /** Service name for logs, e.g. `scraper`. */
  name: string;
  log: RuntimeLogger;
  /** A command connection used for the start-up checks. */
  redis: Redis;
  /** The service's workers, already created. */
  workers: Worker[];
  /** Port of the health endpoint (`GET /healthz`, plus `extraRoutes`); 0 picks a free one; null disables. */
  healthPort: number | null;
  /** Extra GET routes on the health server (e.g. `/metrics`), path -> [content type, body]. */
  extraRoutes?: Record<string, () => Promise<[string, string]>>;
  /** Called after the workers closed (close pools and connections here). */
  onClose?: () => Promise<void>;
  /** How long in-flight jobs may take to finish on shutdown (ms). Default 25 000. */
  shutdownTimeoutMs?: number;
  /** Install SIGTERM/SIGINT handlers (default true; tests drive `close()` directly). */
  handleSignals?: boolean;
}

/** A running worker service. */
export interface WorkerService {
  /** Port of the health server, when it runs. */
  healthPort: number | null;
  /**
   * Stops taking jobs, waits for in-flight ones to finish (up to the timeout; past it the jobs
   * stay locked and BullMQ's stall check hands them to another worker: released, never lost),
   * then closes connections.
   */
  close(): Promise<void>;
}

/**
 * Runs workers as a service (issue: foundation point 6): logs the queues served and their
 * concurrency, checks Redis' eviction policy, serves `/healthz`, and closes cleanly on
 * SIGTERM/SIGINT.
 */
export async function runWorkerService(opts: WorkerServiceOptions): Promise<WorkerService> {
  const { log, workers } = opts;
  for (const w of workers) {
    w.on('failed', (job, err) =>
      log.warn({ queue: w.name, jobId: job?.id, auditId: (job?.data as { auditId?: string } | undefined)?.auditId, err: err.message }, 'job failed'),
    );
    w.on('error', (err) => log.error({ queue: w.name, err }, 'worker error'));
  }
  log.info(
    { service: opts.name, queues: workers.map((w) => ({ queue: w.name, concurrency: w.concurrency })) },
    `${opts.name} serving ${workers.map((w) => `${w.name} (concurrency ${w.concurrency})`).join(', ')}`,
  );
  void checkEvictionPolicy(opts.redis, log);

  let server: Server | null = null;
  let port: number | null = null;
  if (opts.healthPort !== null) {
    const routes = opts.extraRoutes ?? {};
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
      const timeout = opts.shutdownTimeoutMs ?? 25_000;
      const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), timeout).unref());
      const done = Promise.all(workers.map((w) => w.close())).then(() => 'closed' as const);
      if ((await Promise.race([done, timer])) === 'timeout') {
        log.warn({ timeoutMs: timeout }, 'in-flight jobs did not finish in time; they will be retried after the stall interval');
        // Drop the connections: lock renewal stops, so once the lock expires BullMQ's stall
        // check hands the job to another worker.
        await Promise.all(workers.map((w) => w.disconnect()));
      }
      await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
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
  return { healthPort: port, close };
}
