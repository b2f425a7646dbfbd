import { describe, expect, it } from 'vitest';
import { ZAppListing, type TAppListing } from '@aso/contracts';
import { detectListingChanges, imageKey } from './listing.changes';

// CONSTRUCTED listings: every value below is invented to exercise one rule at a time.
const CDN = 'https://is1-ssl.mzstatic.com/image/thumb/Purple221/v4/00/11/22';
const shot = (name: string, size = '392x696bb.png') => ({
  url: `${CDN}/${name}.png/${size}`,
  width: 392,
  height: 696,
});

function listing(overrides: Partial<TAppListing> = {}): TAppListing {
  return ZAppListing.parse({
    appId: '6450000001',
    storefront: 'us',
    appName: 'Calm Notes: Journal & Mood',
    subtitle: 'Daily journal & mood tracker',
    developer: 'Calm Notes Ltd',
    category: 'Health & Fitness',
    categoryRank: '#12 in Health & Fitness',
    chartPosition: { position: 12, genreName: 'Health & Fitness', chart: 'top-free' },
    rating: '4.63',
    reviewCount: '1234',
    ratingHistogram: { '1': 42, '2': 30, '3': 60, '4': 201, '5': 901 },
    description: 'Write & reflect every day.\nTrack your mood over time.',
    iconUrl: `${CDN}/AppIcon.png/512x512bb.jpg`,
    previewVideoUrl: 'https://apptrailers.example/p1.m3u8',
    previewPosterUrl: null,
    previews: [
      {
        device: 'iphone',
        deviceType: 'iphone_6_5',
        videoUrl: 'https://apptrailers.example/p1.m3u8',
        posterUrl: null,
      },
    ],
    screenshots: {
      iphone: { deviceType: 'iphone_6_5', screenshots: [shot('a'), shot('b'), shot('c')] },
      ipad: { deviceType: 'ipadPro_2018', screenshots: [shot('pa')] },
    },
    inAppEvents: [
      {
        id: 'e1',
        timeIndicator: 'HAPPENING NOW',
        eventImage: null,
        eventBadge: 'CHALLENGE',
        eventName: 'Mood month',
        eventDescription: 'Track every day',
        startDate: '2026-06-01T00:00:00Z',
        endDate: '2026-06-30T00:00:00Z',
        eventSubtitle: null,
        badgeKind: 'happening',
        promotionStartDate: null,
        eventUrl: null,
      },
    ],
    price: { amount: 0, currency: 'USD', formatted: 'Free' },
    version: '3.2.1',
    releaseNotes: 'Bug fixes.',
    languages: ['English', 'French'],
    appStoreUrl: 'https://apps.apple.com/us/app/calm-notes/id6450000001',
    bundleId: 'com.example.calmnotes',
    ageRating: '4+',
    promotionalText: null,
    reviews: null,
    fetchedAt: '2026-06-10T00:00:00.000Z',
    sourceLayout: 'ember',
    fieldSources: {
      screenshots: 'page:ember',
      previews: 'page:ember',
      languages: 'page:ember',
    },
    unknownFields: [],
    ...overrides,
  });
}

const a = listing();
const later = (overrides: Partial<TAppListing>) =>
  listing({ fetchedAt: '2026-06-11T00:00:00.000Z', ...overrides });
const fields = (before: TAppListing, after: TAppListing) =>
  detectListingChanges(before, after).map((c) => c.field);

describe('imageKey', () => {
  it('is one key for one CDN image whatever host, size and format the URL asks for', () => {
    expect(imageKey(`${CDN}/AppIcon.png/512x512bb.jpg`)).toBe(
      imageKey(
        `https://is4-ssl.mzstatic.com/image/thumb/Purple221/v4/00/11/22/AppIcon.png/{w}x{h}{c}.{f}`,
      ),
    );
    expect(imageKey(`${CDN}/AppIcon.png/512x512bb.jpg`)).not.toBe(
      imageKey(`${CDN}/AppIcon2.png/512x512bb.jpg`),
    );
    expect(imageKey('https://example.com/a.png?x=1')).toBe('https://example.com/a.png');
  });
});

