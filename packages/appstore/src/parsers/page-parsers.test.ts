import { describe, expect, it } from 'vitest';
import {
  CONSTRUCTED_2025,
  constructed2025Page,
} from '../../test/fixtures/constructed-2025-layout.page';
import { PageParseError, UnknownPageLayoutError } from '../errors/store.errors';
import { mergeListing } from '../listing/listing.merge';
import { resolveArtworkUrl, sizeFromImageUrl, sourceFormatOf } from './artwork.helpers';
import { emberPageParser, findEmberAppRecord } from './ember.parser';
import { jsonLdPageParser } from './json-ld.parser';
import { detectPageLayout, parseProductPage } from './product-page.parser';
import { parseReviewsFeed } from './reviews.parser';
import { serverDataPageParser } from './serialized-server-data.parser';
import { cleanText, formatCount, formatRating } from './text.helpers';

/** A minimal Ember page around a constructed Media API record (constructed data). */
function emberPage(attributes: Record<string, unknown>, appId = '100', extra = ''): string {
  const inner = JSON.stringify({
    x: 1,
    d: [{ id: appId, type: 'apps', attributes, relationships: {} }],
  });
  const shoebox = JSON.stringify({ [`\uf8ff.v1.catalog.us.apps.${appId}`]: inner });
  return `<html><head>${extra}</head><body><script type="fastboot/shoebox" id="shoebox-media-api-cache-apps">${shoebox}</script></body></html>`;
}

describe('text and number rules', () => {
  it.each([
    ['&amp; entities &#8217; &quot;decoded&quot;', '& entities \u2019 "decoded"'],
    ['\u200eSpotify\u200f', 'Spotify'],
    ['  keep\ninner lines  ', 'keep\ninner lines'],
    ['\u200e', null],
    [42, null],
  ])('cleanText(%j) = %j', (input, expected) => {
    expect(cleanText(input)).toBe(expected);
  });

  it.each([
    [4.78043, '4.78'],
    [4.8, '4.8'],
    [4, '4'],
    [4.996, '5'],
    [4.125, '4.13'],
  ])('formatRating(%d) = %s (source precision kept up to 2 decimals)', (value, text) => {
    expect(formatRating(value)).toBe(text);
  });

  it('rounds rating counts', () => {
    expect(formatCount(1233.6)).toBe('1234');
    expect(formatCount(36130486)).toBe('36130486');
  });
});

describe('artwork URL templates', () => {
  const t = 'https://is1-ssl.mzstatic.com/image/thumb/x/shot.png/{w}x{h}{c}.{f}';
  it('resolves {w}x{h}{c}.{f} with the recorded size and the source format', () => {
    expect(resolveArtworkUrl(t, { width: 392, height: 696 })).toBe(
      'https://is1-ssl.mzstatic.com/image/thumb/x/shot.png/392x696bb.png',
    );
    expect(resolveArtworkUrl(t.replace('.png', '.jpg'), { width: 1, height: 2 })).toMatch(
      /1x2bb\.jpg$/,
    );
    expect(resolveArtworkUrl(t, { width: 10, height: 20, crop: 'sr', format: 'webp' })).toMatch(
      /10x20sr\.webp$/,
    );
    expect(
      resolveArtworkUrl('https://x/y/{w}x{h}{c}.{f}', { width: 5, height: 6, format: 'jpeg' }),
    ).toBe('https://x/y/5x6bb.jpg');
  });
  it('reads source formats and URL sizes', () => {
    expect(sourceFormatOf(t)).toBe('png');
    expect(sourceFormatOf('https://x/abc/{w}x{h}{c}.{f}')).toBeNull();
    expect(sizeFromImageUrl('https://x/source/392x696bb.jpg')).toEqual({ width: 392, height: 696 });
    expect(sizeFromImageUrl('https://x/source/icon.jpg')).toBeNull();
  });
});

