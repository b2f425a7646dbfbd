import { describe, expect, it } from 'vitest';
import {
  LISTING_FIELDS,
  SECTION_INPUT_FIELDS,
  SECTION_KEYS,
  type TAppListing,
  type TListingField,
  type TStoreData,
} from '@aso/contracts';
import { analyzeListing } from './audit.analyzer';
import { overallScore, overallScoreText, scoreComposition, SECTION_WEIGHTS } from './audit.scoring';
import { SECTION_LABELS } from './sections.constants';
import { unreadRuleInputs } from './judged.policy';
import { constructedListing, shots } from './test-listing.helpers';

const REASON = 'not read from the 2025 page layout';

/** A CONSTRUCTED, fully read listing: every section can be judged. */
const full = constructedListing({
  appName: 'Tune Box: Music Player',
  subtitle: 'Offline songs and playlists',
  description:
    'Tune Box plays your music offline, with playlists and radio for every mood. '.repeat(12),
  promotionalText: 'New: playlists for every mood.',
  category: 'Music',
  categoryRank: '#12 in Music',
  chartPosition: { position: 12, genreName: 'Music', chart: 'top-free' },
  rating: '4.6',
  reviewCount: '12000',
  ratingHistogram: { '1': 500, '2': 200, '3': 800, '4': 2500, '5': 8000 },
  screenshots: {
    iphone: { deviceType: 'iphone_d74', screenshots: shots(10) },
    ipad: { deviceType: 'ipadPro_2018', screenshots: shots(5, 2048, 2732) },
  },
  previews: [
    {
      device: 'iphone',
      deviceType: 'iphone_d74',
      videoUrl: 'https://example.invalid/v.m3u8',
      posterUrl: null,
    },
  ],
  previewVideoUrl: 'https://example.invalid/v.m3u8',
  versionHistory: [
    {
      version: '2.0',
      releaseDate: '2025-12-20',
      releaseNotes: 'Offline playlists and a new radio tab.',
    },
  ],
  releaseNotes: 'Offline playlists and a new radio tab.',
  languages: ['English', 'French'],
  fileSizeBytes: 80_000_000,
  supportedDevices: ['iphone', 'ipad'],
  reviews: {
    count: 10,
    averageRecent: 4.5,
    distribution: { '1': 0, '2': 1, '3': 0, '4': 3, '5': 6 },
    newestAt: '2025-12-30T00:00:00Z',
    oldestAt: '2025-12-01T00:00:00Z',
    recent: Array.from({ length: 10 }, (_, i) => ({
      rating: i === 0 ? 2 : 5,
      title: 'Nice',
      content: 'Works well offline.',
      version: '2.0',
      updatedAt: '2025-12-30T00:00:00Z',
    })),
  },
});

/** `listing` with `fields` unreadable, as the scraper records it (store data + unknownFields). */
function unreadable(listing: TAppListing, fields: readonly TListingField[]): TAppListing {
  const storeData: TStoreData = {
    layout: '2025',
    pageLanguage: 'ko',
    requestedLanguage: null,
    sources: {
      lookup: { status: 'ok', detail: null },
      page: { status: 'ok', detail: null },
      reviews: { status: 'ok', detail: null },
    },
    fields: Object.fromEntries(
      LISTING_FIELDS.map((f) => [
        f,
        fields.includes(f)
          ? { state: 'unreadable', source: null, reason: REASON }
          : { state: 'read', source: 'page:2025', reason: null },
      ]),
    ),
  };
  return { ...listing, unknownFields: [...fields], storeData };
}

