import { StoreError } from '@aso/appstore/node';
import {
  claimDueTargets,
  findWatchTarget,
  isDatabaseUnavailableError,
  recordTargetRead,
} from '@aso/db';
import { RateLimitError, UnrecoverableError, watchReadJobId, type TJobHandler } from '@aso/queue';
import { planFailure, snapshotDecision, validateScrapeTarget } from './scrape.policy';
import { storeSnapshot } from './snapshot.recorder';
import { recordStoreRead, storeReadOfFailure, storeReadOfResult } from './store-read.recorder';
import { readStore } from './store.reader';
import { requeueStrandedDeliveries } from './webhook.handler';
import type { TWorkerDeps } from './worker.deps';

/**
 * When a target is next due after a read (epoch ms): `WATCH_INTERVAL` seconds from `now`,
 * spread uniformly over `WATCH_JITTER` of it (0.1: 95 % to 105 %).
 */
export function nextCheckAt(
  env: Pick<TWorkerDeps['env'], 'WATCH_INTERVAL' | 'WATCH_JITTER'>,
  now: number,
  random = Math.random(),
): Date {
  const intervalMs = env.WATCH_INTERVAL * 1000;
  return new Date(now + intervalMs * (1 - env.WATCH_JITTER / 2 + env.WATCH_JITTER * random));
}

/** A read whose listing could not be stored (a source failed): retried, then shown. */
class PartialReadError extends Error {}

/**
 * Builds the `watch-read` handler: reads watched target `targetId` from the store (always: a
 * watched listing's read never reuses the snapshot cache), records the read for the drift
 * alarm, stores the snapshot with its changes, notifications and webhook deliveries
 * (`storeSnapshot`), and records on the target when it was read and when it is next due
 * ({@link nextCheckAt}). A target nobody watches any more is skipped.
 *
 * Failures follow the audits' scrape policy (`planFailure`): an unknown app or bad URL fails
 * at once; a store 429 pauses the whole `scrape` queue (BullMQ's manual rate limit, no attempt
 * used); anything else, a read whose sources did not all answer included, is retried with the
 * catalog's backoff. A read that failed for good is shown on the item (`lastError`) and the
 * target is due again after the interval.
 *
 * Returns `{ snapshotId, changes }` (the changed fields) or `{ skipped }`.
 */
export function createWatchReadHandler(deps: TWorkerDeps): TJobHandler<'watch-read'> {
  return async (data, job, signal) => {
    const target = await findWatchTarget(deps.db, data.targetId);
    if (!target) return { skipped: 'not watched' };
    const log = deps.log.child({ targetId: target.id, appId: target.app_id, jobId: job.id });
    const key = { appId: target.app_id, storefront: target.storefront };
    try {
      const scrapeTarget = validateScrapeTarget({ ...key, appStoreUrl: target.app_store_url });
      const result = await readStore(deps.env, scrapeTarget, signal);
      await recordStoreRead(deps, storeReadOfResult(result), (err) =>
        log.warn({ err }, 'could not record the store read'),
      );
      const decision = snapshotDecision(result.sources);
      if (!decision.store)
        throw new PartialReadError(`The store read was incomplete (${decision.reason})`);
      const stored = await storeSnapshot(deps, result.listing, target.language);
      await recordTargetRead(deps.db, target.id, {
        error: null,
        nextCheckAt: nextCheckAt(deps.env, Date.now()),
        appName: stored.snapshot.app_name,
        iconUrl: result.listing.iconUrl === '' ? null : result.listing.iconUrl,
      });
      log.info(
        { changes: stored.changes.map((c) => c.field), refresh: data.refresh === true },
        'watched listing read',
      );
      return { snapshotId: stored.snapshot.id, changes: stored.changes.map((c) => c.field) };
    } catch (error) {
      // Shutting down, or PostgreSQL unreachable: thrown as it is, so the worker hands the job
      // on or puts it back (`deferOn`) without using an attempt.
      if (signal.aborted || isDatabaseUnavailableError(error)) throw error;
      const plan =
        error instanceof PartialReadError
          ? { action: 'retry' as const, message: error.message, final: false }
          : planFailure(error, {
              ...key,
              attemptsMade: job.attemptsMade,
              attempts: job.opts.attempts ?? 1,
              queuedAt: job.timestamp,
              now: Date.now(),
              maxRateLimitWaitMs: deps.env.STORE_RATE_LIMIT_MAX_WAIT_MS,
            });
      if (plan.action === 'rate_limit') {
        log.warn({ pauseMs: plan.pauseMs }, 'store rate limit: pausing the scrape queue');
        await deps.worker().rateLimit(plan.pauseMs);
        throw new RateLimitError();
      }
      const final = plan.action === 'fail' || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (final) {
        if (error instanceof StoreError) {
          await recordStoreRead(deps, storeReadOfFailure(error, key), (err) =>
            log.warn({ err }, 'could not record the store read'),
          );
        }
        await recordTargetRead(deps.db, target.id, {
          error: plan.message,
          nextCheckAt: nextCheckAt(deps.env, Date.now()),
        });
      }
      log.warn({ err: error, final, reason: plan.message }, 'watched listing read failed');
      if (plan.action === 'fail') throw new UnrecoverableError(plan.message);
      throw new Error(plan.message, { cause: error });
    }
  };
}

/** How long a claimed target waits for its queued read before a round claims it again (s). */
const CLAIM_LEASE_S = 3_600;

/**
 * Builds the `watch-round` handler, run by the job scheduler every `WATCH_ROUND_EVERY_MS`:
 * claims the watched targets that are due (at most `WATCH_ROUND_MAX`; see `claimDueTargets`)
 * and queues one `watch-read` per target (one however many users watch it), whose job id is
 * the target and its due time, so a read is never queued twice. The reads run under the
 * `scrape` queue's rate limit, after audits' scrapes. It also queues again the webhook
 * deliveries whose job was lost ({@link requeueStrandedDeliveries}). Returns
 * `{ queued, requeuedDeliveries }`.
 */
export function createWatchRoundHandler(deps: TWorkerDeps): TJobHandler<'watch-round'> {
  return async () => {
    const due = await claimDueTargets(deps.db, deps.env.WATCH_ROUND_MAX, CLAIM_LEASE_S);
    await deps.producers.addMany(
      'watch-read',
      due.map((t) => ({
        data: { targetId: t.id },
        opts: { jobId: watchReadJobId(t.id, String(t.dueAt.getTime())) },
      })),
    );
    if (due.length > 0) deps.log.info({ queued: due.length }, 'watch round queued reads');
    const requeuedDeliveries = await requeueStrandedDeliveries(deps);
    return { queued: due.length, requeuedDeliveries };
  };
}
