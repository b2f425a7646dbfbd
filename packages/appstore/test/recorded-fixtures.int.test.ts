/**
 * Parser tests on EVERY file of the recordings folder (docs/product.md#how-an-audit-runs).
 * Expectations are read from the raw JSON by direct path reads (test/fixtures-dir.ts),
 * independently of the parsers; a few known values are also asserted literally. Integration
 * project: the tests read files.
 */
import { describe, expect, it } from 'vitest';
import { mergeListing } from '../src/listing/listing.merge';
import { buildEmberPage } from '../src/replay/replay.page';
import { PageParseError } from '../src/errors/store.errors';
import {
  appIdOf,
  fixtureFiles,
  rawLookupResults,
  rawMediaApiApp,
  rawReviewEntries,
  readFixture,
} from './fixtures-dir';
import { emberValues, findEmberAppRecord } from '../src/parsers/ember.parser';
import { lookupValues, parseLookup, parseLookupResponse } from '../src/parsers/lookup.parser';
import { detectPageLayout, parseProductPage } from '../src/parsers/product-page.parser';
import { parseReviewsFeed } from '../src/parsers/reviews.parser';

/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment,
   @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-explicit-any,
   @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return */

const FETCHED_AT = '2026-06-24T12:00:00.000Z';
const files = fixtureFiles();
const byKind = (prefix: string) => files.filter((f) => f.startsWith(prefix));

// The documented choice of the set shown per device class (largest display first).
const PREFERENCE: Record<string, string[]> = {
  iphone: ['iphone_d74', 'iphone_6_5', 'iphone_5_8', 'iphone6+', 'iphone6', 'iphone5', 'iphone'],
  ipad: ['ipadPro_2018', 'ipadPro', 'ipad_11', 'ipad_10_5', 'ipad'],
  watch: ['appleWatch_2024', 'appleWatch_2022', 'appleWatch_2021', 'appleWatch_2018', 'appleWatch'],
  tv: ['appleTV'],
  mac: ['mac'],
  vision: ['appleVisionPro'],
};
const classOf = (key: string) =>
  key.startsWith('iphone')
    ? 'iphone'
    : key.startsWith('ipad')
      ? 'ipad'
      : key.startsWith('appleWatch')
        ? 'watch'
        : key.startsWith('appleTV')
          ? 'tv'
          : key.startsWith('mac')
            ? 'mac'
            : 'vision';
const extOf = (template: string) => {
  const ext = /\.(png|jpe?g|webp)\/\{w\}/i.exec(template)?.[1]?.toLowerCase() ?? 'jpg';
  return ext === 'jpeg' ? 'jpg' : ext;
};
const resolve = (t: string, w: number, h: number) =>
  t
    .replace('{w}', String(w))
    .replace('{h}', String(h))
    .replace('{c}', 'bb')
    .replace('{f}', extOf(t));
const BADGE: Record<string, string> = { happening: 'HAPPENING NOW', available: 'NOW AVAILABLE' };

describe('the recordings folder', () => {
  it('holds only kinds the parsers know, and at least one of each served kind', () => {
    for (const file of files) {
      expect(file).toMatch(/^(itunes-lookup|itunes-search|media-api|reviews-rss)_/);
    }
    expect(byKind('itunes-lookup_').length).toBeGreaterThan(0);
    expect(byKind('media-api_').length).toBeGreaterThan(0);
    expect(byKind('reviews-rss_').length).toBeGreaterThan(0);
  });
});

