import { z } from 'zod';
import { TEXT_BOUND_CHARS, ZText } from './common';
import { ZAppListing, ZInAppEvent, ZListingPrice, ZStoreData } from './listing';
import { isAppStoreStorefront, unknownStorefrontMessage } from './storefronts';

/** Keyword/metadata text limit in characters (docs/product.md#validation-rules). */
export const KEYWORDS_MAX_CHARS = 100;
/** At most three competitors (docs/product.md#limits-and-constants). */
export const MAX_COMPETITORS = 3;

/**
 * Body of `POST /api/analyze` (docs/product.md#entities: Analyze request). URL rules are applied by
 * the gateway with `@aso/appstore` so the messages name the field.
 */
export const ZAnalyzeRequest = z.object({
  // Emptiness is judged with the URL rules so the answer carries the documented message.
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
 * Message of a rejected App Store URL in `POST /api/analyze` (docs/product.md#error-catalogue,
 * 'Invalid URL' toast), prefixed by the field's name in the answer ('App Store link: ...').
 */
export const ANALYZE_URL_ERROR = 'Please enter a valid App Store URL (apps.apple.com)';

/** Who wrote a text of the audit: the model, or the rules (offline, or when the model failed). */
export const ZTextSource = z.enum(['model', 'rules']);
export type TTextSource = z.infer<typeof ZTextSource>;

/** One competitor in an audit (docs/product.md#entities: competitorData item). */
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
  /** Who wrote `screenshotAnalysis`. */
  screenshotAnalysisSource: ZTextSource.optional(),
});
export type TCompetitorData = z.infer<typeof ZCompetitorData>;

/**
 * Section keys of the structured analysis, in display order: the documented sections
 * (docs/product.md#results-view) plus in-app events, then description, updates, localization,
 * reviews, app size and compatibility.
 */
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
  'description',
  'updates',
  'localization',
  'reviews',
  'appSize',
  'compatibility',
] as const;
export const ZSectionKey = z.enum(SECTION_KEYS);
export type TSectionKey = z.infer<typeof ZSectionKey>;

/** How sure the analysis of a section is. */
export const ZConfidence = z.enum(['high', 'medium', 'low']);

/** How much a failed rule weighs: high rules cost the most points. */
export const ZRuleSeverity = z.enum(['high', 'medium', 'low']);
export type TRuleSeverity = z.infer<typeof ZRuleSeverity>;

/**
 * Where a rule comes from: Apple's documentation (`url` set), this product's own rule (the
 * label gives its reason), or industry practice (said plainly, no URL).
 */
export const ZRuleSource = z.object({
  kind: z.enum(['apple', 'product', 'industry']),
  label: z.string(),
  url: z.string().nullable(),
});
export type TRuleSource = z.infer<typeof ZRuleSource>;

/** One rule of the catalogue (`GET /api/rules`). */
export const ZRuleDefinition = z.object({
  /** Stable id, '<section>.<check>' (e.g. 'title.length-limit'). */
  id: z.string(),
  /** Raised whenever what the rule checks or how many points it costs changes. */
  version: z.number().int().min(1),
  section: ZSectionKey,
  severity: ZRuleSeverity,
  /** What the rule checks, one sentence. */
  title: z.string(),
  /** Most points (of 100) the section loses when the rule fails. */
  maxPoints: z.number().int().min(0).max(100),
  /** Listing facts the rule reads (field names of the listing or the user's input). */
  facts: z.array(z.string()),
  source: ZRuleSource,
});
export type TRuleDefinition = z.infer<typeof ZRuleDefinition>;

/** Answer of `GET /api/rules`: the rules version audits record, and every rule. */
export const ZRulesCatalogue = z.object({
  version: z.string(),
  rules: z.array(ZRuleDefinition),
});
export type TRulesCatalogue = z.infer<typeof ZRulesCatalogue>;

