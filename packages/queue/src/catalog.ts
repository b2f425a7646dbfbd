import { z } from 'zod';
import type { JobsOptions } from 'bullmq';
import { ZAppRole } from '@aso/contracts';

/** Queue names (docs/product.md#system-shape). */
export const QUEUES = {
  scrape: 'scrape',
  analysis: 'analysis',
  csvMerge: 'csv-merge',
  render: 'render',
  maintenance: 'maintenance',
  webhook: 'webhook',
  ascImport: 'asc-import',
  keywordSearch: 'keyword-search',
} as const;
export type TQueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** The worker processes, by the name each gives `startWorkerService`. */
export type TWorkerProcess = 'scraper' | 'analyzer' | 'csv-merge' | 'render' | 'asc-import';

/**
 * Which process serves each queue, and how many of its jobs one process runs at once: the
 * environment variable of that process that sets it, or a fixed number. The worker bootstrap
 * starts a queue's worker only in its process and with this concurrency, and the queue table
 * of docs/ARCHITECTURE.md is generated from it (`pnpm docs:generate`).
 */
export const QUEUE_WORKERS = {
  scrape: { process: 'scraper', concurrency: 'CONCURRENCY' },
  'keyword-search': { process: 'scraper', concurrency: 2 },
  webhook: { process: 'scraper', concurrency: 'WEBHOOK_CONCURRENCY' },
  analysis: { process: 'analyzer', concurrency: 'CONCURRENCY' },
  'csv-merge': { process: 'csv-merge', concurrency: 'CONCURRENCY' },
  // The hourly cleanup: one at a time is plenty, and two would delete the same rows.
  maintenance: { process: 'csv-merge', concurrency: 1 },
  render: { process: 'render', concurrency: 'CONCURRENCY' },
  'asc-import': { process: 'asc-import', concurrency: 'CONCURRENCY' },
} as const satisfies Record<
  TQueueName,
  { process: TWorkerProcess; concurrency: `${Uppercase<string>}` | number }
>;

/**
 * BullMQ job id of an audit's `analysis` parent job. BullMQ 5 refuses custom ids with one
 * colon (only the three-part `a:b:c` form is allowed), so the plain `{auditId}:analysis` is
 * spelled `{auditId}:analysis:all` ("the analysis over all apps").
 */
export const analysisJobId = (auditId: string) => `${auditId}:analysis:all`;

/** BullMQ job id of the `scrape` job of one app of an audit (docs/product.md#starting-an-audit). */
export const scrapeJobId = (auditId: string, appId: string) => `${auditId}:scrape:${appId}`;

/**
 * Redis key that asks the csv-merge worker to stop merge job `jobId`: set by the gateway when
 * the upload's client went away (nobody waits for the answer any more), read by the merge
 * between its steps.
 */
export const mergeCancelKey = (prefix: string, jobId: string) => `${prefix}:merge-cancel:${jobId}`;

/** Payload of a `scrape` job: one app of an audit (docs/product.md#scrape-steps). */
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

/**
 * Payload of a `keyword-read` job: read the store's search results for term `termId` (a
 * `keyword_terms` row) once, for every user and app tracking it. `refresh`: asked for by a user.
 */
export const ZKeywordReadJob = z.object({
  termId: z.string().regex(/^\d+$/),
  /**
   * The term's words and storefront, carried so the search request is the first thing the
   * job does (nothing between the limiter's slot and the request to delay one read into the
   * next one's slot).
   */
  term: z.string().min(1).max(200),
  storefront: z.string().regex(/^[a-z]{2}$/),
  refresh: z.boolean().optional(),
  /** Throttled answers this read has had so far (each doubles the next pause). */
  throttles: z.number().int().min(0).optional(),
});
export type TKeywordReadJob = z.infer<typeof ZKeywordReadJob>;

/**
 * BullMQ job id of a read of term `termId`: `tag` is the due time of a scheduled read (epoch
 * ms) or `refresh-<minute>`, so two rounds (or two refreshes within a minute) add one job.
 */
export const keywordReadJobId = (termId: string, tag: string) => `keyword:${termId}:${tag}`;

/** Payload of the `keyword-round` job: enqueue the reads of every tracked term that is due. */
export const ZKeywordRoundJob = z.object({});

/** Payload of a `webhook-deliver` job: POST stored delivery `deliveryId` (its event). */
export const ZWebhookDeliverJob = z.object({ deliveryId: z.string().uuid() });
export type TWebhookDeliverJob = z.infer<typeof ZWebhookDeliverJob>;

/** Payload of the `analysis` parent job (docs/product.md#analysis-steps). */
export const ZAnalysisJob = z.object({ auditId: z.string() });
export type TAnalysisJob = z.infer<typeof ZAnalysisJob>;

/**
 * Payload of a `merge` job: the uploads to merge into one dataset
 * (docs/product.md#how-a-dashboard-is-built).
 */
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

/**
 * Payload of an `asc-import` job: run import `importId` (an `asc_imports` row naming the
 * connection and app). Ids only: the importer reads the sealed key from PostgreSQL.
 */
export const ZAscImportJob = z.object({ importId: z.string().uuid() });
export type TAscImportJob = z.infer<typeof ZAscImportJob>;

/** BullMQ job id of import `importId` (three-part form), so one import is queued once. */
export const ascImportJobId = (importId: string) => `asc:${importId}:import`;

/** Payload of the `asc-import-round` job: queue an import of every app imported before. */
export const ZAscImportRoundJob = z.object({});

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
  'keyword-read': {
    queue: QUEUES.keywordSearch,
    schema: ZKeywordReadJob,
    options: {
      // A throttled or failed read is retried as a job, so each try passes the search limiter
      // again: 30 s, 60 s, 120 s, 240 s (a 429's Retry-After pauses the queue instead).
      attempts: 5,
      backoff: { type: 'exponential', delay: 30_000, jitter: 0.5 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600 },
    },
  },
  'keyword-round': {
    queue: QUEUES.scrape,
    schema: ZKeywordRoundJob,
    // Below audits' scrapes (none) and watched reads (10): the round only queues reads.
    options: {
      attempts: 1,
      priority: 20,
      removeOnComplete: true,
      removeOnFail: { age: 24 * 3600 },
    },
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
  'asc-import': {
    queue: QUEUES.ascImport,
    schema: ZAscImportJob,
    options: {
      // The importer retries each App Store Connect call itself (429s with backoff); a job
      // attempt that still fails leaves what it stored, and the next attempt skips it.
      attempts: 2,
      backoff: { type: 'exponential', delay: 30_000 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600 },
    },
  },
  'asc-import-round': {
    queue: QUEUES.ascImport,
    schema: ZAscImportRoundJob,
    options: { attempts: 1, removeOnComplete: true, removeOnFail: { age: 24 * 3600 } },
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