describe('no score without data', () => {
  const judged = analyzeListing({ main: full, competitors: [], keywords: 'music,radio' });

  it('a fully read listing is judged in every section but the icon (whose design is not measured)', () => {
    const notJudged = SECTION_KEYS.filter((k) => judged.structuredAnalysis[k].score === null);
    expect(notJudged).toEqual(['icon']);
    expect(judged.structuredAnalysis.icon.analysis).toMatch(/^Not judged: an icon is shown/);
  });

  // Every section whose store inputs could not be read: no number, no improvement, no
  // recommendation, left out of the overall score, and the text says what was not read.
  it.each(SECTION_KEYS.filter((k) => SECTION_INPUT_FIELDS[k].length > 0 && k !== 'icon'))(
    '%s is not judged when its inputs could not be read',
    (key) => {
      const inputs = SECTION_INPUT_FIELDS[key];
      const main = unreadable(full, inputs);
      const a = analyzeListing({ main, competitors: [], keywords: 'music,radio' });
      const s = a.structuredAnalysis[key];
      // No verdict reads an input that was not read.
      for (const r of s.rules.filter((o) => o.status === 'passed' || o.status === 'failed'))
        expect(unreadRuleInputs(r.id, main)).toEqual([]);
      if (key === 'localization') {
        // Only the texts' language (read from the name and description) is measured.
        expect(s.rules.filter((o) => o.status === 'passed').map((o) => o.id)).toEqual([
          'localization.texts-language',
        ]);
        expect(s.score).toBe(100);
        return;
      }
      expect(s.score).toBeNull();
      expect(s.confidence).toBe('low');
      expect(s.improvements).toEqual([]);
      expect(s.analysis).toMatch(/^Not judged: /);
      expect(a.recommendations.map((r) => r.section)).not.toContain(key);
      expect(scoreComposition(a.structuredAnalysis).notJudged).toContain(SECTION_LABELS[key]);
    },
  );

  it('the icon is not judged when it could not be read, and fails (0/100) only when the store shows none', () => {
    const a = analyzeListing({
      main: unreadable(full, ['iconUrl']),
      competitors: [],
      keywords: '',
    });
    expect(a.structuredAnalysis.icon.score).toBeNull();
    expect(a.structuredAnalysis.icon.improvements).toEqual([]);
    const none = analyzeListing({ main: { ...full, iconUrl: '' }, competitors: [], keywords: '' });
    expect(none.structuredAnalysis.icon.score).toBe(0);
  });

  it('unreadable screenshots (a kr listing) score nothing and recommend no upload', () => {
    const main = unreadable({ ...full, storefront: 'kr', screenshots: {} }, ['screenshots']);
    const a = analyzeListing({ main, competitors: [], keywords: '' });
    expect(a.structuredAnalysis.screenshots).toMatchObject({ score: null, improvements: [] });
    expect(a.structuredAnalysis.screenshots.analysis).toBe(
      `Not judged: the screenshots could not be read from the store (${REASON}).`,
    );
    expect(JSON.stringify(a.recommendations)).not.toMatch(/Upload iPhone screenshots/);
  });

  it('reviews with no histogram and 0 recent reviews are not judged (not 100/100)', () => {
    const main = {
      ...full,
      ratingHistogram: null,
      reviews: { ...full.reviews!, count: 0, recent: [], averageRecent: null },
    };
    const s = analyzeListing({ main, competitors: [], keywords: '' }).structuredAnalysis.reviews;
    expect(s.score).toBeNull();
    expect(s.analysis).toMatch(/^Not judged: nothing this section scores could be measured/);
    expect(s.analysis).toContain('The reviews feed shows 0 recent reviews.');
  });

  it('localization says it measured the supported languages, not store listing localizations', () => {
    const main = { ...full, languages: Array.from({ length: 63 }, (_, i) => `Language ${i}`) };
    const s = analyzeListing({ main, competitors: [], keywords: '' }).structuredAnalysis
      .localization;
    expect(s.analysis).toMatch(
      /^The app supports 63 languages \(.*\); store listing localizations in other storefronts were not read\./,
    );
  });

  it('a rule that reads an unreadable field is left out; the rest of the section is still scored', () => {
    // The subtitle could not be read: the description's opening rule reads it.
    const a = analyzeListing({
      main: unreadable(full, ['subtitle']),
      competitors: [],
      keywords: 'music',
    });
    const d = a.structuredAnalysis.description;
    expect(d.rules.find((r) => r.id === 'description.opening')?.status).toBe('not_judged');
    expect(d.score).not.toBeNull();
    expect(d.analysis).toContain(
      `Rules left out of the score: the subtitle could not be read from the store (${REASON}).`,
    );
  });
});

describe('the overall score states its composition', () => {
  it('counts the judged sections and their weight', () => {
    const a = analyzeListing({ main: full, competitors: [], keywords: 'music,radio' });
    const c = scoreComposition(a.structuredAnalysis);
    const total = SECTION_KEYS.reduce((s, k) => s + SECTION_WEIGHTS[k], 0);
    expect(c).toEqual({
      judgedSections: 14,
      totalSections: 15,
      judgedWeight: (total - SECTION_WEIGHTS.icon) / total,
      notJudged: ['Icon'],
    });
    expect(overallScoreText(a.overallScore, c)).toBe(
      `${a.overallScore}/100 from 14 of 15 sections`,
    );
  });

  it('is not shown when less than half of the weight was judged', () => {
    // Lookup-only read with nothing but the name: most of the weight is not judged.
    const main = unreadable(full, [
      'subtitle',
      'screenshots',
      'previews',
      'rating',
      'reviewCount',
      'ratingHistogram',
      'reviews',
      'inAppEvents',
      'category',
    ]);
    const a = analyzeListing({ main, competitors: [], keywords: '' });
    const c = scoreComposition(a.structuredAnalysis);
    expect(c.judgedWeight).toBeLessThan(0.5);
    expect(c.judgedSections).toBeGreaterThan(0);
    expect(a.overallScore).toBeNull();
    expect(overallScore(a.structuredAnalysis)).toBeNull();
    expect(overallScoreText(null, c)).toBe(
      `not scored: only ${c.judgedSections} of 15 sections could be judged, less than half of what the score weighs`,
    );
  });

  it('with no section judged', () => {
    const none = scoreComposition({});
    expect(none.judgedSections).toBe(0);
    expect(overallScoreText(null, none)).toBe('not scored: no section could be judged');
  });
});