describe.each(byKind('media-api_'))('Ember page built from %s', (file) => {
  const appId = appIdOf(file)!;
  const raw = rawMediaApiApp(file);
  const a = raw.attributes;
  const ios = a.platformAttributes.ios;
  const html = buildEmberPage(readFixture(file), appId);
  const page = parseProductPage(html, { appId });
  const listing = mergeListing({
    appId,
    storefront: 'us',
    lookup: null,
    page,
    reviews: null,
    fetchedAt: FETCHED_AT,
  });

  it('is detected as the Ember layout and read from the app record, not an also-bought one', () => {
    expect(detectPageLayout(html)).toBe('ember');
    expect(page.layout).toBe('ember');
    expect(listing.sourceLayout).toBe('ember');
    expect(String(raw.id)).toBe(appId);
    const others = (raw.relationships['customers-also-bought-apps']?.data ?? []).map(
      (o: any) => o.id,
    );
    expect(others.length).toBeGreaterThan(0);
    for (const other of others) {
      expect(() => parseProductPage(html, { appId: other })).toThrow(PageParseError);
    }
  });

  it('reads name, subtitle, developer, category and chart position', () => {
    expect(listing.appName).toBe(a.name);
    expect(listing.subtitle).toBe(ios.subtitle ?? null);
    expect(listing.developer).toBe(a.artistName);
    expect(listing.category).toBe(a.genreDisplayName);
    const chart = a.chartPositions?.appStore;
    expect(listing.categoryRank).toBe(
      chart ? `#${chart.position} in ${chart.genreName}` : 'Not ranked',
    );
    expect(listing.chartPosition?.position ?? null).toBe(chart?.position ?? null);
    // The genre id of the category, from the page's genre record (Spotify 6011, Instagram 6008).
    expect(listing.genreId).toBe({ '324684580': '6011', '389801252': '6008' }[appId]);
  });

  it('reads rating (2 decimals), rating count and histogram', () => {
    expect(Number(listing.rating).toFixed(2)).toBe(Number(a.userRating.value).toFixed(2));
    expect(listing.reviewCount).toBe(String(a.userRating.ratingCount));
    const [one, two, three, four, five] = a.userRating.ratingCountList;
    expect(listing.ratingHistogram).toEqual({
      '1': one,
      '2': two,
      '3': three,
      '4': four,
      '5': five,
    });
  });

  it('reads screenshots per device class with their pixel sizes', () => {
    const rawSets: Array<[string, any[]]> = [];
    for (const platform of Object.values<any>(a.platformAttributes)) {
      const byType = platform.customAttributes?.default?.default?.customScreenshotsByType ?? {};
      for (const [key, shots] of Object.entries<any[]>(byType)) {
        if (shots.length > 0) rawSets.push([key, shots]);
      }
    }
    const classes = [...new Set(rawSets.map(([key]) => classOf(key)))].sort();
    expect(Object.keys(listing.screenshots).sort()).toEqual(classes);
    for (const deviceClass of classes) {
      const keys = rawSets.filter(([key]) => classOf(key) === deviceClass).map(([key]) => key);
      const expectedKey = PREFERENCE[deviceClass]!.find((k) => keys.includes(k))!;
      const shots = rawSets.find(([key]) => key === expectedKey)![1];
      const set = listing.screenshots[deviceClass]!;
      expect(set.deviceType).toBe(expectedKey);
      expect(set.screenshots).toEqual(
        shots.map((s) => ({
          url: resolve(s.url, s.width, s.height),
          width: s.width,
          height: s.height,
        })),
      );
    }
  });

  it('reads every preview video with its poster', () => {
    const custom = ios.customAttributes?.default?.default?.customVideoPreviewsByType ?? {};
    const byType = Object.keys(custom).length > 0 ? custom : (ios.videoPreviewsByType ?? {});
    const rawVideos = Object.values<any[]>(byType).flat();
    expect(listing.previews).toHaveLength(rawVideos.length);
    expect(listing.previewVideoUrl !== null).toBe(rawVideos.length > 0);
    for (const v of rawVideos) {
      const found = listing.previews.find((p) => p.videoUrl === v.video)!;
      expect(found).toBeDefined();
      expect(found.posterUrl).toBe(
        resolve(v.previewFrame.url, v.previewFrame.width, v.previewFrame.height),
      );
    }
  });

  it('reads in-app events with all their fields', () => {
    const events = raw.relationships['app-events'].data;
    expect(listing.inAppEvents).toHaveLength(events.length);
    events.forEach((e: any, i: number) => {
      const art = e.attributes.lockupArtwork;
      expect(listing.inAppEvents[i]).toEqual({
        id: e.id,
        timeIndicator: BADGE[e.attributes.badgeKind],
        eventImage: resolve(art.url, art.width, art.height),
        eventBadge: e.attributes.kind,
        eventName: e.attributes.name,
        eventDescription: e.attributes.description.standard,
        eventSubtitle: e.attributes.subtitle,
        badgeKind: e.attributes.badgeKind,
        startDate: e.attributes.startDate,
        endDate: e.attributes.endDate,
        promotionStartDate: e.attributes.promotionStartDate,
        eventUrl: e.attributes.url,
      });
    });
  });

  it('reads description, icon, price, version, release notes, languages and URL', () => {
    expect(listing.description.length).toBe(ios.description.standard.trim().length);
    expect(listing.iconUrl).toBe(resolve(ios.artwork.url, ios.artwork.width, ios.artwork.height));
    const offer = ios.offers.find((o: any) => o.type === 'get');
    expect(listing.price).toEqual({
      amount: offer.price,
      currency: offer.currencyCode,
      formatted: offer.priceFormatted,
    });
    expect(listing.version).toBe(ios.versionHistory[0].versionDisplay);
    expect(listing.releaseNotes).toBe(ios.versionHistory[0].releaseNotes.trim());
    expect(listing.languages).toEqual(ios.languageList);
    expect(listing.appStoreUrl).toBe(a.url);
    expect(listing.bundleId).toBe(ios.bundleId);
    expect(listing.ageRating).toBe(a.contentRatingsBySystem.appsApple.name);
    expect(listing.unknownFields).toEqual(['reviews']);
  });

  it('reads version history, download size, device classes and minimum iOS version', () => {
    expect(listing.versionHistory).toHaveLength(ios.versionHistory.length);
    expect(listing.versionHistory?.[0]).toEqual({
      version: ios.versionHistory[0].versionDisplay,
      releaseDate: ios.versionHistory[0].releaseTimestamp,
      releaseNotes: ios.versionHistory[0].releaseNotes.trim(),
    });
    const iphoneSizes = Object.entries(a.fileSizeByDevice as Record<string, number>)
      .filter(([model]) => model.startsWith('iPhone'))
      .map(([, n]) => n);
    expect(listing.fileSizeBytes).toBe(Math.max(...iphoneSizes));
    expect(listing.minimumOsVersion).toBe(ios.minimumOSVersion);
    // Spotify lists tvos, watch, iphone, ipad; Instagram iphone and ipod.
    expect(listing.supportedDevices).toEqual(
      appId === '324684580' ? ['iphone', 'ipad', 'watch', 'tv'] : ['iphone'],
    );
  });

  it('gives the same values when the shoebox JSON is read directly (decode twice)', () => {
    expect(emberValues(findEmberAppRecord(readFixture(file), appId))).toEqual(
      page.parts[0]!.values,
    );
  });
});

