import { z } from 'zod';
import { ZText } from './common';
import { ZAppListing, ZInAppEvent, ZStoreData } from './listing';
import { isAppStoreStorefront, unknownStorefrontMessage } from './storefronts';

/** Keyword/metadata text limit in characters (spec section 5 and 9). */
export const KEYWORDS_MAX_CHARS = 100;
/** At most three competitors (spec section 9). */
export const MAX_COMPETITORS = 3;

/**
 * Body of `POST /api/analyze` (spec section 3: Analyze request). URL rules are applied by the
 * gateway with `@aso/appstore` so the messages name the field.
 */
export const ZAnalyzeRequest = z.object({
  // Emptiness is judged with the URL rules so the answer carries the spec's message.
  appStoreUrl: ZText.max(2048, 'appStoreUrl is too long'),
  keywords: ZText.max(
    KEYWORDS_MAX_CHARS,
    `keywords must be at most ${KEYWORDS_MAX_CHARS} characters`,
  ).nullish(),
  competitorUrl1: ZText.max(2048).nullish(),
  competitorUrl2: ZText.max(2048).nullish(),
  competitorUrl3: ZText.max(2048).nullish(),
});
export type TAnalyzeRequest = z.infer<typeof ZAnalyzeRequest>;

/** Answer of `POST /api/analyze`: the new audit's id. */
export const ZAnalyzeAnswer = z.object({ id: z.string() });

/**
 * Message of a rejected App Store URL in `POST /api/analyze` (spec section 8, 'Invalid URL'
 * toast), prefixed by the field name in the answer.
 */
export const ANALYZE_URL_ERROR = 'Please enter a valid App Store URL (apps.apple.com)';

/** One competitor in an audit (spec section 3: competitorData item). */
export const ZCompetitorData = z.object({
  appId: z.string(),
  appName: z.string(),
  subtitle: z.string().nullable(),
  iconUrl: z.string().nullable(),
  rating: z.string(),
  reviewCount: z.string(),
  appStoreUrl: z.string(),
  screenshots: z.array(z.string()),
  screenshotAnalysis: z.string(),
  /** How the competitor's store data was read; absent for audits stored before it was kept. */
  storeData: z
    .lazy(() => ZStoreData)
    .nullable()
    .optional(),
});
export type TCompetitorData = z.infer<typeof ZCompetitorData>;

/** Section keys of the structured analysis (spec section 3 plus in-app events). */
export const SECTION_KEYS = [
  'title',
  'subtitle',
  'keywords',
  'icon',
  'video',
  'screenshots',
  'rating',
  'category',
  'inAppEvents',
] as const;
export const ZSectionKey = z.enum(SECTION_KEYS);
export type TSectionKey = z.infer<typeof ZSectionKey>;

/** How sure the analysis of a section is. */
export const ZConfidence = z.enum(['high', 'medium', 'low']);

/** One analysed section: text, improvements, score 0-100, confidence. */
export const ZSectionAnalysis = z.object({
  analysis: z.string(),
  improvements: z.array(z.string()),
  score: z.number().int().min(0).max(100),
  confidence: ZConfidence,
  /** Characters (or bytes for keywords) used against `limit`, when the section has one. */
  used: z.number().int().nonnegative().optional(),
  limit: z.number().int().positive().optional(),
});
export type TSectionAnalysis = z.infer<typeof ZSectionAnalysis>;

/** Structured analysis: one entry per section key (spec section 3). */
export const ZStructuredAnalysis = z.object(
  Object.fromEntries(SECTION_KEYS.map((k) => [k, ZSectionAnalysis])) as Record<
    TSectionKey,
    typeof ZSectionAnalysis
  >,
);
export type TStructuredAnalysis = z.infer<typeof ZStructuredAnalysis>;

/** One prioritised recommendation (stored as JSON text in `Audit.recommendations`). */
export const ZRecommendation = z.object({
  priority: z.number().int().min(1),
  section: ZSectionKey,
  title: z.string(),
  action: z.string(),
  expectedEffect: z.string(),
});
export type TRecommendation = z.infer<typeof ZRecommendation>;

/** One app of an audit as stored in its inputs: id, storefront and normalised URL. */
export const ZAuditApp = z.object({
  appId: z.string(),
  storefront: z.string(),
  appStoreUrl: z.string(),
});
export type TAuditApp = z.infer<typeof ZAuditApp>;

/**
 * The `inputs` JSON of an `audits` row: what the user asked for, after validation (spec
 * section 5: only valid, unique competitors, at most 3). `keywords` is the user's text, '' when
 * none was entered.
 */
export const ZAuditInputs = z.object({
  main: ZAuditApp,
  competitors: z.array(ZAuditApp).max(MAX_COMPETITORS),
  keywords: z.string(),
});
export type TAuditInputs = z.infer<typeof ZAuditInputs>;

