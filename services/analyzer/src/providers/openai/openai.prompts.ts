import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { SECTION_KEYS, type TAppListing, type TSectionKey } from '@aso/contracts';
import {
  KEYWORD_FIELD_MAX_BYTES,
  SECTION_LABELS,
  SUBTITLE_MAX_CHARS,
  TITLE_MAX_CHARS,
  type TListingAnalysis,
} from '@aso/aso-rules';

/** The system prompt of every call: the facts are the rules', the model writes the words. */
export const SYSTEM_PROMPT = [
  'You are an App Store Optimization (ASO) expert auditing an iOS App Store product page.',
  'Every count, length, limit and score is computed by code and given to you as facts: never compute or change numbers, and never contradict the facts.',
  "Apple's limits: app name 30 characters, subtitle 30 characters, keyword field 100 bytes (comma-separated, no spaces), description 4,000 characters, promotional text 170 characters, up to 10 screenshots per device (the first 3 show in search results), up to 3 app previews, in-app event name 30 / short description 50 / long description 120 characters. Apple does not index the iOS description for search.",
  'Write concise, specific English. Answer only with JSON matching the given schema.',
].join(' ');

/** Limits named to the model per section with a rewrite. */
const LIMITS: Partial<Record<TSectionKey, string>> = {
  title: `${TITLE_MAX_CHARS} characters`,
  subtitle: `${SUBTITLE_MAX_CHARS} characters`,
  keywords: `${KEYWORD_FIELD_MAX_BYTES} bytes`,
};

/** The listing facts a prompt carries for one app (description cut at 1,500 characters). */
export function appFacts(l: TAppListing) {
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

/** Messages of one `screenshot_review` call: the app, the rules' screenshot facts, the images. */
export function screenshotReviewMessages(
  app: TAppListing,
  urls: readonly string[],
  facts: TListingAnalysis['facts']['screenshots'],
): ChatCompletionMessageParam[] {
  const content: ChatCompletionContentPart[] = [
    {
      type: 'text',
      text: JSON.stringify({
        task: 'Review these App Store screenshots in order: what each communicates, whether the first three sell the main benefit at a glance, and up to 4 concrete changes.',
        app: { name: app.appName, subtitle: app.subtitle, category: app.category },
        facts: { screenshotsSent: urls.length, ...facts },
      }),
    },
    ...urls.map((url): ChatCompletionContentPart => ({
      type: 'image_url',
      image_url: { url, detail: 'low' },
    })),
  ];
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content },
  ];
}

/** Messages of the `structured_analysis` call: every section's rules findings as facts. */
export function structuredAnalysisMessages(input: {
  main: TAppListing;
  competitors: readonly TAppListing[];
  keywords: string;
  rules: TListingAnalysis;
  screenshotNotes: string | null;
}): ChatCompletionMessageParam[] {
  const h = input.rules.structuredAnalysis;
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    {
      role: 'user',
      content: JSON.stringify({
        task: 'For every section write the analysis (2-4 sentences) and up to 4 improvements, grounded in the rules findings. A section whose score is null was not judged: say what could not be read. suggestedRewrite: a better title, subtitle or keyword field within its limit (null for other sections or when none is better).',
        app: appFacts(input.main),
        userKeywords: input.keywords || null,
        facts: input.rules.facts,
        sections: Object.fromEntries(
          SECTION_KEYS.map((k) => [
            k,
            {
              label: SECTION_LABELS[k],
              score: h[k].score,
              confidence: h[k].confidence,
              limit: LIMITS[k] ?? null,
              ruleFindings: h[k].analysis,
              failedRules: h[k].rules.filter((r) => r.status === 'failed').map((r) => r.message),
              ruleImprovements: h[k].improvements,
            },
          ]),
        ),
        screenshotReview: input.screenshotNotes,
        competitors: input.competitors.map(appFacts),
      }),
    },
  ];
}

/** Messages of the `recommendations` call. */
export function recommendationsMessages(input: {
  appName: string;
  overallScore: number | null;
  sections: unknown;
  max: number;
}): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    {
      role: 'user',
      content: JSON.stringify({
        task: `Give at most ${input.max} recommendations, most impactful first. Each names its section (one of ${SECTION_KEYS.join(', ')}), a short title, the action and its expected effect. Skip sections whose score is null.`,
        app: { name: input.appName, overallScore: input.overallScore },
        sections: input.sections,
      }),
    },
  ];
}
