/**
 * The 2025 product page layout on every recorded storefront (fixtures `page2025*_*.html`, real
 * pages trimmed by their recorder: LAYOUTS.md, SOURCES.md). Identity fields are checked against
 * direct reads of the recording's JSON; the category, languages and age rating, which the page
 * only shows as localised Information rows, against the values the page displays, written out
 * per file. Integration project: the tests read files.
 */
import { describe, expect, it } from 'vitest';
import { mergeListing } from '../src/listing/listing.merge';
import { appIdOf, pageFixtureFiles, rawServerDataModel, readFixture } from './fixtures-dir';
import { detectPageLayout, parseProductPage } from '../src/parsers/product-page.parser';

/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment */

const ENGLISH_LIST = [
  'English',
  'German',
  'Indonesian',
  'Japanese',
  'Korean',
  'Malay',
  'Simplified Chinese',
  'Spanish',
  'Thai',
  'Traditional Chinese',
  'Vietnamese',
];

/** What each recorded page displays in its Information rows, and its page language. */
const SHOWN: Record<
  string,
  { lang: string; category: string; languages: string[]; ageRating: string; currency: string }
> = {
  au: {
    lang: 'en-AU',
    category: 'Productivity',
    languages: ENGLISH_LIST,
    ageRating: '4+',
    currency: 'AUD',
  },
  cn: {
    lang: 'zh-Hans-CN',
    category: '效率',
    languages: [
      '简体中文',
      '印度尼西亚文',
      '德文',
      '日文',
      '泰文',
      '繁体中文',
      '英语',
      '西班牙文',
      '越南文',
      '韩文',
      '马来文',
    ],
    ageRating: '4+',
    currency: 'CNY',
  },
  hk: {
    lang: 'zh-Hant-HK',
    category: '生產力',
    languages: [
      '繁體中文',
      'Vietnamese',
      '印尼文',
      '德文',
      '日文',
      '泰文',
      '簡體中文',
      '英文',
      '西班牙文',
      '韓文',
      '馬拉文',
    ],
    ageRating: '4+',
    currency: 'HKD',
  },
  id: {
    lang: 'en-GB',
    category: 'Productivity',
    languages: ENGLISH_LIST,
    ageRating: '4+',
    currency: 'IDR',
  },
  kr: {
    lang: 'ko',
    category: '생산성',
    languages: [
      '한국어',
      '독일어',
      '말레이어',
      '베트남어',
      '스페인어',
      '영어',
      '인도네시아어',
      '일본어',
      '중국어(간체)',
      '중국어(번체)',
      '태국어',
    ],
    // Korea's own rating label, not '4+'.
    ageRating: '전체',
    currency: 'KRW',
  },
  tr: {
    lang: 'en-GB',
    category: 'Productivity',
    languages: ENGLISH_LIST,
    ageRating: '4+',
    currency: 'TRY',
  },
  tw: {
    lang: 'zh-Hant-TW',
    category: '生產力工具',
    languages: [
      '繁體中文',
      'Vietnamese',
      '印尼文',
      '德文',
      '日文',
      '泰文',
      '簡體中文',
      '英文',
      '西班牙文',
      '韓文',
      '馬來文',
    ],
    ageRating: '4+',
    currency: 'TWD',
  },
};

const files = pageFixtureFiles();

describe('the recorded 2025 pages', () => {
  it('cover every storefront written out above', () => {
    const storefronts = files.map((f) => /^page2025(?:-trimmed)?_([a-z]{2})_/.exec(f)![1]!);
    expect(storefronts.sort()).toEqual(Object.keys(SHOWN).sort());
  });
});

describe.each(files)('%s', (file) => {
  const appId = appIdOf(file.replace(/\.html$/, '_'))!;
  const storefront = /^page2025(?:-trimmed)?_([a-z]{2})_/.exec(file)![1]!;
  const shown = SHOWN[storefront]!;
  const raw = rawServerDataModel(file);
  const html = readFixture(file);
  const page = parseProductPage(html, { appId });
  const listing = mergeListing({
    appId,
    storefront,
    lookup: null,
    page,
    reviews: null,
    fetchedAt: '2026-09-16T00:00:00.000Z',
  });

  it('is read as the 2025 layout, in the page language, for its storefront', () => {
    expect(detectPageLayout(html)).toBe('2025');
    expect(listing.sourceLayout).toBe('2025');
    expect(page.language).toBe(shown.lang);
    expect(page.storefront).toBe(raw.pageMetrics.pageFields.storeFront);
    expect(listing.storeData?.pageLanguage).toBe(shown.lang);
  });

  it('reads name, subtitle, developer and bundle id from the page model', () => {
    expect(listing.appName).toBe(raw.title);
    expect(listing.subtitle).toBe(raw.lockup.subtitle);
    expect(listing.developer).toBe(raw.developerAction.title);
    expect(listing.bundleId).toBe(raw.lockup.offerDisplayProperties.bundleId);
    expect(listing.fieldSources).toMatchObject({
      appName: 'page:2025',
      subtitle: 'page:2025',
      developer: 'page:2025',
      bundleId: 'page:2025',
    });
  });

  it('reads category, languages and age rating as the storefront shows them', () => {
    expect(listing.category).toBe(shown.category);
    expect(listing.languages).toEqual(shown.languages);
    expect(listing.ageRating).toBe(shown.ageRating);
    expect(listing.fieldSources).toMatchObject({
      category: 'page:2025',
      languages: 'page:2025',
      ageRating: 'page:2025',
    });
  });

  it('reads the download size, the compatible devices and the lowest iOS from the Information rows', () => {
    // Every recorded storefront shows '142.3 MB' and one line per device, iOS 15.4 for iPhone.
    expect(listing.fileSizeBytes).toBe(142_300_000);
    expect(listing.supportedDevices).toEqual(['iphone', 'ipad', 'mac', 'watch', 'vision']);
    expect(listing.minimumOsVersion).toBe('15.4');
    expect(listing.fieldSources).toMatchObject({
      fileSizeBytes: 'page:2025',
      supportedDevices: 'page:2025',
      minimumOsVersion: 'page:2025',
    });
  });

  it('reads the price of a free app without inventing a price text', () => {
    expect(raw.lockup.offerDisplayProperties.isFree).toBe(true);
    expect(listing.price).toEqual({ amount: 0, currency: shown.currency, formatted: null });
  });

  it('invents nothing the trimmed page lacks: those fields are unreadable, with a reason', () => {
    const lacking = [
      'rating',
      'reviewCount',
      'ratingHistogram',
      'description',
      'screenshots',
      'previews',
      'version',
      'releaseNotes',
      'categoryRank',
      'inAppEvents',
      'promotionalText',
      'reviews',
    ] as const;
    expect(listing.unknownFields).toEqual(expect.arrayContaining([...lacking]));
    expect(listing.rating).toBe('0');
    expect(listing.description).toBe('');
    expect(listing.screenshots).toEqual({});
    for (const field of lacking) {
      expect(listing.storeData?.fields[field]?.state).toBe('unreadable');
    }
    expect(listing.storeData?.fields.description?.reason).toBe('not found on the 2025 page');
    expect(listing.storeData?.fields.inAppEvents?.reason).toBe(
      'not read from the 2025 page layout',
    );
    expect(listing.storeData?.fields.subtitle).toEqual({
      state: 'read',
      source: 'page:2025',
      reason: null,
    });
  });

  it('refuses the page when asked for another app', () => {
    expect(() => parseProductPage(html, { appId: '1' })).toThrow(
      `the page is about app ${appId}, not app 1`,
    );
  });
});
