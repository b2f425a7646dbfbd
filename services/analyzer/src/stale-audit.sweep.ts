import type { Queue } from '@aso/queue';
import { failAudit, findUnfinishedAuditIds } from '@aso/db';
import { analysisJobId } from '@aso/queue';
import { appendTerminalOnce } from './analysis.steps';
import { failureMessage, GENERIC_FAILURE } from './audit-failure.hook';
import type { TWorkerDeps } from './worker.deps';

/** Audits looked at per sweep at most (the oldest first). */
export const SWEEP_BATCH = 100;

/** Job states in which an analysis can still finish its audit: the sweep leaves those alone. */
const LIVE_STATES = new Set(['active', 'waiting', 'waiting-children', 'delayed', 'prioritized']);

/**
 * Builds the sweep of audits left unfinished (docs/product.md#error-catalogue: the client must
 * never wait on a spinner forever). An audit still `queued` or `running` `olderThanMs` after its
 * creation whose `analysis` job (in `queue`) is no longer live (failed, completed, or gone:
 * removed, or never added) is marked `failed` and its stream gets the `error` event, once: the
 * failure hook normally does this, but not when the process died between BullMQ recording the
 * failure and the hook. The message is the one the hook would give (the failed scrape's own reason
 * for a failed child), else 'Failed to analyze app. Please try again.'. Idempotent and safe to run
 * in every analyzer process at once. Returns the number of audits closed.
 */
export function createStaleAuditSweep(
  deps: Pick<TWorkerDeps, 'db' | 'redis' | 'bus' | 'log'>,
  queue: Queue,
  olderThanMs: number,
) {
  return async (): Promise<number> => {
    let closed = 0;
    for (const auditId of await findUnfinishedAuditIds(deps.db, olderThanMs, SWEEP_BATCH)) {
      const job = await queue.getJob(analysisJobId(auditId));
      const state = job ? await job.getState() : 'gone';
      if (LIVE_STATES.has(state)) continue;
      const message =
        state === 'failed' && job?.failedReason
          ? await failureMessage(deps, new Error(job.failedReason))
          : GENERIC_FAILURE;
      if (!(await failAudit(deps.db, auditId, message))) continue;
      await appendTerminalOnce(deps.redis, deps.bus, auditId, {
        type: 'error',
        message,
        code: 'ANALYSIS_FAILED',
        emittedAt: Date.now(),
      });
      deps.log.warn({ auditId, jobState: state, message }, 'stale audit closed as failed');
      closed++;
    }
    return closed;
  };
}
