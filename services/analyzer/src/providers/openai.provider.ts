import { z } from 'zod';
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import {
  SECTION_KEYS,
  ZRecommendation,
  ZSectionAnalysis,
  type TAppListing,
  type TRecommendation,
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
import {
  InvalidModelOutputError,
  ModelRateLimitedError,
  type TAnalysisContext,
  type TAnalysisProvider,
  type TScreenshotStepResult,
} from './provider.types';

/** Options of {@link createOpenAiProvider} (from the analyzer's env). */
export interface OpenAiProviderOptions {
  apiKey: string;
  /** Any OpenAI-compatible server (`OPENAI_BASE_URL`); the official API when omitted. */
  baseURL?: string;
  model: string;
  visionModel: string;
  /** Timeout of one model call (ms). */
  timeoutMs: number;
  /** iPhone screenshots per app sent as image inputs. */
  maxScreenshots: number;
  /** Pause after a 429 without Retry-After (ms). */
  rateLimitPauseMs: number;
}

/** The model's review of one app's screenshots. */
export const ZScreenshotReview = z.object({
  summary: z.string().min(1),
  firstThree: z.string(),
  toImprove: z.array(z.string()),
});

/**
 * The model's texts for one section: the contracts' section analysis texts plus an optional
 * rewrite (title, subtitle and keyword field only), which is checked against Apple's limits
 * before it is kept.
 */
export const ZSectionTexts = ZSectionAnalysis.pick({ analysis: true, improvements: true }).extend({
  analysis: z.string().min(1),
  suggestedRewrite: z.string().nullable(),
});

/** The model's answer of the `ai_structured_analysis` step: texts for every section key. */
export const ZStructuredTexts = z.object(
  Object.fromEntries(SECTION_KEYS.map((k) => [k, ZSectionTexts])) as Record<
    TSectionKey,
    typeof ZSectionTexts
  >,
);

/** The model's answer of the `ai_recommendations` step (priority is its order). */
export const ZModelRecommendations = z.object({
  recommendations: z.array(ZRecommendation.omit({ priority: true })).min(1),
});

/** Most recommendations kept. */
const MAX_RECOMMENDATIONS = 8;

const SYSTEM = [
  'You are an App Store Optimization (ASO) expert auditing an iOS App Store product page.',
  'Every count, length, limit and score is computed by code and given to you as facts: never compute or change numbers, and never contradict the facts.',
  "Apple's limits: app name 30 characters, subtitle 30 characters, keyword field 100 bytes (comma-separated, no spaces), up to 10 screenshots per device (the first 3 show in search results), up to 3 app previews, in-app event name 30 / short description 50 / long description 120 characters.",
  'Write concise, specific English. Answer only with JSON matching the given schema.',
].join(' ');

/** Milliseconds asked for by `retry-after-ms` / `retry-after` (seconds or HTTP date); null when absent. */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | null {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const raw = headers?.get('retry-after');
  if (!raw) return null;
  const s = Number(raw);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A rewrite kept only when it fits the field's limit (DESIGN section 2: rewrites are re-checked). */
export function checkedRewrite(section: TSectionKey, text: string | null): string | null {
  const t = text?.trim();
  if (!t) return null;
  switch (section) {
    case 'title':
      return charCount(t) <= TITLE_MAX_CHARS ? t : null;
    case 'subtitle':
      return charCount(t) <= SUBTITLE_MAX_CHARS ? t : null;
    case 'keywords':
      return utf8Bytes(t) <= KEYWORD_FIELD_MAX_BYTES && !/\s,|,\s/.test(t) ? t : null;
    case 'icon':
    case 'video':
    case 'screenshots':
    case 'rating':
    case 'category':
    case 'inAppEvents':
      return null;
  }
}

const limitOf: Partial<Record<TSectionKey, string>> = {
  title: `${TITLE_MAX_CHARS} characters`,
  subtitle: `${SUBTITLE_MAX_CHARS} characters`,
  keywords: `${KEYWORD_FIELD_MAX_BYTES} bytes`,
};

function appFacts(l: TAppListing) {
  return {
    appId: l.appId,
    name: l.appName,
    subtitle: l.subtitle,
    developer: l.developer,
    category: l.category,
    categoryRank: l.categoryRank,
    rating: l.rating,
    reviewCount: l.reviewCount,
    description: l.description.slice(0, 1500),
    promotionalText: l.promotionalText,
    previewVideos: l.previews.length,
    inAppEvents: l.inAppEvents.map((e) => ({
      name: e.eventName,
      short: e.eventSubtitle,
      long: e.eventDescription,
      badge: e.eventBadge,
    })),
  };
}

/**
 * The `openai` provider (DESIGN section 2): screenshots are sent as image inputs to the vision
 * model, the section texts and recommendations come from the text model as structured output
 * (JSON schema from the contracts' zod schemas, answers validated with the same schemas), with
 * the counts, limits and scores of the rules given as facts. Scores and confidences stay the
 * rules'. Each call has a timeout and the job's abort signal; the client does not retry by
 * itself: a 429 becomes {@link ModelRateLimitedError} (the worker pauses the queue), an
 * answer that fails validation is asked for once more, then {@link InvalidModelOutputError}.
 * The `openai` package is loaded on first use.
 */
export async function createOpenAiProvider(
  opts: OpenAiProviderOptions,
): Promise<TAnalysisProvider> {
  const { default: OpenAI, RateLimitError } = await import('openai');
  const { zodResponseFormat } = await import('openai/helpers/zod');
  const client = new OpenAI({
    apiKey: opts.apiKey,
    ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
    timeout: opts.timeoutMs,
    maxRetries: 0,
  });

  async function ask<S extends z.ZodType>(
    step: string,
    schema: S,
    name: string,
    model: string,
    messages: ChatCompletionMessageParam[],
    signal: AbortSignal,
  ): Promise<z.infer<S>> {
    let detail = '';
    for (let attempt = 1; attempt <= 2; attempt++) {
      let content: string | null | undefined;
      try {
        const completion = await client.chat.completions.create(
          { model, messages, response_format: zodResponseFormat(schema, name) },
          { signal },
        );
        content = completion.choices[0]?.message?.content;
      } catch (err) {
        if (err instanceof RateLimitError) {
          throw new ModelRateLimitedError(retryAfterMs(err.headers) ?? opts.rateLimitPauseMs);
        }
        throw err;
      }
      let json: unknown;
      try {
        json = JSON.parse(content ?? '');
      } catch {
        detail = `not JSON: ${(content ?? '(empty)').slice(0, 120)}`;
        continue;
      }
      const parsed = schema.safeParse(json);
      if (parsed.success) return parsed.data;
      detail = parsed.error.issues
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')
        .slice(0, 300);
    }
    throw new InvalidModelOutputError(step, detail);
  }

  const reviewScreenshots = async (app: TAppListing, ctx: TAnalysisContext) => {
    const urls = primaryScreenshotUrls(app).slice(0, opts.maxScreenshots);
    const content: ChatCompletionContentPart[] = [
      {
        type: 'text',
        text: JSON.stringify({
          task: 'Review these App Store screenshots in order: what each communicates, whether the first three sell the main benefit at a glance, and what to improve.',
          app: { name: app.appName, subtitle: app.subtitle, category: app.category },
          facts: { screenshotsSent: urls.length, ...ctx.heuristic.facts.screenshots },
        }),
      },
      ...urls.map((url): ChatCompletionContentPart => ({
        type: 'image_url',
        image_url: { url, detail: 'low' },
      })),
    ];
    return ask(
      'ai_screenshot_analysis',
      ZScreenshotReview,
      'screenshot_review',
      opts.visionModel,
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content },
      ],
      ctx.signal,
    );
  };

  return {
    name: 'openai',
    models: { text: opts.model, vision: opts.visionModel },

    async screenshots(ctx): Promise<TScreenshotStepResult> {
      const [mine, ...theirs] = await Promise.all(
        [ctx.main, ...ctx.competitors].map((a) => reviewScreenshots(a, ctx)),
      );
      return {
        competitorScreenshotAnalyses: theirs.map(
          (r) =>
            `${r.summary} ${r.firstThree}`.trim() +
            (r.toImprove.length ? ` To improve: ${r.toImprove.join('; ')}.` : ''),
        ),
        mainScreenshotNotes: mine ? `${mine.summary} ${mine.firstThree}`.trim() : null,
      };
    },

    async structured(ctx, shots): Promise<TStructuredAnalysis> {
      const h = ctx.heuristic.structuredAnalysis;
      const texts = await ask(
        'ai_structured_analysis',
        ZStructuredTexts,
        'structured_analysis',
        opts.model,
        [
          { role: 'system', content: SYSTEM },
          {
            role: 'user',
            content: JSON.stringify({
              task: 'For every section write the analysis and the improvements. suggestedRewrite: a better title, subtitle or keyword field within its limit (null for other sections or when none is better).',
              app: appFacts(ctx.main),
              userKeywords: ctx.keywords || null,
              facts: ctx.heuristic.facts,
              sections: Object.fromEntries(
                SECTION_KEYS.map((k) => [
                  k,
                  {
                    label: SECTION_LABELS[k],
                    score: h[k].score,
                    confidence: h[k].confidence,
                    limit: limitOf[k] ?? null,
                    ruleFindings: h[k].analysis,
                    ruleImprovements: h[k].improvements,
                  },
                ]),
              ),
              screenshotReview: shots.mainScreenshotNotes,
              competitors: ctx.competitors.map(appFacts),
            }),
          },
        ],
        ctx.signal,
      );
      return Object.fromEntries(
        SECTION_KEYS.map((k) => {
          const rewrite = checkedRewrite(k, texts[k].suggestedRewrite);
          const improvements = [...texts[k].improvements];
          if (rewrite)
            improvements.push(`Suggested ${SECTION_LABELS[k].toLowerCase()}: "${rewrite}"`);
          return [k, { ...h[k], analysis: texts[k].analysis, improvements }];
        }),
      ) as TStructuredAnalysis;
    },

    async recommendations(ctx, structured): Promise<TRecommendation[]> {
      const answer = await ask(
        'ai_recommendations',
        ZModelRecommendations,
        'recommendations',
        opts.model,
        [
          { role: 'system', content: SYSTEM },
          {
            role: 'user',
            content: JSON.stringify({
              task: `Give at most ${MAX_RECOMMENDATIONS} recommendations, most impactful first. Each names its section (one of ${SECTION_KEYS.join(', ')}), a short title, the action and its expected effect.`,
              app: { name: ctx.main.appName, overallScore: ctx.heuristic.overallScore },
              sections: structured,
            }),
          },
        ],
        ctx.signal,
      );
      return answer.recommendations
        .slice(0, MAX_RECOMMENDATIONS)
        .map((r, i) => ({ ...r, priority: i + 1 }));
    },
  };
}
