import {
  SECTION_KEYS,
  type TAppListing,
  type TSectionAnalysis,
  type TSectionKey,
  type TStructuredAnalysis,
} from '@aso/contracts';
import {
  charCount,
  KEYWORD_FIELD_MAX_BYTES,
  SECTION_LABELS,
  SUBTITLE_MAX_CHARS,
  TITLE_MAX_CHARS,
  utf8Bytes,
} from '@aso/aso-rules';
import { primaryScreenshotUrls } from '@aso/appstore';
import { callModel, ModelCallError, type TResponseFormatMode } from './openai/model-call';
import { cleanModelList, cleanModelText, type TScreenshotReview } from './openai/openai.schemas';
import {
  recommendationsMessages,
  screenshotReviewMessages,
  structuredAnalysisMessages,
} from './openai/openai.prompts';
import type {
  TAnalysisContext,
  TAnalysisProvider,
  TRecommendationsStepResult,
  TScreenshotStepResult,
} from './provider.types';

/** Options of {@link createOpenAiProvider} (from the analyzer's env). */
export interface TOpenAiProviderOptions {
  apiKey: string;
  /** Any OpenAI-compatible server (`OPENAI_BASE_URL`); the official API when omitted. */
  baseURL?: string;
  model: string;
  visionModel: string;
  /** Timeout of one model call (ms). */
  timeoutMs: number;
  /** Retries of a call the client makes itself (429 with retry-after, 5xx, dropped connections). */
  maxRetries: number;
  /** iPhone screenshots per app sent as image inputs. */
  maxScreenshots: number;
  /** `json_schema` (strict Structured Outputs) or `json_object` (JSON mode, validated by zod). */
  responseFormat: TResponseFormatMode;
  /** Upper bound of output tokens per call; null leaves the server's default. */
  maxOutputTokens: number | null;
  /** Called once per failed model call (the audit still completes with the rules' texts). */
  onModelFailure?: (err: ModelCallError) => void;
}

/** Most recommendations kept. */
const MAX_RECOMMENDATIONS = 8;
/** Most improvements kept per section. */
const MAX_IMPROVEMENTS = 4;

/** Limits of the fields the model may rewrite: characters, bytes for the keyword field. */
const REWRITE_LIMITS: Partial<Record<TSectionKey, number>> = {
  title: TITLE_MAX_CHARS,
  subtitle: SUBTITLE_MAX_CHARS,
  keywords: KEYWORD_FIELD_MAX_BYTES,
};

/**
 * A rewrite kept only when it fits the field's limit (docs/product.md#how-an-audit-runs: rewrites
 * are re-checked).
 */
export function checkedRewrite(section: TSectionKey, text: string | null): string | null {
  const t = text?.trim();
  if (!t) return null;
  const limit = REWRITE_LIMITS[section];
  if (!limit) return null;
  if (section === 'keywords') return utf8Bytes(t) <= limit && !/\s,|,\s/.test(t) ? t : null;
  return charCount(t) <= limit ? t : null;
}

/**
 * A screenshot review as one text, ending with its 'To improve:' part
 * (docs/product.md#result-page).
 */
export function screenshotReviewText(r: TScreenshotReview): string | null {
  const body = [cleanModelText(r.summary), cleanModelText(r.firstThree)].filter(Boolean).join(' ');
  if (!body) return null;
  const improve = cleanModelList(r.toImprove, MAX_IMPROVEMENTS);
  return improve.length ? `${body} To improve: ${improve.join('; ')}.` : body;
}

/** The rules' section marked as the fallback for a failed model call. */
const rulesOnly = (section: TSectionAnalysis, reason: string): TSectionAnalysis => ({
  ...section,
  textSource: 'rules',
  fallbackReason: reason,
});

/**
 * The `openai` provider (docs/product.md#how-an-audit-runs): screenshots go as image inputs to the
 * vision model, section texts and recommendations come from the text model as structured output
 * (strict Structured Outputs, or JSON mode validated by zod), with the rules' counts, limits,
 * scores and findings given as facts; scores and confidences stay the rules'. A call that fails
 * (see `callModel`) never fails the audit: the texts it was for fall back to the rules' with
 * `textSource: 'rules'` and the reason. The `openai` package is loaded on first use.
 */
