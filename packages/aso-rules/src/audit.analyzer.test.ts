import { describe, expect, it } from 'vitest';
import { SECTION_KEYS, ZStructuredAnalysis } from '@aso/contracts';
import {
  analyzeListing,
  buildRecommendations,
  competitorScreenshotAnalysis,
} from './audit.analyzer';
import { overallScore, SECTION_WEIGHTS } from './audit.scoring';
import { videoSection } from './media.rules';
import { constructedListing, shots } from './test-listing.helpers';

const main = constructedListing({
  appId: '10',
  appName: 'Tune Box: Music Player',
  subtitle: 'Offline songs and playlists',
  rating: '4.29',
  reviewCount: '500',
  screenshots: { iphone: { deviceType: 'iphone_6_5', screenshots: shots(3) } },
});
const rival = constructedListing({
  appId: '11',
  appName: 'Rival Music',
  subtitle: 'Playlists for everyone',
  rating: '4.7',
  reviewCount: '90000',
  screenshots: { iphone: { deviceType: 'iphone_d74', screenshots: shots(10) } },
  previews: [
    {
      device: 'iphone',
      deviceType: 'iphone_d74',
      videoUrl: 'https://example.invalid/v.m3u8',
      posterUrl: null,
    },
  ],
  previewVideoUrl: 'https://example.invalid/v.m3u8',
});

describe('analyzeListing (constructed listings)', () => {
  const a = analyzeListing({ main, competitors: [rival], keywords: 'music,radio' });

  it('covers every section key with a valid analysis', () => {
    expect(Object.keys(a.structuredAnalysis).sort()).toEqual([...SECTION_KEYS].sort());
    expect(() => ZStructuredAnalysis.parse(a.structuredAnalysis)).not.toThrow();
  });
  it('is deterministic', () => {
    expect(analyzeListing({ main, competitors: [rival], keywords: 'music,radio' })).toEqual(a);
  });
  it('overall score is the weighted mean of the judged sections', () => {
    const judged = SECTION_KEYS.filter((k) => a.structuredAnalysis[k].score !== null);
    // The constructed listing has no release date, ratings histogram, reviews, size or device
    // list; its icon is shown, and its design is not measured.
    expect(SECTION_KEYS.filter((k) => !judged.includes(k))).toEqual([
      'icon',
      'updates',
      'reviews',
      'appSize',
      'compatibility',
    ]);
    const expected = Math.round(
      judged.reduce((s, k) => s + a.structuredAnalysis[k].score! * SECTION_WEIGHTS[k], 0) /
        judged.reduce((s, k) => s + SECTION_WEIGHTS[k], 0),
    );
    expect(a.overallScore).toBe(expected);
    expect(overallScore(a.structuredAnalysis)).toBe(expected);
  });
  it('recommendations are prioritised by possible gain and name section and effect', () => {
    expect(a.recommendations.length).toBeGreaterThan(0);
    a.recommendations.forEach((r, i) => {
      expect(r.priority).toBe(i + 1);
      expect(r.expectedEffect.length).toBeGreaterThan(10);
      expect(SECTION_KEYS).toContain(r.section);
    });
    const gains = a.recommendations.map(
      (r) => SECTION_WEIGHTS[r.section] * (100 - a.structuredAnalysis[r.section].score!),
    );
    expect([...gains].sort((x, y) => y - x)).toEqual(gains);
    expect(buildRecommendations(a.structuredAnalysis, 2)).toHaveLength(2);
  });
  it('compares with competitors: rating gap, screenshots and video', () => {
    expect(a.structuredAnalysis.rating.analysis).toContain('Rival Music 4.7 (-0.4)');
    expect(a.structuredAnalysis.screenshots.analysis).toContain('Rival Music (10)');
    expect(a.structuredAnalysis.video.analysis).toContain(
      'Competitors with a preview video: Rival Music',
    );
    expect(a.competitorScreenshotAnalyses).toHaveLength(1);
    expect(a.competitorScreenshotAnalyses[0]).toMatch(
      /^Rival Music shows 10 iPhone screenshots, portrait \(7 more than Tune Box: Music Player\)/,
    );
    expect(a.competitorScreenshotAnalyses[0]).toMatch(
      /To improve: add 7 screenshots to match Rival Music; add a preview video/,
    );
    expect(a.facts.competitors[0]).toMatchObject({
      sharedWords: ['music', 'playlist'],
      iphoneScreenshots: 10,
      hasVideo: true,
    });
  });
});

describe('fields no source could read (lookup API only, no product page)', () => {
  const lookupOnly = constructedListing({
    appId: '20',
    appName: 'Rivian',
    subtitle: null,
    unknownFields: ['subtitle', 'categoryRank', 'previews', 'inAppEvents'],
    categoryRank: 'N/A',
    screenshots: { iphone: { deviceType: 'lookup:iphone', screenshots: shots(7, 392, 696) } },
  });
  it('are not judged: no score, low confidence, left out of the overall score', () => {
    const a = analyzeListing({ main: lookupOnly, competitors: [rival], keywords: '' });
    for (const key of ['subtitle', 'video', 'inAppEvents', 'category', 'keywords'] as const) {
      expect([key, a.structuredAnalysis[key].confidence, a.structuredAnalysis[key].score]).toEqual([
        key,
        'low',
        null,
      ]);
      expect(a.structuredAnalysis[key].rules.every((r) => r.status === 'not_judged')).toBe(true);
    }
    const withPlaceholder = { ...a.structuredAnalysis };
    expect(overallScore(withPlaceholder)).toBe(a.overallScore);
    expect(a.structuredAnalysis.subtitle.analysis).toMatch(/could not be read/);
    expect(a.facts.previewVideos).toBe(0);
  });
  it('say why from the store data record, e.g. a page layout that does not carry the field', () => {
    const reason = 'not read from the 2025 page layout';
    const unreadable = { state: 'unreadable', source: null, reason } as const;
    const a = analyzeListing({
      main: {
        ...lookupOnly,
        storeData: {
          layout: '2025',
          pageLanguage: 'ko',
          requestedLanguage: null,
          sources: {
            lookup: { status: 'not_found', detail: null },
            page: { status: 'ok', detail: null },
            reviews: { status: 'ok', detail: null },
          },
          fields: { subtitle: unreadable, previews: unreadable, inAppEvents: unreadable },
        },
      },
      competitors: [rival],
      keywords: '',
    });
    for (const key of ['subtitle', 'video', 'inAppEvents'] as const) {
      expect(a.structuredAnalysis[key].analysis).toContain(
        `could not be read from the store (${reason})`,
      );
    }
    expect(JSON.stringify(a.structuredAnalysis)).not.toContain('no product page');
  });
  it("a competitor's unknown video is said so, not counted as missing", () => {
    const text = competitorScreenshotAnalysis(lookupOnly, main);
    expect(text).toContain('its preview video could not be read');
    expect(
      videoSection(main, [{ appName: 'Rivian', iphoneCount: 7, hasVideo: null }]).analysis,
    ).toBe('The listing has no app preview video.');
  });
});
