/**
 * The rules on real recorded listings (lookup, reviews feed, and Spotify's Ember page), with
 * the exact verdict of every rule of the sections they feed. Integration project: reads files.
 */
import { describe, expect, it } from 'vitest';
import type { TSectionKey } from '@aso/contracts';
import { analyzeListing } from '../src/audit.analyzer';
import { complaintTerms, citedVersions } from '../src/reviews.rules';
import { recordedListing } from './recorded-listings';

type TVerdicts = Array<[string, string, number]>;

const verdicts = (
  app: Parameters<typeof recordedListing>[0],
  key: TSectionKey,
  withPage = false,
) => {
  const s = analyzeListing({ main: recordedListing(app, withPage), competitors: [], keywords: '' })
    .structuredAnalysis[key];
  return {
    score: s.score,
    rules: s.rules.map((r): TVerdicts[number] => [r.id, r.status, r.points]),
  };
};

describe.each([
  [
    'spotify',
    false,
    'description',
    90,
    [
      ['description.present', 'passed', 0],
      ['description.length', 'passed', 0],
      ['description.opening', 'not_judged', 0],
      ['description.repeated-phrases', 'failed', 10],
      ['description.promotional-text', 'not_applicable', 0],
    ],
  ],
  [
    'spotify',
    true,
    'description',
    85,
    [
      ['description.present', 'passed', 0],
      ['description.length', 'passed', 0],
      ['description.opening', 'passed', 0],
      ['description.repeated-phrases', 'failed', 10],
      ['description.promotional-text', 'failed', 5],
    ],
  ],
  [
    'rivian',
    false,
    'description',
    80,
    [
      ['description.present', 'passed', 0],
      ['description.length', 'failed', 20],
      ['description.opening', 'not_judged', 0],
      ['description.repeated-phrases', 'passed', 0],
      ['description.promotional-text', 'not_applicable', 0],
    ],
  ],
  [
    'rivian',
    false,
    'updates',
    90,
    [
      ['updates.recent-release', 'passed', 0],
      ['updates.cadence', 'not_applicable', 0],
      ['updates.release-notes', 'failed', 10],
    ],
  ],
  [
    'spotify',
    true,
    'updates',
    90,
    [
      ['updates.recent-release', 'passed', 0],
      ['updates.cadence', 'passed', 0],
      ['updates.release-notes', 'failed', 10],
    ],
  ],
  [
    'tiktok',
    false,
    'updates',
    100,
    [
      ['updates.recent-release', 'passed', 0],
      ['updates.cadence', 'not_applicable', 0],
      ['updates.release-notes', 'passed', 0],
    ],
  ],
  [
    'todo',
    false,
    'localization',
    90,
    [
      ['localization.storefront-language', 'passed', 0],
      ['localization.texts-language', 'not_judged', 0],
      ['localization.language-count', 'failed', 10],
    ],
  ],
  [
    'rivian',
    false,
    'localization',
    100,
    [
      ['localization.storefront-language', 'passed', 0],
      ['localization.texts-language', 'not_judged', 0],
      ['localization.language-count', 'passed', 0],
    ],
  ],
  [
    'rivian',
    false,
    'reviews',
    60,
    [
      ['reviews.histogram', 'not_applicable', 0],
      ['reviews.recent-negative-share', 'failed', 30],
      ['reviews.recurring-complaints', 'failed', 10],
    ],
  ],
  [
    'spotify',
    true,
    'reviews',
    100,
    [
      ['reviews.histogram', 'passed', 0],
      ['reviews.recent-negative-share', 'passed', 0],
      ['reviews.recurring-complaints', 'passed', 0],
    ],
  ],
  [
    'todo',
    false,
    'reviews',
    90,
    [
      ['reviews.histogram', 'not_applicable', 0],
      ['reviews.recent-negative-share', 'passed', 0],
      ['reviews.recurring-complaints', 'failed', 10],
    ],
  ],
  ['tiktok', false, 'appSize', 80, [['appSize.cellular-limit', 'failed', 20]]],
  ['todo', false, 'appSize', 100, [['appSize.cellular-limit', 'passed', 0]]],
  ['spotify', true, 'appSize', 100, [['appSize.cellular-limit', 'passed', 0]]],
  [
    'tiktok',
    false,
    'compatibility',
    80,
    [
      ['compatibility.ipad', 'passed', 0],
      ['compatibility.apple-watch', 'failed', 10],
      ['compatibility.mac', 'failed', 5],
      ['compatibility.vision', 'failed', 5],
    ],
  ],
  [
    'rivian',
    false,
    'compatibility',
    90,
    [
      ['compatibility.ipad', 'passed', 0],
      ['compatibility.apple-watch', 'passed', 0],
      ['compatibility.mac', 'failed', 5],
      ['compatibility.vision', 'failed', 5],
    ],
  ],
] as Array<[Parameters<typeof recordedListing>[0], boolean, TSectionKey, number, TVerdicts]>)(
  '%s (page: %s) %s',
  (app, withPage, key, score, rules) => {
    it(`scores ${score} with these verdicts`, () => {
      expect(verdicts(app, key, withPage)).toEqual({ score, rules });
    });
  },
);

describe('texts of the recorded listings', () => {
  it('states the facts each verdict read', () => {
    const rivian = analyzeListing({
      main: recordedListing('rivian'),
      competitors: [],
      keywords: '',
    });
    const s = rivian.structuredAnalysis;
    expect(s.updates.analysis).toContain(
      'Version 3.13.1 was released on 2026-06-19, 4 days before the store data was read (2026-06-24), not counted to today.',
    );
    expect(s.updates.analysis).toContain('("Bug fixes and improvements.")');
    expect(s.appSize.analysis).toContain("The download is 335.2 MB. It is over Apple's 200 MB");
    expect(s.compatibility.analysis).toBe(
      'The store lists the app for iPhone, iPad and Apple Watch. It requires iOS 18.0 or later.',
    );
    expect(s.reviews.analysis).toContain(
      'Of the 50 most recent reviews, 35 (70%) give 1 or 2 stars.',
    );
    expect(s.localization.analysis).toBe(
      'The app supports 2 languages (English, French); store listing localizations in other storefronts were not read. The name, subtitle and description are written in English. Rules left out of the score: the subtitle could not be read from the store (product page not read).',
    );
  });

  it('complaint terms of the negative reviews: deterministic counts, quotes and versions', () => {
    const reviews = recordedListing('rivian').reviews!.recent!;
    const terms = complaintTerms(reviews, 'us', 'Rivian');
    expect(terms.map((t) => [t.term, t.reviews])).toEqual([
      ['car', 12],
      ['update', 10],
      ['work', 10],
      ['vehicle', 9],
      ['charging', 8],
    ]);
    for (const t of terms) {
      expect(t.quote.toLowerCase()).toContain(t.term);
      expect(Array.from(t.quote).length).toBeLessThanOrEqual(120);
    }
    expect(citedVersions(reviews).slice(0, 3)).toEqual([
      { version: '3.8.1', reviews: 11 },
      { version: '3.9.0', reviews: 8 },
      { version: '3.10.0', reviews: 4 },
    ]);
  });
});
