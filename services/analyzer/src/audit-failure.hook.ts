import type { Job } from '@aso/queue';
import { failAudit, findAudit } from '@aso/db';
import type { TWorkerDeps } from './worker.deps';
import { appendTerminalOnce } from './analysis.steps';

/**
 * Message shown when nothing more precise can be said (docs/product.md#error-catalogue, 'Analysis
 * Failed').
 */
export const GENERIC_FAILURE = 'Failed to analyze app. Please try again.';

const CHILD_FAILED = /^child (\S+) failed$/;

/** True when BullMQ will not run the job again after this failure. */
export function isFinalFailure(job: Pick<Job, 'attemptsMade' | 'opts'>, err: Error): boolean {
  return (
    err.name === 'UnrecoverableError' ||
    err.name === 'AnalysisFailure' ||
    CHILD_FAILED.test(err.message) ||
    job.attemptsMade >= (job.opts.attempts ?? 1)
  );
}

/**
 * The user-facing message of a failed analysis job: for a failed `scrape` child (BullMQ's
 * deferred failure 'child <key> failed'), that child's own failure reason (e.g. 'App not found
 * in the US App Store'), prefixed with the app id for a competitor; for an `AnalysisFailure`,
 * its message; otherwise the generic 'Failed to analyze app. Please try again.'.
 */
export async function failureMessage(
  deps: Pick<TWorkerDeps, 'redis'>,
  err: Error,
): Promise<string> {
  const child = CHILD_FAILED.exec(err.message);
  if (child) {
    const [reason, data] = await deps.redis.hmget(child[1]!, 'failedReason', 'data');
    let role = 'main';
    let appId = '';
    try {
      const parsed = JSON.parse(data ?? '{}') as { role?: string; appId?: string };
      role = parsed.role ?? 'main';
      appId = parsed.appId ?? '';
    } catch {
      // Unreadable data: keep the main-app wording.
    }
    const text = reason?.trim() || 'The App Store data could not be read. Please try again.';
    return role === 'competitor' ? `Competitor app ${appId}: ${text}` : text;
  }
  if (err.name === 'AnalysisFailure') return err.message;
  return GENERIC_FAILURE;
}

/**
 * The worker's `failed` hook: when an `analysis` job failed for good (its last attempt, an
 * unrecoverable error, or a `scrape` child that failed after its own attempts), the audit is
 * marked `failed` with a user-facing message and the stream gets its `error` event (at most
 * once), so a client never waits on a spinner forever. Attempts that will be retried are
 * left alone.
 */
export function createFailureHandler(deps: TWorkerDeps) {
  return async (job: Job | undefined, err: Error): Promise<void> => {
    const auditId = (job?.data as { auditId?: unknown } | undefined)?.auditId;
    if (!job || typeof auditId !== 'string' || !isFinalFailure(job, err)) return;
    const message = await failureMessage(deps, err);
    const changed = await failAudit(deps.db, auditId, message);
    const audit = changed ? null : await findAudit(deps.db, auditId);
    // A previous hook may have failed the audit and died before the event: append it then too.
    if (changed || audit?.status === 'failed') {
      await appendTerminalOnce(deps.redis, deps.bus, auditId, {
        type: 'error',
        message: changed ? message : (audit?.error ?? message),
        code: 'ANALYSIS_FAILED',
        emittedAt: Date.now(),
      });
    }
    deps.log.warn({ auditId, jobId: job.id, reason: err.message, message }, 'audit failed');
  };
}