describe.each([...byKind('itunes-lookup_'), ...byKind('itunes-search_')])(
  'lookup parser on %s',
  (file) => {
    const results = rawLookupResults(file);
    const response = parseLookupResponse(readFixture(file));

    it('parses every result (leading blank lines allowed)', () => {
      expect(response.results).toHaveLength(results.length);
      expect(response.resultCount).toBe(JSON.parse(readFixture(file)).resultCount);
    });

    it.each(results.map((r, i) => [i, r.trackName] as const))(
      'result %i (%s) has the recorded values',
      (i) => {
        const r = results[i];
        const v = lookupValues(response.results[i]!);
        expect(v.appName).toBe(r.trackName);
        expect(v.developer).toBe(r.artistName);
        expect(v.category).toBe(r.primaryGenreName);
        if (r.averageUserRating !== undefined) {
          expect(Number(v.rating).toFixed(2)).toBe(Number(r.averageUserRating).toFixed(2));
          expect(v.reviewCount).toBe(String(r.userRatingCount));
        }
        expect(v.description?.length).toBe(r.description.trim().length);
        expect(v.version).toBe(r.version);
        expect(v.price?.amount).toBe(r.price);
        expect(v.languages).toHaveLength(r.languageCodesISO2A.length);
        const mainClass = r.kind === 'mac-software' ? 'mac' : 'iphone';
        const expected: Record<string, string[]> = {
          [mainClass]: r.screenshotUrls ?? [],
          ipad: r.ipadScreenshotUrls ?? [],
          tv: r.appletvScreenshotUrls ?? [],
        };
        for (const [deviceClass, urls] of Object.entries(expected)) {
          const set = v.screenshots?.[deviceClass as 'iphone'];
          if (urls.length === 0) {
            expect(set).toBeUndefined();
            continue;
          }
          expect(set!.screenshots.map((s) => s.url)).toEqual(urls);
          set!.screenshots.forEach((s, j) => {
            const [, w, h] = /\/(\d+)x(\d+)bb\.\w+$/.exec(urls[j]!)!;
            expect([s.width, s.height]).toEqual([Number(w), Number(h)]);
          });
        }
      },
    );
  },
);

