import { z } from 'zod';
import type { JobsOptions } from 'bullmq';
import { ZAppRole } from '@aso/contracts';

/** Queue names (DESIGN section 1). */
export const QUEUES = {
  scrape: 'scrape',
  analysis: 'analysis',
  csvMerge: 'csv-merge',
  render: 'render',
  maintenance: 'maintenance',
  webhook: 'webhook',
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
  /** Read the listing from this stored snapshot (an `app_snapshots` id), never the store. */
  snapshotId: z.string().regex(/^\d+$/).optional(),
});
export type TScrapeJob = z.infer<typeof ZScrapeJob>;

/**
 * Payload of a `watch-read` job: read watched listing `targetId` (a `watch_targets` row) from
 * the store, store the snapshot and its changes. `refresh`: asked for by a user (a refresh
 * always reads the store); otherwise the scheduled read of a round.
 */
export const ZWatchReadJob = z.object({
  targetId: z.string().regex(/^\d+$/),
  refresh: z.boolean().optional(),
});
export type TWatchReadJob = z.infer<typeof ZWatchReadJob>;

/**
 * BullMQ job id of a read of watched target `targetId`: `tag` is the due time of a scheduled
 * read (epoch ms), so two rounds that find the target due before it was read add one job.
 */
export const watchReadJobId = (targetId: string, tag: string) => `watch:${targetId}:${tag}`;

/** Payload of the `watch-round` job: enqueue the reads of every watched target that is due. */
export const ZWatchRoundJob = z.object({});

/** Payload of a `webhook-deliver` job: POST stored delivery `deliveryId` (its event). */
export const ZWebhookDeliverJob = z.object({ deliveryId: z.string().uuid() });
export type TWebhookDeliverJob = z.infer<typeof ZWebhookDeliverJob>;

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

/**
 * Payload of a `render-pdf` job: which audit or dashboard of which user to render as a PDF,
 * and the fingerprint of what is rendered (stored with the PDF; a changed subject has a new
 * one). Never a credential: the render worker opens its own short session.
 */
export const ZRenderPdfJob = z.object({
  kind: z.enum(['audit', 'dashboard']),
  subjectId: z.string().uuid(),
  userId: z.string().uuid(),
  version: z.string().regex(/^[0-9a-f]{16,64}$/),
});
export type TRenderPdfJob = z.infer<typeof ZRenderPdfJob>;

/** BullMQ job id of the render of one version of a subject (three-part form BullMQ accepts). */
export const renderJobId = (data: Pick<TRenderPdfJob, 'kind' | 'subjectId' | 'version'>) =>
  `${data.kind}:${data.subjectId}:${data.version}`;

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
  'render-pdf': {
    queue: QUEUES.render,
    schema: ZRenderPdfJob,
    options: {
      attempts: 2,
      backoff: { type: 'fixed', delay: 1_000 },
      // The PDF is stored in PostgreSQL: the job id frees at once, so a later request for the
      // same version (its PDF deleted meanwhile) renders again instead of finding this job.
      removeOnComplete: true,
      removeOnFail: { age: 3600 },
    },
  },
  'watch-read': {
    queue: QUEUES.scrape,
    schema: ZWatchReadJob,
    options: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 5_000 },
      // Audits' scrapes (no priority) are taken first: a user waits on those.
      priority: 10,
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600 },
    },
  },
  'watch-round': {
    queue: QUEUES.scrape,
    schema: ZWatchRoundJob,
    options: { attempts: 1, removeOnComplete: true, removeOnFail: { age: 24 * 3600 } },
  },
  'webhook-deliver': {
    queue: QUEUES.webhook,
    schema: ZWebhookDeliverJob,
    options: {
      // 10 s, 20 s, 40 s, 80 s, 160 s: a receiver down for about five minutes still gets it.
      attempts: 6,
      backoff: { type: 'exponential', delay: 10_000 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600 },
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
