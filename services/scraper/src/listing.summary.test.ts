import { describe, expect, it } from 'vitest';
import { ZAppListing, type TAppListing } from '@aso/contracts';
import {
  collectScreenshotSets,
  summariseInAppEvents,
  summariseMetadata,
  summarisePreviews,
  summariseScreenshots,
} from './listing.summary';

/** CONSTRUCTED listing (not store data): a small app with one of everything. */
function constructedListing(overrides: Partial<TAppListing> = {}): TAppListing {
  const shot = (w: number, h: number, i: number) => ({
    url: `https://img.test/${i}.jpg`,
    width: w,
    height: h,
  });
  return ZAppListing.parse({
    appId: '123',
    storefront: 'us',
    appName: 'Example Notes',
    subtitle: 'Write things down',
    developer: 'Example Inc.',
    category: 'Productivity',
    categoryRank: '#7 in Productivity',
    chartPosition: { position: 7, genreName: 'Productivity', chart: 'top-free' },
    rating: '4.65',
    reviewCount: '1234',
    ratingHistogram: null,
    description: 'Notes.',
    iconUrl: 'https://img.test/icon.png',
    previewVideoUrl: 'https://video.test/a.m3u8',
    previewPosterUrl: null,
    previews: [
      {
        device: 'iphone',
        deviceType: 'iphone_d74',
        videoUrl: 'https://video.test/a.m3u8',
        posterUrl: null,
      },
      {
        device: 'ipad',
        deviceType: 'ipadPro_2018',
        videoUrl: 'https://video.test/b.m3u8',
        posterUrl: null,
      },
    ],
    screenshots: {
      iphone: {
        deviceType: 'iphone_d74',
        screenshots: [shot(1290, 2796, 1), shot(1290, 2796, 2), shot(2796, 1290, 3)],
      },
      ipad: { deviceType: 'lookup:ipad', screenshots: [shot(0, 0, 4)] },
      watch: { deviceType: 'appleWatch_2024', screenshots: [] },
    },
    inAppEvents: [
      {
        id: 'e1',
        timeIndicator: 'HAPPENING NOW',
        eventImage: null,
        eventBadge: 'CHALLENGE',
        eventName: 'Write Week',
        eventDescription: 'Write every day.',
        eventSubtitle: null,
        badgeKind: 'happening',
        promotionStartDate: null,
        eventUrl: null,
      },
    ],
    price: null,
    version: '1.0',
    releaseNotes: null,
    languages: ['English'],
    appStoreUrl: 'https://apps.apple.com/us/app/id123',
    bundleId: null,
    ageRating: null,
    promotionalText: null,
    reviews: null,
    fetchedAt: '2026-01-01T00:00:00.000Z',
    sourceLayout: 'ember',
    fieldSources: {},
    unknownFields: [],
    ...overrides,
  });
}

describe('screenshot sets', () => {
  it('lists each device class with screenshots in store order, with counts and distinct sizes', () => {
    expect(collectScreenshotSets(constructedListing())).toEqual([
      { device: 'iphone', deviceType: 'iphone_d74', count: 3, sizes: ['1290x2796', '2796x1290'] },
      { device: 'ipad', deviceType: 'lookup:ipad', count: 1, sizes: ['?'] },
    ]);
  });

  it('words the screenshot_analysis message', () => {
    expect(summariseScreenshots(constructedListing())).toBe(
      '2 screenshot sets: iPhone 3 (1290x2796, 2796x1290), iPad 1 (?)',
    );
    expect(summariseScreenshots(constructedListing({ screenshots: {} }))).toBe('No screenshots');
    expect(
      summariseScreenshots(constructedListing({ screenshots: {}, unknownFields: ['screenshots'] })),
    ).toBe('Screenshots unknown (no source read lists them)');
  });
});

describe('step messages', () => {
  it('metadata_extraction names the main fields and what is unknown', () => {
    expect(summariseMetadata(constructedListing())).toBe(
      '"Example Notes" by Example Inc., Productivity, rated 4.65 from 1234 ratings, #7 in Productivity, subtitle "Write things down"',
    );
    expect(
      summariseMetadata(
        constructedListing({
          subtitle: null,
          categoryRank: 'N/A',
          reviewCount: '1',
          unknownFields: ['subtitle', 'categoryRank', 'reviews'],
        }),
      ),
    ).toBe(
      '"Example Notes" by Example Inc., Productivity, rated 4.65 from 1 rating, no subtitle; not available: subtitle, categoryRank',
    );
  });

  it('preview_video_detection counts the videos per device', () => {
    expect(summarisePreviews(constructedListing())).toBe(
      '2 preview videos: iPhone (iphone_d74), iPad (ipadPro_2018)',
    );
    expect(summarisePreviews(constructedListing({ previews: [], previewVideoUrl: null }))).toBe(
      'No preview video',
    );
    expect(
      summarisePreviews(constructedListing({ previews: [], unknownFields: ['previews'] })),
    ).toBe('Preview videos unknown (no source read lists them)');
  });

  it('in_app_events names the events with their badge text', () => {
    expect(summariseInAppEvents(constructedListing())).toBe(
      '1 in-app event: "Write Week" (HAPPENING NOW)',
    );
    expect(summariseInAppEvents(constructedListing({ inAppEvents: [] }))).toBe('No in-app events');
  });
});