/** A fact value a rule read, as shown in "how this is scored". */
export const ZFactValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * What one rule found on one listing: `passed`, `failed` (costing `points`), `not_applicable`
 * (the rule does not concern this listing, e.g. no keywords entered) or `not_judged` (its input
 * could not be read).
 */
export const ZRuleOutcome = z.object({
  id: z.string(),
  version: z.number().int().min(1),
  severity: ZRuleSeverity,
  status: z.enum(['passed', 'failed', 'not_applicable', 'not_judged']),
  /** Points deducted from the section's 100 (0 unless failed). */
  points: z.number().int().min(0).max(100),
  /** The facts read, by name. */
  facts: z.record(z.string(), ZFactValue),
  /** What was found, one sentence. */
  message: z.string(),
});
export type TRuleOutcome = z.infer<typeof ZRuleOutcome>;

/**
 * One analysed section: text, improvements, score 0-100 (null when the section is "not
 * judged": its input could not be read; such a section is left out of the overall score),
 * confidence, the rules applied, and who wrote the text (`fallbackReason` says why the
 * model's text is not shown when `textSource` is 'rules' under the openai provider).
 */
export const ZSectionAnalysis = z.object({
  analysis: z.string(),
  improvements: z.array(z.string()),
  score: z.number().int().min(0).max(100).nullable(),
  confidence: ZConfidence,
  /** Characters (or bytes for keywords) used against `limit`, when the section has one. */
  used: z.number().int().nonnegative().optional(),
  limit: z.number().int().positive().optional(),
  rules: z.array(ZRuleOutcome).default([]),
  textSource: ZTextSource.default('rules'),
  fallbackReason: z.string().optional(),
});
export type TSectionAnalysis = z.infer<typeof ZSectionAnalysis>;

/** Structured analysis: one entry per section key. */
export const ZStructuredAnalysis = z.object(
  Object.fromEntries(SECTION_KEYS.map((k) => [k, ZSectionAnalysis])) as Record<
    TSectionKey,
    typeof ZSectionAnalysis
  >,
);
export type TStructuredAnalysis = z.infer<typeof ZStructuredAnalysis>;

/**
 * A stored structured analysis: audits finished before a section existed lack its key, which
 * reads as that section not judged.
 */
export const ZStoredStructuredAnalysis = z.preprocess((value) => {
  if (!value || typeof value !== 'object') return value;
  const filled: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of SECTION_KEYS) {
    filled[key] ??= {
      analysis: 'Not judged: this audit was made before this section was part of the audit.',
      improvements: [],
      score: null,
      confidence: 'low',
    };
  }
  return filled;
}, ZStructuredAnalysis);

