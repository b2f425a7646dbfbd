import type { Logger } from 'pino';
import { createDb, deferWhileDatabaseDown } from '@aso/db';
import { ProgressBus, startWorkerService, type Worker, type TWorkerService } from '@aso/queue';
import { selectProvider, type TWorkerEnv } from './env';
import { createAnalysisHandler } from './analysis.handler';
import { createFailureHandler } from './audit-failure.hook';
import { createStaleAuditSweep } from './stale-audit.sweep';
import { createAuditRecovery } from './audit-recovery';
import { heuristicProvider } from './providers/heuristic.provider';
import type { TAnalysisProvider } from './providers/provider.types';
import type { TWorkerDeps } from './worker.deps';

/** Returns a memoised factory of the provider `env` selects (see `selectProvider`). */
export function providerFactory(env: TWorkerEnv, log: Logger): () => Promise<TAnalysisProvider> {
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
              maxRetries: env.OPENAI_MAX_RETRIES,
              maxScreenshots: env.OPENAI_MAX_SCREENSHOTS,
              responseFormat: env.OPENAI_RESPONSE_FORMAT,
              maxOutputTokens: env.OPENAI_MAX_OUTPUT_TOKENS,
              onModelFailure: (err) =>
                log.warn(
                  { schema: err.schema, kind: err.kind, detail: err.detail },
                  'model call failed: the rules text is used',
                ),
            }),
          ));
}

/**
 * Starts the analyzer worker on the `analysis` queue with `env.CONCURRENCY` jobs at once, the
 * configured lock duration and stall interval, the failure hook that ends failed audits, and
 * the periodic sweep of audits whose job ended without it.
 * `handleSignals: false` lets tests close it themselves.
 */
export async function startAnalyzer(
  env: TWorkerEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<TWorkerService> {
  return startWorkerService('analyzer', env, opts, (ctx) => {
    const { log } = ctx;
    const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2, log });
    let worker: Worker | null = null;
    const deps: TWorkerDeps = {
      env,
      db,
      redis: ctx.redis,
      bus: new ProgressBus(ctx.redis, { prefix: env.QUEUE_PREFIX }),
      log,
      provider: providerFactory(env, log),
      worker: () => {
        if (!worker) throw new Error('analyzer worker not started');
        return worker;
      },
    };
    log.info({ provider: selectProvider(env) }, 'analysis provider');
    worker = ctx.worker(
      'analysis',
      { analysis: createAnalysisHandler(deps) },
      {
        deferOn: deferWhileDatabaseDown(log),
        limiter: {
          max: env.ANALYSIS_RATE_LIMIT_MAX,
          duration: env.ANALYSIS_RATE_LIMIT_DURATION_MS,
        },
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
    const sweep = createStaleAuditSweep(
      deps,
      ctx.producers.queue('analysis'),
      env.STALE_AUDIT_AFTER_MS,
    );
    let sweeping: Promise<unknown> | null = null;
    const sweepTimer = setInterval(() => {
      sweeping ??= sweep()
        .catch((e: unknown) => log.error({ err: e }, 'the sweep of stale audits failed'))
        .finally(() => (sweeping = null));
    }, env.STALE_AUDIT_SWEEP_EVERY_MS);
    sweepTimer.unref();
    // Audits whose jobs a Redis restart lost: queued again on every reconnect and periodically.
    const recover = createAuditRecovery(deps, ctx.producers, {
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
    ctx.redis.on('ready', runRecovery);
    return {
      onClose: async () => {
        clearInterval(sweepTimer);
        clearInterval(recoveryTimer);
        ctx.redis.off('ready', runRecovery);
        await Promise.all([sweeping, recovering]);
        await Promise.allSettled([...pending]);
        await db.destroy();
      },
    };
  });
}
