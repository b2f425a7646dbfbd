import { z } from 'zod';
import { SECTION_KEYS, type TSectionKey } from '@aso/contracts';
import { strictSchemaViolation } from './strict-schema';

/**
 * The answers asked of the model, as zod schemas that convert to OpenAI's strict Structured
 * Outputs subset (no length, count or range keywords: those limits are checked in code after
 * parsing, see `checkScreenshotReview` and friends). Each schema is sent under its name.
 */

/** The model's review of one app's screenshots (`screenshot_review`). */
export const ZScreenshotReview = z.object({
  summary: z.string().describe('What the screenshots communicate, in order, in 2-3 sentences.'),
  firstThree: z.string().describe('Whether the first three sell the main benefit at a glance.'),
  toImprove: z.array(z.string()).describe('Up to 4 concrete changes.'),
});
export type TScreenshotReview = z.infer<typeof ZScreenshotReview>;

/** The model's texts for one section (title, subtitle and keyword field may get a rewrite). */
export const ZSectionTexts = z.object({
  analysis: z.string(),
  improvements: z.array(z.string()),
  suggestedRewrite: z.string().nullable(),
});

/** The model's answer of the `ai_structured_analysis` step (`structured_analysis`). */
export const ZStructuredTexts = z.object(
  Object.fromEntries(SECTION_KEYS.map((k) => [k, ZSectionTexts])) as Record<
    TSectionKey,
    typeof ZSectionTexts
  >,
);

/** The model's answer of the `ai_recommendations` step (`recommendations`); priority is the order. */
export const ZModelRecommendations = z.object({
  recommendations: z.array(
    z.object({
      section: z.enum(SECTION_KEYS),
      title: z.string(),
      action: z.string(),
      expectedEffect: z.string(),
    }),
  ),
});

/** Every schema the provider sends, by the name it is sent under. */
export const MODEL_SCHEMAS = {
  screenshot_review: ZScreenshotReview,
  structured_analysis: ZStructuredTexts,
  recommendations: ZModelRecommendations,
} as const;
export type TSchemaName = keyof typeof MODEL_SCHEMAS;

/** The JSON Schema of `name` as sent: zod's draft-7 conversion without the `$schema` marker. */
export function jsonSchemaOf(name: TSchemaName): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(MODEL_SCHEMAS[name], {
    target: 'draft-7',
  }) as Record<string, unknown>;
  return schema;
}

/**
 * The `response_format` of `name` with `strict: true`. Throws when the schema does not fit the
 * strict subset (a bug: the API would refuse every request with it).
 */
export function strictResponseFormat(name: TSchemaName) {
  const schema = jsonSchemaOf(name);
  const violation = strictSchemaViolation(schema);
  if (violation) throw new Error(`Invalid schema for response_format '${name}': ${violation}`);
  return { type: 'json_schema' as const, json_schema: { name, strict: true, schema } };
}

/** Longest text kept from the model, characters (longer answers are cut at a sentence). */
export const MAX_MODEL_TEXT_CHARS = 1200;

/** A non-empty trimmed text cut to {@link MAX_MODEL_TEXT_CHARS}, or null when empty. */
export function cleanModelText(text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  const chars = Array.from(t);
  return chars.length <= MAX_MODEL_TEXT_CHARS
    ? t
    : `${chars.slice(0, MAX_MODEL_TEXT_CHARS - 1).join('')}…`;
}

/** Trimmed, non-empty list items, at most `max`. */
export function cleanModelList(items: readonly string[], max: number): string[] {
  return items
    .map(cleanModelText)
    .filter((t): t is string => t !== null)
    .slice(0, max);
}
