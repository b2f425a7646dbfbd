import type { Job } from '@aso/queue';
import type { Logger } from 'pino';
import { nextTurn } from './merge/index';

/**
 * The `pause` of a long merge (docs/BENCHMARKS.md): one turn of the event loop (BullMQ renews
 * its locks on timers, which a merge holding the loop starved, so the job was taken for
 * stalled and ran twice), and, at its first call and then at most every third of `lockMs`,
 * an explicit `job.extendLock(job.token, lockMs)` (BullMQ's API for long jobs). An extension
 * that fails (the lock is already lost) is logged, not thrown: storing is idempotent per job,
 * so a second run cannot add a second dataset.
 *
 * @param lockMs - the worker's `lockDuration` (ms), `LOCK_DURATION_MS`.
 */
export function createJobPause(
  job: Pick<Job, 'id' | 'token' | 'extendLock'>,
  lockMs: number,
  log: Pick<Logger, 'warn'>,
): () => Promise<void> {
  // The first pause extends at once: a merge reaching its first pause is already a long one.
  let extendedAt = -Infinity;
  return async () => {
    await nextTurn();
    const now = Date.now();
    if (!job.token || now - extendedAt < lockMs / 3) return;
    extendedAt = now;
    try {
      const extended = await job.extendLock(job.token, lockMs);
      if (!extended) log.warn({ jobId: job.id }, 'could not extend the lock of a long merge');
    } catch (err) {
      log.warn({ jobId: job.id, err }, 'could not extend the lock of a long merge');
    }
  };
}