describe('2025 serialized-server-data layout (CONSTRUCTED page, see test/fixtures)', () => {
  const html = constructed2025Page();
  const page = parseProductPage(html, { appId: CONSTRUCTED_2025.appId });
  const listing = mergeListing({
    appId: CONSTRUCTED_2025.appId,
    storefront: 'gb',
    lookup: null,
    page,
    reviews: null,
    fetchedAt: '2025-07-21T00:00:00.000Z',
  });

  it('is detected as the 2025 layout', () => {
    expect(detectPageLayout(html)).toBe('2025');
    expect(serverDataPageParser.detect(html)).toBe(true);
    expect(emberPageParser.detect(html)).toBe(false);
    expect(listing.sourceLayout).toBe('2025');
  });

  it('reads lockup, ratings (rounded counts), description, version and information rows', () => {
    expect(listing.appName).toBe(CONSTRUCTED_2025.name);
    expect(listing.subtitle).toBe(CONSTRUCTED_2025.subtitle);
    expect(listing.developer).toBe(CONSTRUCTED_2025.developer);
    expect(listing.category).toBe(CONSTRUCTED_2025.category);
    expect(listing.rating).toBe('4.63');
    expect(listing.reviewCount).toBe('1234');
    expect(listing.ratingHistogram).toEqual({ '5': 900, '4': 201, '3': 60, '2': 30, '1': 42 });
    expect(listing.description).toBe(CONSTRUCTED_2025.description);
    expect(listing.version).toBe(CONSTRUCTED_2025.version);
    expect(listing.releaseNotes).toBe(CONSTRUCTED_2025.releaseNotes);
    expect(listing.languages).toEqual(['English', 'French', 'German']);
    expect(listing.ageRating).toBe('4+');
    expect(listing.bundleId).toBe('com.example.calmnotes');
    expect(listing.appStoreUrl).toBe(CONSTRUCTED_2025.canonical);
    expect(listing.iconUrl).toMatch(/AppIcon\.png\/1024x1024bb\.png$/);
  });

  it('reads screenshots per device with sizes, and the preview video with its poster', () => {
    expect(listing.screenshots.iphone?.screenshots).toHaveLength(CONSTRUCTED_2025.phoneShots);
    expect(listing.screenshots.iphone?.screenshots[0]).toEqual({
      url: 'https://is1-ssl.mzstatic.com/image/thumb/PurpleSource221/v4/00/00/00/constructed/phone-1.png/1290x2796bb.jpg',
      width: 1290,
      height: 2796,
    });
    expect(listing.screenshots.ipad?.screenshots).toHaveLength(CONSTRUCTED_2025.padShots);
    expect(listing.screenshots.ipad?.screenshots[1]?.url).toMatch(/pad-2\.png\/2064x2752bb\.png$/);
    expect(listing.previewVideoUrl).toBe(CONSTRUCTED_2025.videoUrl);
    expect(listing.previewPosterUrl).toMatch(/preview-frame\.png\/886x1920bb\.png$/);
    expect(listing.previews).toEqual([
      expect.objectContaining({ device: 'iphone', videoUrl: CONSTRUCTED_2025.videoUrl }),
    ]);
  });

  it('takes the price from the JSON-LD and leaves chart position and events unknown', () => {
    expect(listing.price).toEqual({ amount: 2.99, currency: 'GBP', formatted: null });
    expect(listing.fieldSources.price).toBe('page:jsonld');
    expect(listing.fieldSources.appName).toBe('page:2025');
    expect(listing.categoryRank).toBe('N/A');
    expect(listing.unknownFields).toEqual(
      expect.arrayContaining(['categoryRank', 'inAppEvents', 'promotionalText', 'reviews']),
    );
    expect(listing.unknownFields).not.toContain('screenshots');
  });

  it('accepts the older bare-array shape', () => {
    const older = parseProductPage(constructed2025Page({ bareArray: true }));
    expect(older.layout).toBe('2025');
    expect(older.parts[0]!.values.appName).toBe(CONSTRUCTED_2025.name);
  });

  it('treats a subtitle equal to the category as no subtitle', () => {
    const same = parseProductPage(constructed2025Page({ subtitle: 'health & fitness' }));
    expect(same.parts[0]!.values.subtitle).toBeNull();
  });

  it('names the broken block when the server data is not JSON', () => {
    const broken = '<script type="application/json" id="serialized-server-data">{"data":[</script>';
    expect(() => parseProductPage(broken)).toThrow(PageParseError);
    expect(() => parseProductPage(broken)).toThrow(
      /2025 product page layout: the serialized-server-data script is not JSON/,
    );
  });
});