export async function createOpenAiProvider(
  opts: TOpenAiProviderOptions,
): Promise<TAnalysisProvider> {
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({
    apiKey: opts.apiKey,
    ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
    timeout: opts.timeoutMs,
    maxRetries: opts.maxRetries,
  });
  const call = (ctx: TAnalysisContext, model: string) => ({
    client,
    model,
    mode: opts.responseFormat,
    maxOutputTokens: opts.maxOutputTokens,
    signal: ctx.signal,
    usage: ctx.usage,
  });
  /** Runs `fn`; a ModelCallError is reported and turned into null, anything else is rethrown. */
  async function attempt<T>(fn: () => Promise<T>): Promise<T | ModelCallError> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ModelCallError)) throw err;
      opts.onModelFailure?.(err);
      return err;
    }
  }
  const review = (app: TAppListing, ctx: TAnalysisContext) =>
    attempt(() =>
      callModel(
        'screenshot_review',
        screenshotReviewMessages(
          app,
          primaryScreenshotUrls(app).slice(0, opts.maxScreenshots),
          ctx.heuristic.facts.screenshots,
        ),
        call(ctx, opts.visionModel),
      ),
    );

  return {
    name: 'openai',
    models: { text: opts.model, vision: opts.visionModel },

    async screenshots(ctx): Promise<TScreenshotStepResult> {
      const [mine, ...theirs] = await Promise.all(
        [ctx.main, ...ctx.competitors].map((a) => review(a, ctx)),
      );
      const texts = theirs.map((r) =>
        r instanceof ModelCallError ? null : screenshotReviewText(r),
      );
      return {
        competitorScreenshotAnalyses: texts.map(
          (t, i) => t ?? ctx.heuristic.competitorScreenshotAnalyses[i] ?? '',
        ),
        competitorScreenshotSources: texts.map((t) => (t ? 'model' : 'rules')),
        mainScreenshotNotes:
          mine && !(mine instanceof ModelCallError)
            ? [cleanModelText(mine.summary), cleanModelText(mine.firstThree)]
                .filter(Boolean)
                .join(' ') || null
            : null,
      };
    },

    async structured(ctx, shots): Promise<TStructuredAnalysis> {
      const h = ctx.heuristic.structuredAnalysis;
      const texts = await attempt(() =>
        callModel(
          'structured_analysis',
          structuredAnalysisMessages({
            main: ctx.main,
            competitors: ctx.competitors,
            keywords: ctx.keywords,
            rules: ctx.heuristic,
            screenshotNotes: shots.mainScreenshotNotes,
          }),
          call(ctx, opts.model),
        ),
      );
      return Object.fromEntries(
        SECTION_KEYS.map((k): [TSectionKey, TSectionAnalysis] => {
          if (texts instanceof ModelCallError) return [k, rulesOnly(h[k], texts.reason)];
          const analysis = cleanModelText(texts[k].analysis);
          if (!analysis)
            return [k, rulesOnly(h[k], 'the model wrote no analysis for this section')];
          // A section not judged gets no improvements: they would rest on data never read.
          const improvements =
            h[k].score === null ? [] : cleanModelList(texts[k].improvements, MAX_IMPROVEMENTS);
          const rewrite = h[k].score === null ? null : checkedRewrite(k, texts[k].suggestedRewrite);
          if (rewrite)
            improvements.push(`Suggested ${SECTION_LABELS[k].toLowerCase()}: "${rewrite}"`);
          return [k, { ...h[k], analysis, improvements, textSource: 'model' }];
        }),
      ) as TStructuredAnalysis;
    },

    async recommendations(ctx, structured): Promise<TRecommendationsStepResult> {
      const answer = await attempt(() =>
        callModel(
          'recommendations',
          recommendationsMessages({
            appName: ctx.main.appName,
            overallScore: ctx.heuristic.overallScore,
            sections: structured,
            max: MAX_RECOMMENDATIONS,
          }),
          call(ctx, opts.model),
        ),
      );
      const recommendations =
        answer instanceof ModelCallError
          ? []
          : answer.recommendations.flatMap((r) => {
              const title = cleanModelText(r.title);
              const action = cleanModelText(r.action);
              const expectedEffect = cleanModelText(r.expectedEffect);
              // Recommendations on a section that was not judged would rest on missing data.
              return title && action && expectedEffect && structured[r.section].score !== null
                ? [{ section: r.section, title, action, expectedEffect }]
                : [];
            });
      if (recommendations.length === 0)
        return { recommendations: ctx.heuristic.recommendations, source: 'rules' };
      return {
        recommendations: recommendations
          .slice(0, MAX_RECOMMENDATIONS)
          .map((r, i) => ({ ...r, priority: i + 1 })),
        source: 'model',
      };
    },
  };
}