/**
 * The `result` JSON of a finished audit, written once by the analysis job's `finalize` step:
 * the listings it was computed from (main app and competitors, in input order), the analysis
 * and the provider that produced it. `GET /api/audit/{id}` maps it to {@link ZAudit}.
 */
export const ZAuditResult = z.object({
  main: ZAppListing,
  competitors: z.array(ZAppListing),
  structuredAnalysis: ZStructuredAnalysis,
  overallScore: z.number().int().min(0).max(100),
  recommendations: z.array(ZRecommendation),
  /** Per competitor, same order as `competitors`: the screenshot analysis text. */
  competitorScreenshotAnalyses: z.array(z.string()),
  provider: z.enum(['heuristic', 'openai']),
  /** Model names used by the openai provider (null for heuristic). */
  models: z.object({ text: z.string(), vision: z.string() }).nullable(),
  generatedAt: z.string(),
});
export type TAuditResult = z.infer<typeof ZAuditResult>;

export const ZAuditStatus = z.enum(['queued', 'running', 'done', 'failed']);
export type TAuditStatus = z.infer<typeof ZAuditStatus>;

/**
 * An audit as `GET /api/audit/{id}` answers it (spec section 3: Audit). Listing fields are
 * null while the audit is not done.
 */
export const ZAudit = z.object({
  id: z.string(),
  status: ZAuditStatus,
  error: z.string().nullable(),
  appId: z.string(),
  storefront: z.string(),
  appName: z.string().nullable(),
  subtitle: z.string().nullable(),
  developer: z.string().nullable(),
  category: z.string().nullable(),
  /** Chart position such as '#1 in Music', or 'N/A' / 'Not ranked'. */
  categoryRank: z.string().nullable(),
  rating: z.string().nullable(),
  reviewCount: z.string().nullable(),
  keywords: z.string().nullable(),
  description: z.string().nullable(),
  iconUrl: z.string().nullable(),
  previewVideoUrl: z.string().nullable(),
  previewPosterUrl: z.string().nullable().optional(),
  screenshots: z.array(z.string()),
  appStoreUrl: z.string(),
  inAppEvents: z.array(ZInAppEvent),
  competitorData: z.array(ZCompetitorData),
  structuredAnalysis: ZStructuredAnalysis.nullable(),
  overallScore: z.number().int().min(0).max(100).nullable(),
  /** JSON text of `TRecommendation[]` (spec section 3 keeps it as text). */
  recommendations: z.string().nullable(),
  provider: z.string().nullable(),
  /**
   * How the main app's store data was read: layout, sources and the provenance of every field
   * (contracts `ZStoreData`); null while the audit is not done or for audits stored before it
   * was kept.
   */
  storeData: z
    .lazy(() => ZStoreData)
    .nullable()
    .optional(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type TAudit = z.infer<typeof ZAudit>;

/** Longest saved audit name accepted (characters). */
export const SAVED_AUDIT_NAME_MAX_CHARS = 200;

/**
 * Body of `POST /api/saved-audits` (spec section 3: Saved audit). `name` is what the client
 * built ('<app name> <CC> <dd-mm-yyyy>', `buildSavedAuditName` of @aso/aso-rules); when it is
 * missing or blank the server builds it the same way. `storefront` is two letters, default 'us'.
 */
export const ZSaveAuditBody = z.object({
  auditId: ZText.min(1, 'auditId is required'),
  name: ZText.trim()
    .max(
      SAVED_AUDIT_NAME_MAX_CHARS,
      `name must be at most ${SAVED_AUDIT_NAME_MAX_CHARS} characters`,
    )
    .optional(),
  storefront: ZText.trim()
    .toLowerCase()
    .regex(/^[a-z]{2}$/, 'storefront must be a two-letter storefront code such as "us"')
    .refine(isAppStoreStorefront, {
      error: (issue) => unknownStorefrontMessage(String(issue.input)),
    })
    .default('us'),
});
export type TSaveAuditBody = z.infer<typeof ZSaveAuditBody>;
/** A saved audit. */
export const ZSavedAudit = z.object({
  id: z.string(),
  auditId: z.string(),
  name: z.string(),
  storefront: z.string(),
  createdAt: z.string(),
});
export type TSavedAudit = z.infer<typeof ZSavedAudit>;

/** Feedback text limit (characters). */
export const FEEDBACK_MAX_CHARS = 5000;
/** Body of `POST /api/feedback`. */
export const ZFeedbackBody = z.object({
  auditId: ZText.min(1),
  feedback: ZText.trim()
    .min(1, 'Please enter your feedback before submitting.')
    .max(FEEDBACK_MAX_CHARS, `feedback must be at most ${FEEDBACK_MAX_CHARS} characters`),
});
/** Stored feedback (spec section 3: Feedback). */
export const ZFeedback = z.object({
  id: z.string(),
  auditId: z.string(),
  feedback: z.string(),
  createdAt: z.string(),
});
export type TFeedback = z.infer<typeof ZFeedback>;