describe('Ember layout edge cases (constructed records)', () => {
  it('subtitle equal to the category means none; no chart position means Not ranked', () => {
    const html = emberPage({
      name: '\u200eMy App &amp; Co',
      artistName: 'Dev',
      genreDisplayName: 'Utilities',
      userRating: { value: 4.25, ratingCount: 10.6 },
      platformAttributes: { ios: { subtitle: 'Utilities', description: { standard: 'x' } } },
    });
    const values = parseProductPage(html, { appId: '100' }).parts[0]!.values;
    expect(values.appName).toBe('My App & Co');
    expect(values.subtitle).toBeNull();
    expect(values.categoryRank).toBe('Not ranked');
    expect(values.chartPosition).toBeNull();
    expect(values.reviewCount).toBe('11');
    expect(values.inAppEvents).toEqual([]);
  });

  it('refuses a record of another app and broken shoebox JSON with named errors', () => {
    const html = emberPage({ name: 'Other' }, '200');
    expect(() => parseProductPage(html, { appId: '100' })).toThrow(/no record for app 100/);
    expect(() => findEmberAppRecord('{"k":"{not json"}')).toThrow(/a cache entry is not JSON/);
    expect(() => findEmberAppRecord('nope')).toThrow(
      /shoebox-media-api-cache-apps script is not JSON/,
    );
  });

  it('JSON-LD fills fields the Ember record lacks', () => {
    const ld =
      '<script type="application/ld+json">{"@type":"SoftwareApplication","name":"X","offers":{"price":0,"priceCurrency":"USD"}}</script>';
    const page = parseProductPage(emberPage({ name: 'Y' }, '100', ld), { appId: '100' });
    expect(page.parts.map((p) => p.source)).toEqual(['page:ember', 'page:jsonld']);
    expect(page.parts[1]!.values).toEqual({
      price: { amount: 0, currency: 'USD', formatted: null },
    });
  });
});

describe('JSON-LD fallback and unknown layouts', () => {
  it('reads a page that only has the schema.org block', () => {
    const html = `<html><head><script type="application/ld+json">[{"@type":"WebSite"},{"@context":"http://schema.org","@type":"SoftwareApplication","name":"\u200eSolo","author":{"@type":"Person","name":"Dev &amp; Co"},"applicationCategory":"Games","aggregateRating":{"ratingValue":3.456,"reviewCount":99.5},"offers":{"price":"1.99","priceCurrency":"EUR"}}]</script></head></html>`;
    expect(detectPageLayout(html)).toBe('jsonld');
    expect(jsonLdPageParser.detect(html)).toBe(true);
    const page = parseProductPage(html);
    expect(page.layout).toBe('jsonld');
    expect(page.parts[0]!.values).toMatchObject({
      appName: 'Solo',
      developer: 'Dev & Co',
      category: 'Games',
      rating: '3.46',
      reviewCount: '100',
      price: { amount: 1.99, currency: 'EUR', formatted: null },
    });
    expect(page.missing).toEqual(expect.arrayContaining(['description', 'iconUrl']));
  });

  it('a page no parser understands is an error naming every marker looked for', () => {
    const html =
      '<html><head><title>Something else</title><script type="application/ld+json">{bad</script></head></html>';
    expect(detectPageLayout(html)).toBeNull();
    let error: unknown;
    try {
      parseProductPage(html);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownPageLayoutError);
    const message = (error as Error).message;
    expect(message).toContain('shoebox-media-api-cache-apps');
    expect(message).toContain('serialized-server-data');
    expect(message).toContain('application/ld+json');
    expect((error as UnknownPageLayoutError).markers).toHaveLength(3);
  });
});

describe('reviews feed shapes (constructed feeds)', () => {
  it('one review as an object, no reviews, and an app entry without a rating', () => {
    const one = parseReviewsFeed(
      JSON.stringify({
        feed: {
          entry: {
            'im:rating': { label: '4' },
            id: { label: '1' },
            updated: { label: '2026-01-01T00:00:00-07:00' },
          },
        },
      }),
    );
    expect(one.summary).toEqual({
      count: 1,
      averageRecent: 4,
      distribution: { '1': 0, '2': 0, '3': 0, '4': 1, '5': 0 },
      newestAt: '2026-01-01T07:00:00.000Z',
      oldestAt: '2026-01-01T07:00:00.000Z',
      recent: [
        {
          rating: 4,
          title: null,
          content: null,
          version: null,
          updatedAt: '2026-01-01T07:00:00.000Z',
        },
      ],
    });
    expect(parseReviewsFeed('{"feed":{}}').summary.count).toBe(0);
    expect(parseReviewsFeed('{"feed":{}}').summary.averageRecent).toBeNull();
    const withApp = parseReviewsFeed(
      JSON.stringify({
        feed: { entry: [{ 'im:name': { label: 'App' } }, { 'im:rating': { label: '2' } }] },
      }),
    );
    expect(withApp.summary.count).toBe(1);
    expect(() => parseReviewsFeed('[]')).toThrow(/"feed" object/);
  });
});
