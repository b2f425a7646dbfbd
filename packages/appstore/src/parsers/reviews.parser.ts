import {
  RECENT_REVIEW_MAX_CHARS,
  type TRatingHistogram,
  type TReviewsSummary,
} from '@aso/contracts';
import { asArray, asRecord, cleanText, toNumber } from './text.helpers';

/** One customer review of the RSS feed. `rating` is 1-5 stars; `updatedAt` ISO 8601 UTC. */
export interface TCustomerReview {
  id: string;
  author: string | null;
  rating: number;
  title: string | null;
  content: string | null;
  version: string | null;
  updatedAt: string | null;
}

/** A parsed customer-reviews RSS JSON page. */
export interface TReviewsFeed {
  reviews: TCustomerReview[];
  summary: TReviewsSummary;
}

function label(node: unknown): string | null {
  return cleanText(asRecord(node)?.label);
}

function isoOrNull(value: string | null): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * Summary of reviews: how many, the mean star value rounded to 2 decimals (null when there are
 * none), the count per star value, the newest/oldest review time and the reviews themselves
 * (text cut at `RECENT_REVIEW_MAX_CHARS` characters).
 */
export function summarizeReviews(reviews: TCustomerReview[]): TReviewsSummary {
  const distribution: TRatingHistogram = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  let sum = 0;
  for (const review of reviews) {
    distribution[String(review.rating) as keyof TRatingHistogram] += 1;
    sum += review.rating;
  }
  const times = reviews
    .map((r) => (r.updatedAt ? Date.parse(r.updatedAt) : Number.NaN))
    .filter((t) => !Number.isNaN(t));
  return {
    count: reviews.length,
    averageRecent: reviews.length === 0 ? null : Math.round((sum / reviews.length) * 100) / 100,
    distribution,
    newestAt: times.length === 0 ? null : new Date(Math.max(...times)).toISOString(),
    oldestAt: times.length === 0 ? null : new Date(Math.min(...times)).toISOString(),
    recent: reviews.map((r) => ({
      rating: r.rating,
      title: r.title,
      content:
        r.content === null
          ? null
          : Array.from(r.content).slice(0, RECENT_REVIEW_MAX_CHARS).join(''),
      version: r.version,
      updatedAt: r.updatedAt,
    })),
  };
}

/**
 * Parses the customer-reviews RSS JSON (`{ feed: { entry: [...] } }`, LAYOUTS.md). `entry` may
 * be an array, a single object (one review) or absent (no reviews). Entries without a 1-5
 * `im:rating` (older feeds put an app entry first) are skipped. Throws a `SyntaxError` on text
 * that is not JSON and a `TypeError` when there is no `feed` object.
 */
export function parseReviewsFeed(text: string): TReviewsFeed {
  const feed = asRecord(asRecord(JSON.parse(text) as unknown)?.feed);
  if (!feed) throw new TypeError('expected a JSON object with a "feed" object');
  const entries = Array.isArray(feed.entry) ? feed.entry : feed.entry ? [feed.entry] : [];
  const reviews: TCustomerReview[] = asArray(entries).flatMap((item) => {
    const entry = asRecord(item);
    const rating = toNumber(label(entry?.['im:rating']));
    if (!entry || rating === null || !Number.isInteger(rating) || rating < 1 || rating > 5) {
      return [];
    }
    return [
      {
        id: label(entry.id) ?? '',
        author: label(asRecord(entry.author)?.name),
        rating,
        title: label(entry.title),
        content: label(entry.content),
        version: label(entry['im:version']),
        updatedAt: isoOrNull(label(entry.updated)),
      },
    ];
  });
  return { reviews, summary: summarizeReviews(reviews) };
}
