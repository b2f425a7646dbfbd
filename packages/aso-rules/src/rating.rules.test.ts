import { describe, expect, it } from 'vitest';
import {
  isHealthyRating,
  median,
  parseCount,
  parseRating,
  ratingPoints,
  ratingSection,
} from './rating.rules';
import { constructedListing } from './test-listing.helpers';

describe('rating: 4.3 is healthy', () => {
  it('4.29 is not healthy, 4.3 is', () => {
    expect(isHealthyRating(4.29)).toBe(false);
    expect(isHealthyRating(4.3)).toBe(true);
    expect(ratingPoints(4.29)).toBe(40);
    expect(ratingPoints(4.3)).toBe(15);
    expect(ratingPoints(4.5)).toBe(0);
  });
  it('section text says healthy or below', () => {
    expect(ratingSection(constructedListing({ rating: '4.29' }), []).analysis).toMatch(
      /below the healthy 4.3/,
    );
    expect(ratingSection(constructedListing({ rating: '4.3' }), []).analysis).toMatch(
      /healthy \(at or above 4.3\)/,
    );
  });
  it('review volume vs competitors and rating gaps', () => {
    const s = ratingSection(constructedListing({ rating: '4.52', reviewCount: '1472' }), [
      { appName: 'Big', rating: 4.78, reviewCount: 40_585_992 },
      { appName: 'Mid', rating: 4.47, reviewCount: 1289 },
    ]);
    // 4.52 >= 4.5 costs nothing; 1,472 ratings are 7% of the median (20,293,641): -10.
    expect(s.score).toBe(90);
    expect(s.rules.map((r) => [r.id, r.status, r.points])).toEqual([
      ['rating.has-ratings', 'passed', 0],
      ['rating.healthy', 'passed', 0],
      ['rating.volume', 'failed', 10],
    ]);
    // One decimal everywhere, as the store shows ratings.
    expect(s.analysis).toContain('Rated 4.5 from 1,472 ratings');
    expect(s.analysis).toContain('Big 4.8 (-0.3)');
    expect(s.analysis).toContain('Mid 4.5 (+0.0)');
  });
  it('no ratings -> 0; unreadable rating -> not judged', () => {
    expect(ratingSection(constructedListing({ rating: '0', reviewCount: '0' }), []).score).toBe(0);
    const unknown = ratingSection(constructedListing({ unknownFields: ['rating'] }), []);
    expect([unknown.score, unknown.confidence]).toEqual([null, 'low']);
    expect(unknown.rules.every((r) => r.status === 'not_judged')).toBe(true);
  });
  it('parsers', () => {
    expect(parseRating('4.8')).toBe(4.8);
    expect(parseRating('x')).toBeNull();
    expect(parseCount('1,289')).toBe(1289);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([1, 2, 3, 4])).toBe(2.5);
  });
});
