import type { TAppListing, TRecommendation, TStructuredAnalysis } from '@aso/contracts';
import type { TListingAnalysis } from '@aso/aso-rules';

/** What every provider step gets: the listings, the user's keywords and the rule-based audit. */
export interface TAnalysisContext {
  main: TAppListing;
  /** Competitor listings in the user's order. */
  competitors: TAppListing[];
  /** The user's keyword text ('' when none). */
  keywords: string;
  /** The heuristic audit of the same data: its counts, limits and scores are the facts. */
  heuristic: TListingAnalysis;
  /** Fires when the job is cancelled or the worker shuts down. */
  signal: AbortSignal;
}

/** Result of the `ai_screenshot_analysis` step. */
export interface TScreenshotStepResult {
  /** Per competitor, same order as `competitors`: the screenshot analysis text. */
  competitorScreenshotAnalyses: string[];
  /** What the provider saw in the audited app's own screenshots (null when nothing to add). */
  mainScreenshotNotes: string | null;
}

/**
 * An analysis provider (DESIGN section 2): one method per analysis step. Scores and
 * confidences always come from the rules (`ctx.heuristic`); a provider writes the texts.
 */
export interface TAnalysisProvider {
  name: 'heuristic' | 'openai';
  /** Model names, or null for the heuristic provider. */
  models: { text: string; vision: string } | null;
  screenshots(ctx: TAnalysisContext): Promise<TScreenshotStepResult>;
  structured(ctx: TAnalysisContext, shots: TScreenshotStepResult): Promise<TStructuredAnalysis>;
  recommendations(
    ctx: TAnalysisContext,
    structured: TStructuredAnalysis,
  ): Promise<TRecommendation[]>;
}

/**
 * The model's answer could not be used (not JSON, or not matching the schema) even after one
 * retry. Its message is user-facing.
 */
export class InvalidModelOutputError extends Error {
  constructor(
    readonly step: string,
    readonly detail: string,
  ) {
    super('The AI analysis returned an answer that could not be read, twice. Please try again.');
    this.name = 'InvalidModelOutputError';
  }
}

/** The model server answered 429; `retryAfterMs` is the pause it asked for (or the default). */
export class ModelRateLimitedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(
      `The AI provider is rate-limiting requests (retry after ${Math.ceil(retryAfterMs / 1000)} s)`,
    );
    this.name = 'ModelRateLimitedError';
  }
}
