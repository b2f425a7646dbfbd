import type { TAppListing, TRuleOutcome, TSectionAnalysis } from '@aso/contracts';
import {
  failed,
  notApplicable,
  passed,
  notJudgedSection,
  unreadableWhy,
} from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import { HEALTHY_RATING } from './limits.constants';

/** Parses a rating text ('4.8') to stars 0-5; null when it is not a number. */
export function parseRating(text: string | null | undefined): number | null {
  if (text === null || text === undefined || text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 && n <= 5 ? n : null;
}

/** Parses a review count text ('36130486', '1,289') to an integer; null when it is not one. */
export function parseCount(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const n = Number(text.replace(/[,\s]/g, ''));
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
}

/**
 * True when `rating` is at or above 4.3 stars (docs/product.md#limits-and-constants: "rating at or
 * above 4.3 is healthy").
 */
export function isHealthyRating(rating: number): boolean {
  return rating >= HEALTHY_RATING;
}

/**
 * Points a rating loses (rule `rating.healthy`): >= 4.5 -> 0, >= 4.3 -> 15 (healthy,
 * docs/product.md#limits-and-constants), >= 4.0 -> 40, >= 3.5 -> 60, else 80.
 */
export function ratingPoints(rating: number): number {
  if (rating >= 4.5) return 0;
  if (isHealthyRating(rating)) return 15;
  if (rating >= 4.0) return 40;
  if (rating >= 3.5) return 60;
  return 80;
}

/** A rating as shown everywhere: one decimal ('4.78' -> '4.8'), as the App Store shows it. */
export function formatStars(rating: number): string {
  return rating.toFixed(1);
}

/** Median of non-empty `values`; null for []. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A competitor's rating and count, parsed. */
export interface TCompetitorRating {
  appName: string;
  rating: number | null;
  reviewCount: number | null;
}

/**
 * Rating section, rules `rating.*`: ratings exist, the rating is healthy (bands of
 * {@link ratingPoints}), the number of ratings is at least half the competitors' median.
 * Rating gaps to each competitor are stated (positive = ahead). A rating no source could read:
 * not judged.
 */
export function ratingSection(
  listing: Pick<TAppListing, 'rating' | 'reviewCount' | 'unknownFields' | 'storeData'>,
  competitors: readonly TCompetitorRating[],
): TSectionAnalysis {
  const rating = parseRating(listing.rating);
  const count = parseCount(listing.reviewCount);
  if (listing.unknownFields.includes('rating') || rating === null) {
    return notJudgedSection(
      'rating',
      `Not judged: the rating could not be read from the store (${unreadableWhy(listing, 'rating')}).`,
      'The rating could not be read.',
      {
        improvements: [
          'Ask satisfied users for a rating at a good moment (SKStoreReviewController).',
        ],
      },
    );
  }
  if (!count) {
    const rules = [
      failed('rating.has-ratings', 'No ratings in this storefront.', { reviewCount: 0 }),
      notApplicable('rating.healthy', 'There are no ratings.'),
      notApplicable('rating.volume', 'There are no ratings.'),
    ];
    return {
      analysis: 'The app has no ratings yet in this storefront.',
      improvements: [
        'Prompt for ratings after a successful moment in the app (SKStoreReviewController).',
      ],
      score: scoreOf(rules),
      confidence: 'high',
      rules,
      textSource: 'rules',
    };
  }
  const stars = formatStars(rating);
  const rules: TRuleOutcome[] = [
    passed('rating.has-ratings', `${count.toLocaleString('en-US')} ratings.`, {
      reviewCount: count,
    }),
  ];
  const points = ratingPoints(rating);
  rules.push(
    points === 0
      ? passed('rating.healthy', `Rated ${stars}.`, { rating: stars })
      : failed('rating.healthy', `Rated ${stars}.`, { rating: stars }, points),
  );
  const parts = [
    `Rated ${stars} from ${count.toLocaleString('en-US')} ratings: ${
      isHealthyRating(rating)
        ? `healthy (at or above ${HEALTHY_RATING})`
        : `below the healthy ${HEALTHY_RATING}`
    }.`,
  ];
  const improvements: string[] = [];
  if (!isHealthyRating(rating)) {
    improvements.push(
      'Find the causes of low ratings in recent reviews, fix them, and reply to critical reviews.',
    );
  }
  const gaps = competitors.filter((c) => c.rating !== null);
  if (gaps.length > 0) {
    parts.push(
      `Rating gaps: ${gaps
        .map((c) => {
          const d = Math.round((rating - c.rating!) * 10) / 10;
          return `${c.appName} ${formatStars(c.rating!)} (${d >= 0 ? '+' : ''}${d.toFixed(1)})`;
        })
        .join(', ')}.`,
    );
  }
  const med = median(competitors.map((c) => c.reviewCount).filter((n): n is number => n !== null));
  if (med !== null && med > 0) {
    const ratio = count / med;
    const vFacts = { reviewCount: count, competitorMedian: Math.round(med) };
    if (ratio < 0.5) {
      rules.push(
        failed('rating.volume', `${Math.round(ratio * 100)}% of the competitors' median.`, vFacts),
      );
      parts.push(
        `Review volume is ${Math.round(ratio * 100)}% of the competitors' median (${Math.round(med).toLocaleString('en-US')}).`,
      );
      improvements.push('Raise review volume with an in-app rating prompt shown to engaged users.');
    } else {
      rules.push(
        passed('rating.volume', `${Math.round(ratio * 100)}% of the competitors' median.`, vFacts),
      );
      parts.push(
        `Review volume is ${ratio >= 1 ? 'at or above' : 'close to'} the competitors' median.`,
      );
    }
  } else rules.push(notApplicable('rating.volume', 'No competitor rating counts to compare.'));
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: 'high',
    rules,
    textSource: 'rules',
  };
}
