import { describe, expect, it } from 'vitest';
import type { TParsedProductPage } from '../parsers/product-page.parser';
import type { TListingPart } from '../parsers/parser.types';
import { mergeListing, primaryScreenshotUrls } from './listing.merge';

// Constructed sources for the merge rules.
const lookup: TListingPart = {
  source: 'lookup',
  values: {
    appName: 'Lookup Name',
    developer: 'Dev',
    category: 'Travel',
    rating: '4.47',
    reviewCount: '1289',
    description: 'From lookup',
    iconUrl: 'https://x/512x512bb.jpg',
    screenshots: {
      iphone: {
        deviceType: 'lookup:iphone',
        screenshots: [{ url: 'https://x/392x696bb.png', width: 392, height: 696 }],
      },
    },
    version: '3.13.1',
    releaseNotes: 'Fixes',
    languages: ['English'],
    appStoreUrl: 'https://apps.apple.com/us/app/rivian/id1570215232',
  },
};

function page(values: TListingPart['values']): TParsedProductPage {
  return {
    layout: 'ember',
    parts: [{ source: 'page:ember', values }],
    supplied: [],
    missing: [],
    carries: ['appName', 'subtitle', 'category', 'previews', 'inAppEvents'],
    language: 'en-US',
    storefront: 'us',
  };
}

const base = {
  appId: '1570215232',
  storefront: 'US',
  reviews: null,
  fetchedAt: '2026-06-24T00:00:00.000Z',
};

describe('mergeListing', () => {
  it("keeps the lookup's genre id with the page's category name in the storefront's language", () => {
    const l = mergeListing({
      ...base,
      lookup: {
        ...lookup,
        values: { ...lookup.values, category: 'Productivity', genreId: '6007' },
      },
      page: page({ appName: 'Page Name', category: '생산성' }),
    });
    expect(l.category).toBe('생산성');
    expect(l.genreId).toBe('6007');
    expect(mergeListing({ ...base, lookup, page: null }).genreId).toBeUndefined();
  });

  it('builds from the lookup alone and names the fields that stay unknown', () => {
    const l = mergeListing({ ...base, lookup, page: null });
    expect(l.storefront).toBe('us');
    expect(l.sourceLayout).toBe('none');
    expect(l.appName).toBe('Lookup Name');
    expect(l.subtitle).toBeNull();
    expect(l.categoryRank).toBe('N/A');
    expect(l.fieldSources.appName).toBe('lookup');
    expect(l.unknownFields).toEqual([
      'subtitle',
      'categoryRank',
      'ratingHistogram',
      'previews',
      'inAppEvents',
      'price',
      'bundleId',
      'ageRating',
      'promotionalText',
      'versionHistory',
      'fileSizeBytes',
      'supportedDevices',
      'minimumOsVersion',
      'reviews',
    ]);
    expect(primaryScreenshotUrls(l)).toEqual(['https://x/392x696bb.png']);
  });

  it('the product page wins where both have a field; the lookup fills the gaps', () => {
    const l = mergeListing({
      ...base,
      lookup,
      page: page({
        appName: 'Page Name',
        subtitle: 'Electric adventures',
        rating: '4.5',
        categoryRank: '#3 in Travel',
        chartPosition: { position: 3, genreName: 'Travel', chart: 'top-free' },
        screenshots: {},
        previews: [
          {
            device: 'iphone',
            deviceType: 'iphone_6_5',
            videoUrl: 'https://v/a.m3u8',
            posterUrl: null,
          },
        ],
        inAppEvents: [],
      }),
    });
    expect(l.appName).toBe('Page Name');
    expect(l.rating).toBe('4.5');
    expect(l.reviewCount).toBe('1289');
    expect(l.fieldSources).toMatchObject({
      appName: 'page:ember',
      rating: 'page:ember',
      reviewCount: 'lookup',
    });
    expect(l.categoryRank).toBe('#3 in Travel');
    expect(l.chartPosition).toEqual({ position: 3, genreName: 'Travel', chart: 'top-free' });
    // An empty page screenshot map lets the lookup's sets through.
    expect(l.fieldSources.screenshots).toBe('lookup');
    expect(l.previewVideoUrl).toBe('https://v/a.m3u8');
    expect(l.inAppEvents).toEqual([]);
    expect(l.unknownFields).not.toContain('inAppEvents');
  });

  it('drops a subtitle equal to the category across sources', () => {
    const l = mergeListing({ ...base, lookup, page: page({ subtitle: 'TRAVEL' }) });
    expect(l.subtitle).toBeNull();
  });

  it('falls back to the plain product page URL', () => {
    const l = mergeListing({
      ...base,
      lookup: { source: 'lookup', values: { appName: 'A' } },
      page: null,
    });
    expect(l.appStoreUrl).toBe('https://apps.apple.com/us/app/id1570215232');
    expect(l.unknownFields).not.toContain('appStoreUrl');
  });
});
