import type { TAppListing, TScreenshot } from '@aso/contracts';

/**
 * A CONSTRUCTED listing for unit tests (not recorded data): every field set to a neutral value,
 * overridden by `patch`.
 */
export function constructedListing(patch: Partial<TAppListing> = {}): TAppListing {
  return {
    appId: '1',
    storefront: 'us',
    appName: 'Example',
    subtitle: null,
    developer: 'Example Inc.',
    category: 'Music',
    categoryRank: 'Not ranked',
    chartPosition: null,
    rating: '4.5',
    reviewCount: '1000',
    ratingHistogram: null,
    description: '',
    iconUrl: 'https://example.invalid/icon.png',
    previewVideoUrl: null,
    previewPosterUrl: null,
    previews: [],
    screenshots: {},
    inAppEvents: [],
    price: null,
    version: null,
    releaseNotes: null,
    languages: [],
    appStoreUrl: 'https://apps.apple.com/us/app/id1?platform=iphone',
    bundleId: null,
    ageRating: null,
    promotionalText: null,
    reviews: null,
    fetchedAt: '2026-01-01T00:00:00.000Z',
    sourceLayout: 'none',
    fieldSources: {},
    unknownFields: [],
    ...patch,
  };
}

/** `n` constructed screenshots of `width` x `height` px. */
export function shots(n: number, width = 1290, height = 2796): TScreenshot[] {
  return Array.from({ length: n }, (_, i) => ({
    url: `https://example.invalid/${i}.png`,
    width,
    height,
  }));
}
