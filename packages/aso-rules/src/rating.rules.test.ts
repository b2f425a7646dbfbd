import { describe, expect, it } from 'vitest';
import {
  isHealthyRating,
  median,
  parseCount,
  parseRating,
  ratingScore,
  ratingSection,
} from './rating.rules';
import { constructedListing } from './test-listing.helpers';

describe('rating: 4.3 is healthy', () => {
  it('4.29 is not healthy, 4.3 is', () => {
    expect(isHealthyRating(4.29)).toBe(false);
    expect(isHealthyRating(4.3)).toBe(true);
    expect(ratingScore(4.29)).toBe(60);
    expect(ratingScore(4.3)).toBe(85);
    expect(ratingScore(4.5)).toBe(100);
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
    expect(s.score).toBe(90);
    expect(s.analysis).toContain('Big 4.78 (-0.26)');
    expect(s.analysis).toContain('Mid 4.47 (+0.05)');
  });
  it('no ratings -> 0; unreadable rating -> low confidence', () => {
    expect(ratingSection(constructedListing({ rating: '0', reviewCount: '0' }), []).score).toBe(0);
    expect(ratingSection(constructedListing({ unknownFields: ['rating'] }), []).confidence).toBe(
      'low',
    );
  });
  it('parsers', () => {
    expect(parseRating('4.8')).toBe(4.8);
    expect(parseRating('x')).toBeNull();
    expect(parseCount('1,289')).toBe(1289);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([1, 2, 3, 4])).toBe(2.5);
  });
});
