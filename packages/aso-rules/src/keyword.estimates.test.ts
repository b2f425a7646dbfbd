import { describe, expect, it } from 'vitest';
import {
  estimateDifficulty,
  estimatePopularity,
  textNgrams,
  titleMatch,
  type TEstimateApp,
} from './keyword.estimates';

const NOW = Date.parse('2026-07-01T00:00:00Z');
const app = (
  name: string,
  ratingCount: number,
  extra: Partial<TEstimateApp> = {},
): TEstimateApp => ({
  name,
  developer: name,
  rating: 4.5,
  ratingCount,
  releasedAt: '2016-07-01T00:00:00Z',
  updatedAt: '2026-06-01T00:00:00Z',
  ...extra,
});

describe('titleMatch', () => {
  it('tells exact, broad, partial and no matches on whole words', () => {
    expect(titleMatch('photo sharing', 'Photo Sharing & Chat', 'us')).toBe('exact');
    expect(titleMatch('photo sharing', 'Sharing your Photo', 'us')).toBe('broad');
    expect(titleMatch('photo sharing', 'Photo Editor', 'us')).toBe('partial');
    expect(titleMatch('photo', 'Photography Pro', 'us')).toBe('none');
    expect(titleMatch('ışık', 'IŞIK Lamba', 'tr')).toBe('exact');
  });
});

describe('estimates', () => {
  const strong = Array.from({ length: 10 }, (_, i) =>
    app(i < 5 ? `Music Player ${i}` : `Tunes ${i}`, 2_000_000 / (i + 1)),
  );
  const weak = Array.from({ length: 3 }, (_, i) =>
    app(`Obscure ${i}`, 12, { updatedAt: '2021-01-01T00:00:00Z', rating: 3 }),
  );

  it('rates a broad term with strong, matching leaders above a narrow one', () => {
    const broad = estimatePopularity({
      term: 'music player',
      storefront: 'us',
      resultCount: 200,
      top: strong,
      now: NOW,
    });
    const narrow = estimatePopularity({
      term: 'left handed ukulele chord trainer',
      storefront: 'us',
      resultCount: 3,
      top: weak,
      now: NOW,
    });
    expect(broad.label).toBe('estimate');
    expect(broad.value).toBeGreaterThan(60);
    expect(narrow.value).toBeLessThan(20);
    expect(broad.signals.map((s) => s.name)).toEqual([
      'resultCount',
      'leaderRatings',
      'titleMatches',
      'termLength',
    ]);
    expect(broad.signals.reduce((a, s) => a + s.weight, 0)).toBeCloseTo(1);
    expect(broad.signals.find((s) => s.name === 'resultCount')?.value).toBe(100);
    expect(narrow.signals.find((s) => s.name === 'termLength')?.value).toBe(10);
  });

  it('rates the difficulty of strong, maintained, targeting leaders above weak stale ones', () => {
    const hard = estimateDifficulty({
      term: 'music player',
      storefront: 'us',
      resultCount: 200,
      top: strong,
      now: NOW,
    });
    const easy = estimateDifficulty({
      term: 'ukulele',
      storefront: 'us',
      resultCount: 3,
      top: weak,
      now: NOW,
    });
    expect(hard.value).toBeGreaterThan(easy.value + 30);
    expect(hard.signals.reduce((a, s) => a + s.weight, 0)).toBeCloseTo(1);
    expect(easy.signals.find((s) => s.name === 'updateRecency')?.value).toBe(0);
    expect(hard.signals.find((s) => s.name === 'updateRecency')?.value).toBe(100);
    expect(hard.signals.find((s) => s.name === 'averageRating')?.value).toBe(90);
  });

  it('gives a term without results popularity 1 and difficulty 0', () => {
    const input = { term: 'zzqx', storefront: 'us', resultCount: 0, top: [], now: NOW };
    expect(estimatePopularity(input).value).toBe(1);
    expect(estimateDifficulty(input).value).toBe(0);
  });

  it('one publisher holding the top 10 scores full concentration', () => {
    const same = strong.map((a) => ({ ...a, developer: 'Brand Inc.' }));
    const d = estimateDifficulty({
      term: 'brand',
      storefront: 'us',
      resultCount: 50,
      top: same,
      now: NOW,
    });
    expect(d.signals.find((s) => s.name === 'publisherConcentration')?.value).toBe(100);
  });
});

describe('textNgrams', () => {
  it('lists 1-3 word runs without stop words at their ends, most frequent first', () => {
    const grams = textNgrams(['Music Player for Podcasts', 'Podcast & Music Player'], 'us');
    expect(grams.slice(0, 3)).toEqual(['music', 'music player', 'player']);
    expect(grams).toContain('podcasts');
    expect(grams).not.toContain('for');
    expect(grams).not.toContain('player for');
  });
});
