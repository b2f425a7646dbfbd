import {
  SECTION_KEYS,
  type TRuleOutcome,
  type TSectionKey,
  type TStructuredAnalysis,
} from '@aso/contracts';
import { SECTION_LABELS } from './sections.constants';
import { clampScore } from './text.helpers';

/** Section score 0-100: 100 minus the points of the failed rules, clamped at 0. */
export function scoreOf(outcomes: readonly TRuleOutcome[]): number {
  return Math.max(0, 100 - outcomes.reduce((sum, o) => sum + o.points, 0));
}

/**
 * Weight of each section in the overall score: what most moves search visibility (title,
 * keywords, subtitle) and conversion (screenshots, rating, video) weighs most. The overall
 * score divides by the weights of the judged sections only.
 */
export const SECTION_WEIGHTS: Record<TSectionKey, number> = {
  title: 15,
  subtitle: 10,
  keywords: 10,
  icon: 5,
  video: 10,
  screenshots: 20,
  rating: 15,
  category: 5,
  inAppEvents: 10,
  description: 5,
  updates: 5,
  localization: 5,
  reviews: 5,
  appSize: 3,
  compatibility: 2,
};

/**
 * Share of the total section weight ({@link SECTION_WEIGHTS}) that must be judged for an
 * overall score to be shown (ratio 0-1). This product's rule: a mean of less than half of what
 * the score stands for would be presented as the whole listing's score.
 */
export const OVERALL_SCORE_MIN_JUDGED_WEIGHT = 0.5;

/** What an overall score is made of (see {@link scoreComposition}). */
export interface TScoreComposition {
  /** Sections with a score. */
  judgedSections: number;
  /** Sections of the audit ({@link SECTION_KEYS}). */
  totalSections: number;
  /** Share of the total weight the judged sections carry, ratio 0-1. */
  judgedWeight: number;
  /** Labels of the sections not judged, in section order. */
  notJudged: string[];
}

/** Counts the judged sections of an analysis and the share of the weight they carry. */
export function scoreComposition(
  analysis: Partial<Record<TSectionKey, { score: number | null } | undefined>>,
): TScoreComposition {
  let judged = 0;
  let weight = 0;
  let total = 0;
  const notJudged: string[] = [];
  for (const key of SECTION_KEYS) {
    total += SECTION_WEIGHTS[key];
    const score = analysis[key]?.score ?? null;
    if (score === null) {
      notJudged.push(SECTION_LABELS[key]);
      continue;
    }
    judged += 1;
    weight += SECTION_WEIGHTS[key];
  }
  return {
    judgedSections: judged,
    totalSections: SECTION_KEYS.length,
    judgedWeight: weight / total,
    notJudged,
  };
}

/**
 * Overall score 0-100: the weighted mean ({@link SECTION_WEIGHTS}) of the judged sections;
 * sections not judged (score null) are left out. Null when the judged sections carry less than
 * {@link OVERALL_SCORE_MIN_JUDGED_WEIGHT} of the total weight (none judged included).
 */
export function overallScore(analysis: TStructuredAnalysis): number | null {
  if (scoreComposition(analysis).judgedWeight < OVERALL_SCORE_MIN_JUDGED_WEIGHT) return null;
  let sum = 0;
  let weights = 0;
  for (const key of SECTION_KEYS) {
    const score = analysis[key].score;
    if (score === null) continue;
    sum += score * SECTION_WEIGHTS[key];
    weights += SECTION_WEIGHTS[key];
  }
  return weights === 0 ? null : clampScore(sum / weights);
}

/**
 * The overall score with its composition, as the results page, the PDF and the CLI state it:
 * '82/100 from 12 of 15 sections', or 'not scored: only 4 of 15 sections could be judged' when
 * `score` is null.
 */
export function overallScoreText(score: number | null, composition: TScoreComposition): string {
  const of = `${composition.judgedSections} of ${composition.totalSections} sections`;
  if (score === null)
    return composition.judgedSections === 0
      ? 'not scored: no section could be judged'
      : `not scored: only ${of} could be judged, less than half of what the score weighs`;
  return `${score}/100 from ${of}`;
}