/** Tokens used by the model calls of one audit (summed over its calls). */
export const ZTokenUsage = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  /** Model calls made (retries included). */
  calls: z.number().int().nonnegative(),
});
export type TTokenUsage = z.infer<typeof ZTokenUsage>;

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
 * The `inputs` JSON of an `audits` row: what the user asked for, after validation
 * (docs/product.md#validation-rules: only valid, unique competitors, at most 3). `keywords` is the
 * user's text, '' when none was entered.
 */
export const ZAuditInputs = z.object({
  main: ZAuditApp,
  competitors: z.array(ZAuditApp).max(MAX_COMPETITORS),
  keywords: z.string(),
  /**
   * Audit of a stored snapshot ("audit this snapshot" on a watched listing's timeline): the
   * main app's listing is snapshot `snapshotId` (an `app_snapshots` id), not a store read.
   */
  snapshotId: z.string().regex(/^\d+$/).optional(),
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
  structuredAnalysis: ZStoredStructuredAnalysis,
  /** Weighted mean of the judged sections; null when no section could be judged. */
  overallScore: z.number().int().min(0).max(100).nullable(),
  recommendations: z.array(ZRecommendation),
  /** Per competitor, same order as `competitors`: the screenshot analysis text. */
  competitorScreenshotAnalyses: z.array(z.string()),
  /** Who wrote each competitor's screenshot analysis (absent in older audits: the provider). */
  competitorScreenshotSources: z.array(ZTextSource).optional(),
  /** Who wrote the recommendations (absent in older audits: the provider). */
  recommendationsSource: ZTextSource.optional(),
  /** Version of the rules catalogue that scored the audit (absent in older audits). */
  rulesVersion: z.string().optional(),
  /** Tokens the model calls used (null for the heuristic provider). */
  usage: ZTokenUsage.nullable().optional(),
  provider: z.enum(['heuristic', 'openai']),
  /** Model names used by the openai provider (null for heuristic). */
  models: z.object({ text: z.string(), vision: z.string() }).nullable(),
  generatedAt: z.string(),
});
export type TAuditResult = z.infer<typeof ZAuditResult>;

export const ZAuditStatus = z.enum(['queued', 'running', 'done', 'failed']);
export type TAuditStatus = z.infer<typeof ZAuditStatus>;

/**
 * An audit as `GET /api/audit/{id}` answers it (docs/product.md#entities: Audit). Listing fields
 * are null while the audit is not done, and null when the store data could not be read for them
 * (`storeData` says why) rather than a placeholder.
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
  /** The App Store genre id of the category ('6007'), when a store source gave it. */
  genreId: z.string().nullable().optional(),
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
  /** The age rating as the storefront shows it ('4+', '전체', 'A12'); null when not read. */
  ageRating: z.string().nullable().optional(),
  /** Languages as the storefront lists them; null when not read. */
  languages: z.array(z.string()).nullable().optional(),
  /** The app's price (amount in the storefront's currency units); null when not read. */
  price: z
    .lazy(() => ZListingPrice)
    .nullable()
    .optional(),
  inAppEvents: z.array(ZInAppEvent),
  competitorData: z.array(ZCompetitorData),
  structuredAnalysis: ZStructuredAnalysis.nullable(),
  overallScore: z.number().int().min(0).max(100).nullable(),
  /** JSON text of `TRecommendation[]` (docs/product.md#entities keeps it as text). */
  recommendations: z.string().nullable(),
  /** Who wrote the recommendations. */
  recommendationsSource: ZTextSource.nullable().optional(),
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
  /** Version of the rules catalogue that scored the audit (null when unknown or not done). */
  rulesVersion: z.string().nullable().optional(),
  /** Tokens the model calls used (null for the heuristic provider or when unknown). */
  tokenUsage: ZTokenUsage.nullable().optional(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type TAudit = z.infer<typeof ZAudit>;

/** Longest saved audit name accepted (characters). */
export const SAVED_AUDIT_NAME_MAX_CHARS = 200;

/**
 * Body of `POST /api/saved-audits` (docs/product.md#entities: Saved audit). `name` is what the
 * client built ('<app name> <CC> <dd-mm-yyyy>', `buildSavedAuditName` of @aso/aso-rules); when it
 * is missing or blank the server builds it the same way. `storefront` is two letters, default 'us'.
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

/** Default of the gateway's `FEEDBACK_MAX_CHARS`: the longest feedback text (characters). */
export const FEEDBACK_MAX_CHARS = 5000;
/**
 * Body of `POST /api/feedback`. The text is bounded here only for parsing; its stored limit is
 * the gateway's `FEEDBACK_MAX_CHARS` (413 naming it).
 */
export const ZFeedbackBody = z.object({
  auditId: ZText.min(1),
  feedback: ZText.trim()
    .min(1, 'Please enter your feedback before submitting.')
    .max(TEXT_BOUND_CHARS, 'feedback is too long'),
});
/** Stored feedback (docs/product.md#entities: Feedback). */
export const ZFeedback = z.object({
  id: z.string(),
  auditId: z.string(),
  feedback: z.string(),
  createdAt: z.string(),
});
export type TFeedback = z.infer<typeof ZFeedback>;
