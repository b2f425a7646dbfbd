import { describe, expect, it } from 'vitest';
import {
  cleanScreenshotAnalysis,
  estimateDurationMs,
  savedAuditName,
  storefrontOf,
  unreadReason,
} from './audit.helpers';

describe('estimateDurationMs (docs/product.md#limits-and-constants)', () => {
  it('maps the number of valid links to the estimate', () => {
    expect(estimateDurationMs(0)).toBe(0);
    expect(estimateDurationMs(1)).toBe(60_000);
    expect(estimateDurationMs(2)).toBe(120_000);
    expect(estimateDurationMs(3)).toBe(180_000);
    expect(estimateDurationMs(4)).toBe(220_000);
  });
  it('treats more than four links as four and negatives as none', () => {
    expect(estimateDurationMs(7)).toBe(220_000);
    expect(estimateDurationMs(-1)).toBe(0);
  });
});

describe('storefrontOf', () => {
  it('reads the two-letter path segment, default us', () => {
    expect(storefrontOf('https://apps.apple.com/gb/app/spotify/id324684580')).toBe('gb');
    expect(storefrontOf('https://apps.apple.com/app/id324684580')).toBe('us');
    expect(storefrontOf(null)).toBe('us');
  });
});

describe('savedAuditName (docs/product.md#entities: app name, CC, dd-mm-yyyy)', () => {
  const date = new Date(2026, 0, 5, 12, 0, 0);
  it('builds the name from the app name, upper-case storefront and the date', () => {
    expect(
      savedAuditName(
        {
          appName: 'Spotify: Music and Podcasts',
          storefront: 'us',
          appStoreUrl: 'https://apps.apple.com/us/app/id324684580',
        },
        date,
      ),
    ).toBe('Spotify: Music and Podcasts US 05-01-2026');
  });
  it('falls back to the URL storefront when the audit has none', () => {
    expect(
      savedAuditName(
        { appName: 'Calm', storefront: null, appStoreUrl: 'https://apps.apple.com/de/app/id1' },
        date,
      ),
    ).toBe('Calm DE 05-01-2026');
    expect(
      savedAuditName({ appName: 'Calm', appStoreUrl: 'https://apps.apple.com/app/id1' }, date),
    ).toBe('Calm US 05-01-2026');
  });
});

describe('cleanScreenshotAnalysis (docs/product.md#result-page)', () => {
  it('drops the trailing To improve part', () => {
    const text =
      'Instagram shows 7 iPhone screenshots, portrait (1 fewer than Spotify) and 0 iPad screenshots; it has a preview video. Its first 3 screenshots are filled, so search results show a full row. To improve: add a preview video as this competitor has.';
    expect(cleanScreenshotAnalysis(text)).toBe(
      'Instagram shows 7 iPhone screenshots, portrait (1 fewer than Spotify) and 0 iPad screenshots; it has a preview video. Its first 3 screenshots are filled, so search results show a full row.',
    );
  });
  it('removes numbering at line starts and a trailing A/B Testing section with its heading', () => {
    const text = [
      '1. Bold headline on the first screenshot.',
      '2) Shows the player early.',
      '#3 Uses social proof.',
      '',
      '**A/B Testing:** try a dark background.',
      '4. Not shown.',
    ].join('\n');
    expect(cleanScreenshotAnalysis(text)).toBe(
      'Bold headline on the first screenshot.\nShows the player early.\nUses social proof.',
    );
  });
  it('cuts at whichever of the two parts comes first and drops a dangling number', () => {
    expect(
      cleanScreenshotAnalysis(
        '1. Clear captions.\n2. To improve: more contrast.\n3. A/B testing ideas',
      ),
    ).toBe('Clear captions.');
  });
  it('keeps numbers that are not list numbering', () => {
    expect(cleanScreenshotAnalysis('Its first 3 screenshots are filled.')).toBe(
      'Its first 3 screenshots are filled.',
    );
    expect(cleanScreenshotAnalysis(null)).toBe('');
  });
});

describe('unreadReason', () => {
  it('gives the recorded reason of an unreadable field, else null', () => {
    const storeData = {
      layout: '2025' as const,
      pageLanguage: 'ko',
      requestedLanguage: null,
      sources: {
        lookup: { status: 'not_found' as const, detail: null },
        page: { status: 'ok' as const, detail: null },
        reviews: { status: 'ok' as const, detail: null },
      },
      fields: {
        rating: {
          state: 'unreadable' as const,
          source: null,
          reason: 'not found on the 2025 page',
        },
        previews: { state: 'not_on_listing' as const, source: 'page:2025' as const, reason: null },
      },
    };
    expect(unreadReason({ storeData }, 'rating')).toBe('not found on the 2025 page');
    expect(unreadReason({ storeData }, 'previews')).toBeNull();
    expect(unreadReason({ storeData }, 'appName')).toBeNull();
    expect(unreadReason({ storeData: null }, 'rating')).toBeNull();
  });
});
