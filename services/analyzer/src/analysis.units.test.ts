import { describe, expect, it } from 'vitest';
import { UnrecoverableError } from '@aso/queue';
import { readChildListings } from './analysis.handler';
import { isFinalFailure } from './audit-failure.hook';
import { parseWorkerEnv, selectProvider } from './env';

const listing = (appId: string) => ({
  appId,
  storefront: 'us',
  appName: `App ${appId}`,
  subtitle: null,
  developer: 'Dev',
  category: 'Music',
  categoryRank: 'N/A',
  chartPosition: null,
  rating: '4.5',
  reviewCount: '10',
  ratingHistogram: null,
  description: '',
  iconUrl: '',
  previewVideoUrl: null,
  previewPosterUrl: null,
  previews: [],
  screenshots: {},
  inAppEvents: [],
  price: null,
  version: null,
  releaseNotes: null,
  languages: [],
  appStoreUrl: `https://apps.apple.com/us/app/id${appId}`,
  bundleId: null,
  ageRating: null,
  promotionalText: null,
  reviews: null,
  fetchedAt: '2026-01-01T00:00:00.000Z',
  sourceLayout: 'none',
  fieldSources: {},
  unknownFields: [],
});

describe('analyzer units', () => {
  it('reads children listings by app id, plain or under `listing`, skipping others', () => {
    const map = readChildListings({
      'p:scrape:a': listing('1'),
      'p:scrape:b': { listing: listing('2') },
      'p:scrape:c': { nope: true },
    });
    expect([...map.keys()]).toEqual(['1', '2']);
  });
  it('selects the provider: AI_PROVIDER, else openai with a key, else heuristic', () => {
    expect(selectProvider(parseWorkerEnv({}))).toBe('heuristic');
    expect(selectProvider(parseWorkerEnv({ OPENAI_API_KEY: 'k' }))).toBe('openai');
    expect(selectProvider(parseWorkerEnv({ OPENAI_API_KEY: 'k', AI_PROVIDER: 'heuristic' }))).toBe(
      'heuristic',
    );
    expect(() => selectProvider(parseWorkerEnv({ AI_PROVIDER: 'openai' }))).toThrow(
      /OPENAI_API_KEY/,
    );
    expect(() => parseWorkerEnv({ STALLED_INTERVAL_MS: '10' })).toThrow(/STALLED_INTERVAL_MS/);
  });
  it('tells a final failure from one BullMQ will retry', () => {
    const job = (attemptsMade: number) => ({ attemptsMade, opts: { attempts: 2 } });
    expect(isFinalFailure(job(1), new Error('boom'))).toBe(false);
    expect(isFinalFailure(job(2), new Error('boom'))).toBe(true);
    expect(isFinalFailure(job(1), new UnrecoverableError('bad'))).toBe(true);
    expect(isFinalFailure(job(1), new Error('child test:scrape:a:scrape:1 failed'))).toBe(true);
  });
});