describe.each(byKind('reviews-rss_'))('reviews parser on %s', (file) => {
  it('summarises the recorded entries', () => {
    const entries = rawReviewEntries(file);
    const stars = entries.map((e) => Number(e['im:rating'].label));
    const { reviews, summary } = parseReviewsFeed(readFixture(file));
    expect(reviews).toHaveLength(entries.length);
    expect(summary.count).toBe(entries.length);
    for (const star of [1, 2, 3, 4, 5] as const) {
      expect(summary.distribution[String(star) as '1']).toBe(
        stars.filter((s) => s === star).length,
      );
    }
    const mean = stars.reduce((x, y) => x + y, 0) / stars.length;
    expect(summary.averageRecent).toBe(Math.round(mean * 100) / 100);
    const times = entries.map((e) => Date.parse(e.updated.label));
    expect(summary.newestAt).toBe(new Date(Math.max(...times)).toISOString());
    expect(summary.oldestAt).toBe(new Date(Math.min(...times)).toISOString());
    expect(reviews[0]!.title).toBe(entries[0].title.label.trim());
  });
});

describe('known recorded values (literal)', () => {
  const page = (file: string, appId: string) =>
    mergeListing({
      appId,
      storefront: 'us',
      lookup: null,
      page: parseProductPage(buildEmberPage(readFixture(file), appId), { appId }),
      reviews: null,
      fetchedAt: FETCHED_AT,
    });

  it('Spotify (Media API, 2025-07)', () => {
    const l = page('media-api_us_spotify_id324684580_2025-07.json', '324684580');
    expect(l.appName).toBe('Spotify: Music and Podcasts');
    expect(l.subtitle).toBe('Songs, Playlists & Audiobooks');
    expect(l.developer).toBe('Spotify');
    expect(l.rating).toBe('4.8');
    expect(l.reviewCount).toBe('36130486');
    expect(l.categoryRank).toBe('#1 in Music');
    expect(l.inAppEvents).toEqual([]);
    expect(l.previewVideoUrl).toBeNull();
    expect(l.screenshots.iphone?.deviceType).toBe('iphone_d74');
    expect(l.screenshots.iphone?.screenshots).toHaveLength(9);
    expect(l.screenshots.iphone?.screenshots[0]).toMatchObject({ width: 1290, height: 2796 });
    expect(l.screenshots.iphone?.screenshots[0]?.url).toMatch(/\/0x0ss-0\.png\/1290x2796bb\.png$/);
    expect(l.screenshots.tv?.screenshots[0]).toMatchObject({ width: 1920, height: 1080 });
  });

  it('Instagram (Media API, 2025-07)', () => {
    const l = page('media-api_us_instagram_id389801252_2025-07.json', '389801252');
    expect(l.appName).toBe('Instagram');
    expect(l.subtitle).toBe('Videos, creators & friends');
    expect(l.developer).toBe('Instagram, Inc.');
    expect(l.rating).toBe('4.7');
    expect(l.reviewCount).toBe('27873349');
    expect(l.categoryRank).toBe('#2 in Photo & Video');
    expect(l.inAppEvents.map((e) => [e.eventName, e.eventBadge, e.timeIndicator])).toEqual([
      ['Dun It Anyway', 'CHALLENGE', 'HAPPENING NOW'],
      ['Stream your music on Notes', 'MAJOR UPDATE', 'NOW AVAILABLE'],
    ]);
    expect(l.inAppEvents[0]).toMatchObject({
      startDate: '2025-07-03T07:00:00Z',
      endDate: '2025-07-12T07:00:00Z',
      eventDescription: 'Dream it, create it, dun it anyway.',
      eventImage: 'https://is1-ssl.mzstatic.com/image/thumb/NazvLA6CgCkz1n2PJNq3QQ/1920x1080bb.jpg',
    });
    expect(l.previews.map((p) => p.deviceType).sort()).toEqual(['iphone_6_5', 'iphone_d74']);
    expect(l.previewVideoUrl).toMatch(/\.m3u8$/);
    expect(l.screenshots.iphone?.screenshots).toHaveLength(7);
    expect(l.screenshots.ipad).toBeUndefined();
  });

  it('lookup recordings', () => {
    const spotify = parseLookup(
      readFixture('itunes-lookup_us_spotify_id324684580_2026-06.json'),
      '324684580',
    )!;
    expect(spotify.values).toMatchObject({
      rating: '4.78',
      reviewCount: '40585992',
      version: '9.1.58',
      category: 'Music',
      genreId: '6011',
    });
    expect(spotify.values.screenshots?.iphone?.screenshots).toHaveLength(8);
    expect(spotify.values).toMatchObject({
      versionHistory: [
        {
          version: '9.1.58',
          releaseDate: '2026-06-19T09:42:47Z',
          releaseNotes: spotify.values.releaseNotes,
        },
      ],
      fileSizeBytes: 279764992,
      supportedDevices: ['iphone', 'ipad', 'watch'],
      minimumOsVersion: '16.1',
    });
    expect(spotify.values.screenshots?.ipad?.screenshots).toHaveLength(6);
    expect(spotify.values.screenshots?.iphone?.screenshots[0]).toMatchObject({
      width: 392,
      height: 696,
    });
    const rivian = parseLookup(
      readFixture('itunes-lookup_us_rivian_id1570215232_2026-06.json'),
      '1570215232',
    )!;
    expect(rivian.values).toMatchObject({
      appName: 'Rivian',
      category: 'Travel',
      rating: '4.47',
      reviewCount: '1289',
    });
    expect(rivian.values.screenshots?.iphone?.screenshots).toHaveLength(7);
    expect(rivian.values.screenshots?.ipad).toBeUndefined();
    expect(rivian.values).toMatchObject({
      fileSizeBytes: 335163392,
      supportedDevices: ['iphone', 'ipad', 'watch'],
      minimumOsVersion: '18.0',
      versionHistory: [
        {
          version: '3.13.1',
          releaseDate: '2026-06-19T17:11:47Z',
          releaseNotes: 'Bug fixes and improvements.',
        },
      ],
    });
    const todo = parseLookup(
      readFixture('itunes-lookup_us_todo-list-widget_id1585508533_2026-06.json'),
      '1585508533',
    )!;
    expect(todo.values).toMatchObject({
      appName: 'To Do List Widget - Simple',
      rating: '4.52',
      reviewCount: '1472',
    });
    expect(todo.values.screenshots?.iphone?.screenshots).toHaveLength(10);
    const tiktok = parseLookup(
      readFixture('itunes-lookup_us_tiktok_id835599320_2026-06.json'),
      '835599320',
    )!;
    expect(tiktok.values).toMatchObject({
      appName: 'TikTok - Videos, Shop & LIVE',
      rating: '4.73',
      reviewCount: '18307139',
      fileSizeBytes: 915698688,
      supportedDevices: ['iphone', 'ipad'],
    });
    expect(
      parseLookup(readFixture('itunes-lookup_us_spotify_id324684580_2026-06.json'), '1'),
    ).toBeNull();
    const slack = lookupValues(
      parseLookupResponse(readFixture('itunes-lookup_us_mac-software_slack.json')).results[0]!,
    );
    expect(slack.screenshots?.mac?.screenshots[0]).toMatchObject({ width: 800, height: 500 });
    expect(slack.screenshots?.iphone).toBeUndefined();
    expect(slack.supportedDevices).toEqual(['mac']);
  });

  it('reviews recordings', () => {
    const spotify = parseReviewsFeed(
      readFixture('reviews-rss_us_spotify_id324684580_2026-06.json'),
    ).summary;
    expect(spotify.count).toBe(50);
    expect(spotify.distribution['5']).toBe(33);
    expect(spotify.distribution['1']).toBe(6);
    const rivian = parseReviewsFeed(
      readFixture('reviews-rss_us_rivian_id1570215232_2026-06.json'),
    ).summary;
    expect([rivian.distribution['1'], rivian.distribution['5']]).toEqual([24, 3]);
    const tiktok = parseReviewsFeed(
      readFixture('reviews-rss_us_tiktok_id835599320_2026-06.json'),
    ).summary;
    expect([tiktok.distribution['1'], tiktok.distribution['5']]).toEqual([21, 14]);
  });

  it('merging Spotify page and lookup: the page wins, the lookup is not used where the page has a value', () => {
    const appId = '324684580';
    const l = mergeListing({
      appId,
      storefront: 'us',
      lookup: parseLookup(readFixture('itunes-lookup_us_spotify_id324684580_2026-06.json'), appId),
      page: parseProductPage(
        buildEmberPage(readFixture('media-api_us_spotify_id324684580_2025-07.json'), appId),
        { appId },
      ),
      reviews: parseReviewsFeed(readFixture('reviews-rss_us_spotify_id324684580_2026-06.json'))
        .summary,
      fetchedAt: FETCHED_AT,
    });
    expect(l.rating).toBe('4.8');
    expect(l.version).toBe('9.0.58');
    expect(l.fieldSources.rating).toBe('page:ember');
    expect(l.fieldSources.reviews).toBe('reviews');
    expect(l.unknownFields).toEqual([]);
    expect(l.reviews?.count).toBe(50);
  });
});
