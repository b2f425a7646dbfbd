import { ZAuditInputs } from '@aso/contracts';
import { findUnfinishedAudits } from '@aso/db';
import { analysisJobId, type Producers } from '@aso/queue';
import type { TWorkerDeps } from './worker.deps';

/** Audits looked at per recovery pass at most (the oldest first). */
export const RECOVERY_BATCH = 500;

/** Options of {@link createAuditRecovery}. */
export interface TAuditRecoveryOptions {
  /**
   * Audits younger than this (ms) are left alone: the gateway adds an audit's jobs right after
   * its row, and a pass must not race it (a double add would be harmless, but noisy).
   */
  minAgeMs: number;
  /** Audits older than this (ms) are the stale sweep's to close, not to re-run. */
  maxAgeMs: number;
}

/**
 * Builds the recovery of audits whose jobs were lost: an audit that PostgreSQL records as
 * `queued` or `running` but whose `analysis` job no longer exists in Redis (Redis restarted
 * without persistence, or failed over to a replica that had not caught up) gets its whole
 * flow added again (`Producers.addAuditFlow`: same deterministic job ids, so an audit is never
 * queued twice, even by several analyzers at once). Its progress stream goes on from there:
 * the gateway's readers resubscribe on reconnect and the new events come after what clients
 * have. Audits whose stored inputs do not parse are left to the stale sweep. Returns the ids
 * re-enqueued.
 */
export function createAuditRecovery(
  deps: Pick<TWorkerDeps, 'db' | 'redis' | 'log'>,
  producers: Producers,
  opts: TAuditRecoveryOptions,
) {
  return async (): Promise<string[]> => {
    const audits = await findUnfinishedAudits(deps.db, { ...opts, limit: RECOVERY_BATCH });
    if (audits.length === 0) return [];
    const pipeline = deps.redis.pipeline();
    const analysisQueue = producers.queue('analysis');
    for (const a of audits) pipeline.exists(analysisQueue.toKey(analysisJobId(a.id)));
    const replies = (await pipeline.exec()) ?? [];
    const requeued: string[] = [];
    for (const [i, audit] of audits.entries()) {
      const [err, exists] = replies[i] ?? [new Error('no reply'), null];
      if (err || exists !== 0) continue;
      const inputs = ZAuditInputs.safeParse(audit.inputs);
      if (!inputs.success) continue;
      await producers.addAuditFlow(audit.id, inputs.data);
      requeued.push(audit.id);
      deps.log.warn({ auditId: audit.id }, 'audit re-enqueued: its jobs were lost from Redis');
    }
    return requeued;
  };
}
