import type { TAppListing, TSectionAnalysis } from '@aso/contracts';
import { HEALTHY_RATING } from './limits.constants';
import { clampScore } from './text.rules';

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

/** True when `rating` is at or above 4.3 stars (spec section 9: "rating at or above 4.3 is healthy"). */
export function isHealthyRating(rating: number): boolean {
  return rating >= HEALTHY_RATING;
}

/**
 * Score 0-100 of a rating: >= 4.5 -> 100, >= 4.3 -> 85 (healthy, spec section 9), >= 4.0 -> 60,
 * >= 3.5 -> 40, else 20.
 */
export function ratingScore(rating: number): number {
  if (rating >= 4.5) return 100;
  if (isHealthyRating(rating)) return 85;
  if (rating >= 4.0) return 60;
  if (rating >= 3.5) return 40;
  return 20;
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
 * Rating section: score from {@link ratingScore}; minus 10 when the review volume is under half
 * the competitors' median (fewer ratings make the average less trusted and the app less
 * visible). Rating gaps to each competitor are stated (positive = ahead). No ratings: score 0.
 * A rating no source could read: score 50, confidence 'low'.
 */
export function ratingSection(
  listing: Pick<TAppListing, 'rating' | 'reviewCount' | 'unknownFields'>,
  competitors: readonly TCompetitorRating[],
): TSectionAnalysis {
  const rating = parseRating(listing.rating);
  const count = parseCount(listing.reviewCount);
  if (listing.unknownFields.includes('rating') || rating === null) {
    return {
      analysis: 'The rating could not be read from the store (low confidence).',
      improvements: [
        'Ask satisfied users for a rating at a good moment (SKStoreReviewController).',
      ],
      score: 50,
      confidence: 'low',
    };
  }
  if (!count) {
    return {
      analysis: 'The app has no ratings yet in this storefront.',
      improvements: [
        'Prompt for ratings after a successful moment in the app (SKStoreReviewController).',
      ],
      score: 0,
      confidence: 'high',
    };
  }
  const parts = [
    `Rated ${rating} from ${count.toLocaleString('en-US')} ratings: ${
      isHealthyRating(rating)
        ? `healthy (at or above ${HEALTHY_RATING})`
        : `below the healthy ${HEALTHY_RATING}`
    }.`,
  ];
  const improvements: string[] = [];
  let score = ratingScore(rating);
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
          const d = Math.round((rating - c.rating!) * 100) / 100;
          return `${c.appName} ${c.rating} (${d >= 0 ? '+' : ''}${d})`;
        })
        .join(', ')}.`,
    );
  }
  const med = median(competitors.map((c) => c.reviewCount).filter((n): n is number => n !== null));
  if (med !== null && med > 0) {
    const ratio = count / med;
    if (ratio < 0.5) {
      score -= 10;
      parts.push(
        `Review volume is ${Math.round(ratio * 100)}% of the competitors' median (${Math.round(med).toLocaleString('en-US')}).`,
      );
      improvements.push('Raise review volume with an in-app rating prompt shown to engaged users.');
    } else {
      parts.push(
        `Review volume is ${ratio >= 1 ? 'at or above' : 'close to'} the competitors' median.`,
      );
    }
  }
  return { analysis: parts.join(' '), improvements, score: clampScore(score), confidence: 'high' };
}
