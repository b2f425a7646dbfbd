import type {
  TAppListing,
  TRecommendation,
  TStructuredAnalysis,
  TTextSource,
  TTokenUsage,
} from '@aso/contracts';
import type { TListingAnalysis } from '@aso/aso-rules';

/** Token counts summed over the model calls of one audit. */
export class UsageMeter {
  private total: TTokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0 };
  /** Adds one call's `usage` (missing counts count 0). */
  add(
    usage:
      | { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number }
      | null
      | undefined,
  ): void {
    const p = usage?.prompt_tokens ?? 0;
    const c = usage?.completion_tokens ?? 0;
    this.total = {
      promptTokens: this.total.promptTokens + p,
      completionTokens: this.total.completionTokens + c,
      totalTokens: this.total.totalTokens + (usage?.total_tokens ?? p + c),
      calls: this.total.calls + 1,
    };
  }
  /** The sums so far. */
  snapshot(): TTokenUsage {
    return { ...this.total };
  }
}

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
  /** Where the model calls of this audit add their token usage. */
  usage: UsageMeter;
}

/** Result of the `ai_screenshot_analysis` step. */
export interface TScreenshotStepResult {
  /** Per competitor, same order as `competitors`: the screenshot analysis text. */
  competitorScreenshotAnalyses: string[];
  /** Per competitor: who wrote its text (the rules when the model failed for it). */
  competitorScreenshotSources: TTextSource[];
  /** What the provider saw in the audited app's own screenshots (null when nothing to add). */
  mainScreenshotNotes: string | null;
}

/** Result of the `ai_recommendations` step. */
export interface TRecommendationsStepResult {
  recommendations: TRecommendation[];
  source: TTextSource;
}

/**
 * An analysis provider (docs/product.md#how-an-audit-runs): one method per analysis step. Scores
 * and confidences always come from the rules (`ctx.heuristic`); a provider writes the texts. A
 * provider never throws for a failed model call: the affected texts fall back to the rules'
 * (`textSource: 'rules'` with a `fallbackReason`), so the audit completes.
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
  ): Promise<TRecommendationsStepResult>;
}
