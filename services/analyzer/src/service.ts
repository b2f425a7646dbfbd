import { FlowProducer, Queue, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { createDb, deferWhileDatabaseDown, type Db } from '@aso/db';
import {
  closeQuietly,
  createRedis,
  createTypedWorker,
  JOBS,
  ProgressBus,
  runWorkerService,
  type WorkerService,
} from '@aso/queue';
import { selectProvider, type TWorkerEnv } from './env';
import { createAnalysisHandler } from './analysis.handler';
import { createFailureHandler } from './audit-failure.hook';
import { createStaleAuditSweep } from './stale-audit.sweep';
import { createAuditRecovery } from './audit-recovery';
import { heuristicProvider } from './providers/heuristic.provider';
import type { TAnalysisProvider } from './providers/provider.types';

/** What the analyzer's handlers use. */
export interface WorkerDeps {
  env: TWorkerEnv;
  db: Db;
  /** Command connection (progress appends, terminal-event guards, failed children's reasons). */
  redis: Redis;
  bus: ProgressBus;
  log: Logger;
  /** The configured provider, created on first use (the openai package loads lazily). */
  provider: () => Promise<TAnalysisProvider>;
  /** The running worker (for its rate limiter). */
  worker: () => Worker;
}

/** Returns a memoised factory of the provider `env` selects (see `selectProvider`). */
export function providerFactory(env: TWorkerEnv): () => Promise<TAnalysisProvider> {
  const name = selectProvider(env);
  let made: Promise<TAnalysisProvider> | null = null;
  return () =>
    (made ??=
      name === 'heuristic'
        ? Promise.resolve(heuristicProvider)
        : import('./providers/openai.provider').then(({ createOpenAiProvider }) =>
            createOpenAiProvider({
              apiKey: env.OPENAI_API_KEY!,
              baseURL: env.OPENAI_BASE_URL,
              model: env.OPENAI_MODEL,
              visionModel: env.OPENAI_VISION_MODEL,
              timeoutMs: env.OPENAI_TIMEOUT_MS,
              maxScreenshots: env.OPENAI_MAX_SCREENSHOTS,
              rateLimitPauseMs: env.OPENAI_RATE_LIMIT_PAUSE_MS,
            }),
          ));
}

/**
 * Starts the analyzer worker on the `analysis` queue with `env.CONCURRENCY` jobs at once, the
 * configured lock duration and stall interval, and the failure hook that ends failed audits.
 * `handleSignals: false` lets tests close it themselves.
 */
export async function startAnalyzer(
  env: TWorkerEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<WorkerService> {
  const log = opts.log ?? pino({ name: 'analyzer', level: env.LOG_LEVEL });
  const provider = providerFactory(env);
  const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2, log });
  const redis = createRedis(env.REDIS_URL, { role: 'worker', name: 'analyzer:commands' });
  const bus = new ProgressBus(redis, { prefix: env.QUEUE_PREFIX });
  let worker: Worker | null = null;
  const deps: WorkerDeps = {
    env,
    db,
    redis,
    bus,
    log,
    provider,
    worker: () => {
      if (!worker) throw new Error('analyzer worker not started');
      return worker;
    },
  };
  log.info({ provider: selectProvider(env) }, 'analysis provider');
  const workerConnection = createRedis(env.REDIS_URL, { role: 'worker', name: 'analyzer:worker' });
  worker = createTypedWorker(
    'analysis',
    { analysis: createAnalysisHandler(deps) },
    {
      connection: workerConnection,
      prefix: env.QUEUE_PREFIX,
      concurrency: env.CONCURRENCY,
      lockDuration: env.LOCK_DURATION_MS,
      stalledInterval: env.STALLED_INTERVAL_MS,
      deferOn: deferWhileDatabaseDown(log),
      limiter: { max: env.ANALYSIS_RATE_LIMIT_MAX, duration: env.ANALYSIS_RATE_LIMIT_DURATION_MS },
    },
  );
  const onFailed = createFailureHandler(deps);
  const pending = new Set<Promise<void>>();
  worker.on('failed', (job, err) => {
    const p = onFailed(job, err)
      .catch((e: unknown) =>
        log.error({ err: e, jobId: job?.id }, 'could not record the failed audit'),
      )
      .finally(() => pending.delete(p));
    pending.add(p);
  });
  // Audits whose job ended without the failure hook (the process died in between).
  const analysisQueue = new Queue(JOBS.analysis.queue, {
    connection: redis,
    prefix: env.QUEUE_PREFIX,
  });
  const sweep = createStaleAuditSweep(deps, analysisQueue, env.STALE_AUDIT_AFTER_MS);
  let sweeping: Promise<unknown> | null = null;
  const sweepTimer = setInterval(() => {
    sweeping ??= sweep()
      .catch((e: unknown) => log.error({ err: e }, 'the sweep of stale audits failed'))
      .finally(() => (sweeping = null));
  }, env.STALE_AUDIT_SWEEP_EVERY_MS);
  sweepTimer.unref();
  // Audits whose jobs a Redis restart lost: queued again on every reconnect and periodically.
  const flows = new FlowProducer({ connection: redis, prefix: env.QUEUE_PREFIX });
  flows.on('error', (err) => log.debug({ err }, 'flow producer error'));
  const recover = createAuditRecovery(deps, flows, analysisQueue, {
    minAgeMs: env.AUDIT_RECOVERY_MIN_AGE_MS,
    maxAgeMs: env.STALE_AUDIT_AFTER_MS,
  });
  let recovering: Promise<unknown> | null = null;
  const runRecovery = () => {
    recovering ??= recover()
      .catch((e: unknown) => log.warn({ err: e }, 'the recovery of lost audit jobs failed'))
      .finally(() => (recovering = null));
  };
  const recoveryTimer = setInterval(runRecovery, env.AUDIT_RECOVERY_EVERY_MS);
  recoveryTimer.unref();
  redis.on('ready', runRecovery);
  return runWorkerService({
    name: 'analyzer',
    log,
    redis,
    workers: [worker],
    healthPort: env.HEALTH_PORT,
    handleSignals: opts.handleSignals,
    onClose: async () => {
      clearInterval(sweepTimer);
      clearInterval(recoveryTimer);
      redis.off('ready', runRecovery);
      await Promise.all([sweeping, recovering]);
      await closeQuietly(flows);
      await closeQuietly(analysisQueue);
      await Promise.allSettled([...pending]);
      // BullMQ does not close connections it was given.
      workerConnection.disconnect();
      redis.disconnect();
      await db.destroy();
    },
  });
}