describe('detectListingChanges', () => {
  it('finds nothing between two reads of the same listing, whatever else moved', () => {
    const b = later({
      // Not listing changes: bookkeeping, reviews, histogram, size, sources of unread fields.
      ratingHistogram: { '1': 40, '2': 30, '3': 61, '4': 203, '5': 905 },
      fileSizeBytes: 123,
      developer: 'Calm Notes Limited',
      ageRating: '9+',
      sourceLayout: '2025',
      // The same icon and screenshots asked at another size.
      iconUrl: `${CDN}/AppIcon.png/1024x1024bb.png`,
      screenshots: {
        iphone: {
          deviceType: 'iphone_d74',
          screenshots: [shot('a', '600x1300bb.jpg'), shot('b'), shot('c')],
        },
        ipad: { deviceType: 'ipadPro_2018', screenshots: [shot('pa')] },
      },
      // Same texts with other line endings and trailing space; the same price, other text.
      description: 'Write & reflect every day.\r\nTrack your mood over time.  ',
      price: { amount: 0, currency: 'USD', formatted: '$0.00' },
      languages: ['French', 'English'],
      // A rating move below 0.05 stars.
      rating: '4.59',
    });
    expect(detectListingChanges(a, b)).toEqual([]);
  });

  it('reports each text field with before and after', () => {
    const b = later({
      appName: 'Calm Notes: Mood Journal',
      subtitle: null,
      description: 'Write every day.',
      promotionalText: 'New: mood insights',
      version: '3.3.0',
      releaseNotes: 'Mood insights.',
    });
    expect(detectListingChanges(a, b)).toEqual([
      {
        field: 'title',
        before: 'Calm Notes: Journal & Mood',
        after: 'Calm Notes: Mood Journal',
        detail: null,
      },
      { field: 'subtitle', before: 'Daily journal & mood tracker', after: null, detail: null },
      {
        field: 'description',
        before: 'Write & reflect every day.\nTrack your mood over time.',
        after: 'Write every day.',
        detail: null,
      },
      { field: 'promotionalText', before: null, after: 'New: mood insights', detail: null },
      { field: 'version', before: '3.2.1', after: '3.3.0', detail: null },
      { field: 'releaseNotes', before: 'Bug fixes.', after: 'Mood insights.', detail: null },
    ]);
  });

  it('reports a new icon image', () => {
    const b = later({ iconUrl: `${CDN}/AppIcon-new.png/512x512bb.jpg` });
    expect(detectListingChanges(a, b)).toEqual([
      {
        field: 'icon',
        before: `${CDN}/AppIcon.png/512x512bb.jpg`,
        after: `${CDN}/AppIcon-new.png/512x512bb.jpg`,
        detail: null,
      },
    ]);
  });

  it('reports screenshots per device class: added, removed, reordered', () => {
    const b = later({
      screenshots: {
        iphone: { deviceType: 'iphone_6_5', screenshots: [shot('c'), shot('a'), shot('d')] },
        mac: { deviceType: 'mac', screenshots: [shot('m1')] },
      },
    });
    expect(detectListingChanges(a, b)).toEqual([
      {
        field: 'screenshots.iphone',
        before: [shot('a').url, shot('b').url, shot('c').url],
        after: [shot('c').url, shot('a').url, shot('d').url],
        detail: { added: [shot('d').url], removed: [shot('b').url], reordered: true },
      },
      {
        field: 'screenshots.ipad',
        before: [shot('pa').url],
        after: [],
        detail: { added: [], removed: [shot('pa').url], reordered: false },
      },
      {
        field: 'screenshots.mac',
        before: [],
        after: [shot('m1').url],
        detail: { added: [shot('m1').url], removed: [], reordered: false },
      },
    ]);
  });

  it('reports a reorder alone', () => {
    const b = later({
      screenshots: {
        ...a.screenshots,
        iphone: { deviceType: 'iphone_6_5', screenshots: [shot('b'), shot('a'), shot('c')] },
      },
    });
    expect(detectListingChanges(a, b)).toMatchObject([
      { field: 'screenshots.iphone', detail: { added: [], removed: [], reordered: true } },
    ]);
  });

  it('reports preview videos added and removed', () => {
    const b = later({
      previews: [
        {
          device: 'ipad',
          deviceType: 'ipadPro',
          videoUrl: 'https://apptrailers.example/p2.m3u8',
          posterUrl: null,
        },
      ],
    });
    expect(detectListingChanges(a, b)).toEqual([
      {
        field: 'previews',
        before: [
          { device: 'iphone', videoUrl: 'https://apptrailers.example/p1.m3u8', posterUrl: null },
        ],
        after: [
          { device: 'ipad', videoUrl: 'https://apptrailers.example/p2.m3u8', posterUrl: null },
        ],
        detail: {
          added: ['https://apptrailers.example/p2.m3u8'],
          removed: ['https://apptrailers.example/p1.m3u8'],
        },
      },
    ]);
  });

  it('reports in-app events that started and ended', () => {
    const upcoming = {
      ...a.inAppEvents[0]!,
      id: 'e2',
      eventName: 'Summer streak',
      timeIndicator: 'UPCOMING',
      startDate: '2026-06-10T12:00:00Z',
      endDate: '2026-07-10T00:00:00Z',
    };
    const withUpcoming = listing({ inAppEvents: [...a.inAppEvents, upcoming] });
    // The next day: e2 has begun, e1 is still listed.
    const b = later({
      inAppEvents: [...a.inAppEvents, { ...upcoming, timeIndicator: 'HAPPENING NOW' }],
    });
    expect(detectListingChanges(withUpcoming, b)).toMatchObject([
      { field: 'inAppEvents', detail: { started: ['e2'], ended: [] } },
    ]);
    // e1 gone from the listing, e3 new on it.
    const c = later({ inAppEvents: [{ ...upcoming, id: 'e3' }] });
    const change = detectListingChanges(a, c)[0]!;
    expect(change.field).toBe('inAppEvents');
    expect(change.detail).toEqual({ started: ['e3'], ended: ['e1'] });
    expect(change.before).toEqual([
      {
        id: 'e1',
        name: 'Mood month',
        badge: 'CHALLENGE',
        timeIndicator: 'HAPPENING NOW',
        imageUrl: null,
        startDate: '2026-06-01T00:00:00Z',
        endDate: '2026-06-30T00:00:00Z',
      },
    ]);
    // Still listed but over since the previous read.
    const afterEnd = listing({ fetchedAt: '2026-07-01T00:00:00.000Z' });
    expect(detectListingChanges(a, afterEnd)).toMatchObject([
      { field: 'inAppEvents', detail: { started: [], ended: ['e1'] } },
    ]);
  });

  it('counts a rating change from 0.05 stars, and any rating count change', () => {
    expect(fields(listing({ rating: '4.75' }), later({ rating: '4.7' }))).toEqual(['rating']);
    expect(fields(listing({ rating: '4.75' }), later({ rating: '4.71' }))).toEqual([]);
    expect(detectListingChanges(a, later({ rating: '4.7', reviewCount: '1300' }))).toEqual([
      { field: 'rating', before: 4.63, after: 4.7, detail: { delta: 0.07 } },
      { field: 'ratingCount', before: 1234, after: 1300, detail: { delta: 66 } },
    ]);
  });

  it('reports the category rank, never from an unknown one', () => {
    const b = later({
      categoryRank: '#9 in Health & Fitness',
      chartPosition: { position: 9, genreName: 'Health & Fitness', chart: 'top-free' },
    });
    expect(detectListingChanges(a, b)).toEqual([
      {
        field: 'categoryRank',
        before: '#12 in Health & Fitness',
        after: '#9 in Health & Fitness',
        detail: { delta: -3 },
      },
    ]);
    expect(fields(a, later({ categoryRank: 'Not ranked', chartPosition: null }))).toEqual([
      'categoryRank',
    ]);
    expect(fields(a, later({ categoryRank: 'N/A', chartPosition: null }))).toEqual([]);
  });

  it('reports a price change and languages added or removed', () => {
    const b = later({
      price: { amount: 2.99, currency: 'USD', formatted: '$2.99' },
      languages: ['English', 'German'],
    });
    expect(detectListingChanges(a, b)).toEqual([
      {
        field: 'price',
        before: { amount: 0, currency: 'USD', formatted: 'Free' },
        after: { amount: 2.99, currency: 'USD', formatted: '$2.99' },
        detail: null,
      },
      {
        field: 'languages',
        before: ['English', 'French'],
        after: ['English', 'German'],
        detail: { added: ['German'], removed: ['French'] },
      },
    ]);
  });

  it('never reports a field that one of the reads could not give', () => {
    const partial = later({
      subtitle: null,
      description: '',
      rating: '0',
      screenshots: {},
      unknownFields: ['subtitle', 'description', 'rating', 'screenshots'],
    });
    expect(detectListingChanges(a, partial)).toEqual([]);
    expect(detectListingChanges(partial, a)).toEqual([]);
  });

  it('compares screenshots and languages only within one kind of source', () => {
    const fromLookup = later({
      screenshots: { iphone: { deviceType: 'lookup:iphone', screenshots: [shot('x')] } },
      languages: ['EN', 'FR', 'DE'],
      fieldSources: { screenshots: 'lookup', previews: 'page:2025', languages: 'lookup' },
    });
    expect(detectListingChanges(a, fromLookup)).toEqual([]);
    // Both from product pages, even of two layouts: compared.
    const other = later({
      screenshots: { iphone: { deviceType: 'iphone_d74', screenshots: [shot('x')] } },
      fieldSources: { screenshots: 'page:2025', previews: 'page:2025', languages: 'page:2025' },
    });
    expect(fields(a, other)).toEqual(['screenshots.iphone', 'screenshots.ipad']);
  });
});
