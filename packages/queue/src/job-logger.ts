import type { Job } from 'bullmq';

/**
 * Payload fields copied onto a job's log lines so that one audit (`auditId`) or one upload
 * (`downloadId`, the upload ids of a merge) can be followed across the api, scraper, analyzer
 * and csv-merge logs (docs/OPERATIONS.md). Only identifiers: payloads never carry secrets, and
 * nothing else of the payload is logged.
 */
export const CORRELATION_KEYS = [
  'auditId',
  'downloadId',
  'appId',
  'role',
  'conversionUploadId',
  'redownloadsUploadId',
] as const;

/** The parts of a BullMQ job {@link jobBindings} reads. */
export type TJobRef = Pick<Job, 'id' | 'name' | 'queueName' | 'data' | 'attemptsStarted'>;

/** A logger that can make child loggers with bound fields (pino's `Logger` is one). */
export interface TChildLogger<L> {
  child(bindings: Record<string, unknown>): L;
}

/** Longest correlation value logged; longer values (never produced by this code) are cut. */
const MAX_VALUE_CHARS = 128;

/**
 * The fields bound to every log line of `job`: `queue`, `jobId`, `jobName`, `attempt` (BullMQ's
 * `attemptsStarted`: 1 on the first run, counting retries and stalled re-runs) and each
 * {@link CORRELATION_KEYS} field the payload carries as a string.
 */
export function jobBindings(job: TJobRef): Record<string, string | number> {
  const out: Record<string, string | number> = {
    queue: job.queueName,
    jobId: job.id ?? '',
    jobName: job.name,
    attempt: job.attemptsStarted,
  };
  const data: unknown = job.data;
  if (data && typeof data === 'object') {
    for (const key of CORRELATION_KEYS) {
      const v = (data as Record<string, unknown>)[key];
      if (typeof v === 'string' && v) out[key] = v.slice(0, MAX_VALUE_CHARS);
    }
  }
  return out;
}

/**
 * A child of `log` whose every line carries the job's {@link jobBindings} (queue, job id and
 * the audit or upload it belongs to). Handlers call it once per job:
 * `const log = jobLogger(deps.log, job)`.
 */
export function jobLogger<L>(log: TChildLogger<L>, job: TJobRef): L {
  return log.child(jobBindings(job));
}
