import { z } from 'zod';
import type { JobsOptions } from 'bullmq';
import { ZAppRole } from '@aso/contracts';

/** Queue names (DESIGN section 1). */
export const QUEUES = {
  scrape: 'scrape',
  analysis: 'analysis',
  csvMerge: 'csv-merge',
  maintenance: 'maintenance',
} as const;
export type TQueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * BullMQ job id of an audit's `analysis` parent job. BullMQ 5 refuses custom ids with one
 * colon (only the three-part `a:b:c` form is allowed), so DESIGN's `{auditId}:analysis` is
 * spelled `{auditId}:analysis:all` ("the analysis over all apps").
 */
export const analysisJobId = (auditId: string) => `${auditId}:analysis:all`;

/** BullMQ job id of the `scrape` job of one app of an audit (DESIGN section 2, point 1). */
export const scrapeJobId = (auditId: string, appId: string) => `${auditId}:scrape:${appId}`;

/**
 * Redis key that asks the csv-merge worker to stop merge job `jobId`: set by the gateway when
 * the upload's client went away (nobody waits for the answer any more), read by the merge
 * between its steps.
 */
export const mergeCancelKey = (prefix: string, jobId: string) => `${prefix}:merge-cancel:${jobId}`;

/** Payload of a `scrape` job: one app of an audit (DESIGN section 2, point 4). */
export const ZScrapeJob = z.object({
  auditId: z.string(),
  appId: z.string(),
  storefront: z.string(),
  role: ZAppRole,
  appStoreUrl: z.string(),
  /** Skip the snapshot cache (benchmarks). */
  bypassCache: z.boolean().optional(),
});
export type TScrapeJob = z.infer<typeof ZScrapeJob>;

/** Payload of the `analysis` parent job (DESIGN section 2, point 5). */
export const ZAnalysisJob = z.object({ auditId: z.string() });
export type TAnalysisJob = z.infer<typeof ZAnalysisJob>;

/** Payload of a `merge` job: the uploads to merge into one dataset (DESIGN section 3). */
export const ZMergeJob = z.object({
  userId: z.string(),
  conversionUploadId: z.string().nullable(),
  redownloadsUploadId: z.string().nullable(),
});
export type TMergeJob = z.infer<typeof ZMergeJob>;

/** Payload of the hourly `cleanup-expired` job. */
export const ZCleanupJob = z.object({});
export type TCleanupJob = z.infer<typeof ZCleanupJob>;

/**
 * The job catalog: job name -> queue, payload schema and default options (STYLE: trigger.dev
 * redis-worker). Workers are typed from it so a job without a handler does not compile.
 */
export const JOBS = {
  scrape: {
    queue: QUEUES.scrape,
    schema: ZScrapeJob,
    options: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600 },
    },
  },
  analysis: {
    queue: QUEUES.analysis,
    schema: ZAnalysisJob,
    options: {
      attempts: 2,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600 },
    },
  },
  merge: {
    queue: QUEUES.csvMerge,
    schema: ZMergeJob,
    options: {
      attempts: 1,
      removeOnComplete: { age: 600, count: 500 },
      removeOnFail: { age: 3600 },
    },
  },
  'cleanup-expired': {
    queue: QUEUES.maintenance,
    schema: ZCleanupJob,
    options: { attempts: 1, removeOnComplete: true, removeOnFail: { age: 24 * 3600 } },
  },
} as const satisfies Record<string, { queue: TQueueName; schema: z.ZodType; options: JobsOptions }>;

export type TJobName = keyof typeof JOBS;
/** Payload type of job `N`. */
export type TJobData<N extends TJobName> = z.infer<(typeof JOBS)[N]['schema']>;
/** Job names served by queue `Q`. */
export type TJobsOfQueue<Q extends TQueueName> = {
  [N in TJobName]: (typeof JOBS)[N]['queue'] extends Q ? N : never;
}[TJobName];
