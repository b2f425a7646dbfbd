import { z } from 'zod';
import { ZText } from './common';

/**
 * Client-facing progress step ids, in order (docs/product.md#entities, Progress step). The scrape
 * job reports the first seven per app, the analysis job the rest.
 */
export const STEP_IDS = [
  'url_validation',
  'cache_check',
  'scrape',
  'metadata_extraction',
  'screenshot_analysis',
  'preview_video_detection',
  'in_app_events',
  'ai_screenshot_analysis',
  'ai_structured_analysis',
  'ai_recommendations',
  'finalize',
  'done',
] as const;
export const ZStepId = z.enum(STEP_IDS);
export type TStepId = z.infer<typeof ZStepId>;

/** Steps reported by each app's scrape job (docs/product.md#scrape-steps). */
export const SCRAPE_STEP_IDS = STEP_IDS.slice(0, 7) as readonly TStepId[];
/** Steps reported by the audit's analysis job (docs/product.md#analysis-steps). */
export const ANALYSIS_STEP_IDS = STEP_IDS.slice(7) as readonly TStepId[];

/** Human labels of the steps (docs/product.md#entities gives most of them). */
export const STEP_LABELS: Record<TStepId, string> = {
  url_validation: 'Validating URL and extracting app ID',
  cache_check: 'Checking cache',
  scrape: 'Scraping the App Store page',
  metadata_extraction: 'Extracting metadata',
  screenshot_analysis: 'Processing screenshots',
  preview_video_detection: 'Detecting preview video',
  in_app_events: 'Finding in-app events',
  ai_screenshot_analysis: 'Analyzing screenshots',
  ai_structured_analysis: 'Running structured analysis',
  ai_recommendations: 'Generating recommendations',
  finalize: 'Finalizing the audit',
  done: 'Done',
};

export const ZStepStatus = z.enum(['pending', 'in_progress', 'done', 'error']);
export type TStepStatus = z.infer<typeof ZStepStatus>;

/**
 * One progress step as the client sees it (docs/product.md#entities). `progress_pct` is percent
 * 0-100 of that step; `started_at` / `ended_at` are ISO 8601 or null.
 */
export const ZProgressStep = z.object({
  step_id: ZStepId,
  status: ZStepStatus,
  message: z.string(),
  progress_pct: z.number().min(0).max(100),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
});
export type TProgressStep = z.infer<typeof ZProgressStep>;

/** Which app of an audit a scrape event is about. */
export const ZAppRole = z.enum(['main', 'competitor']);
export type TAppRole = z.infer<typeof ZAppRole>;

/**
 * What workers append to an audit's progress stream (docs/product.md#progress-events). `emittedAt`
 * is epoch ms at append time (used to measure relay latency).
 * - `app_step`: one app's scrape step; the gateway aggregates these over the audit's apps.
 * - `step`: an analysis step, already client-shaped.
 * - `error` / `complete`: terminal events.
 */
export const ZBusEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('app_step'),
    appId: z.string(),
    role: ZAppRole,
    step_id: ZStepId,
    status: ZStepStatus,
    message: z.string(),
    at: z.string(),
    emittedAt: z.number(),
    /**
     * On a `cache_check` event with status `done` (the scraper always sets it there): true when
     * a fresh snapshot was reused (docs/product.md#scrape-steps), false when the store will be
     * read. The gateway counts the hits in the aggregated `cache_check` message from this flag
     * alone ('1 of 3 apps from cache'); a message's text never counts.
     */
    cacheHit: z.boolean().optional(),
  }),
  z.object({ type: z.literal('step'), step: ZProgressStep, emittedAt: z.number() }),
  z.object({
    type: z.literal('error'),
    message: z.string(),
    code: z.string().optional(),
    emittedAt: z.number(),
  }),
  z.object({ type: z.literal('complete'), auditId: z.string(), emittedAt: z.number() }),
]);
export type TBusEvent = z.infer<typeof ZBusEvent>;

/** Payload of the SSE `step` event (docs/product.md#api-calls: progress stream). */
export const ZStepEventData = ZProgressStep.extend({ emittedAt: z.number().optional() });
/** Payload of the SSE `error` event. */
export const ZErrorEventData = z.object({ message: z.string(), code: z.string().optional() });
/** Payload of the SSE `complete` event. */
export const ZCompleteEventData = z.object({ auditId: z.string() });
export type TStepEventData = z.infer<typeof ZStepEventData>;
export type TErrorEventData = z.infer<typeof ZErrorEventData>;
export type TCompleteEventData = z.infer<typeof ZCompleteEventData>;

/** Body of `POST /api/progress/complete` (kept for older clients; answers 204). */
export const ZProgressCompleteBody = z.object({ sessionId: ZText.min(1) });
