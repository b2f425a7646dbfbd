import { describe, expect, it } from 'vitest';
import { CELLULAR_DOWNLOAD_LIMIT_BYTES } from './limits.constants';
import { descriptionSection, repeatedPhrases } from './description.rules';
import { appSizeSection, compatibilitySection, formatBytes } from './device.rules';
import { displaySizeName } from './device-names';
import { localizationSection } from './localization.rules';
import { complaintTerms, reviewsSection } from './reviews.rules';
import { isGenericReleaseNote, updatesSection } from './updates.rules';
import { checkKeywordField } from './keyword-field.rules';
import { constructedListing } from './test-listing.helpers';

const statuses = (s: { rules: Array<{ id: string; status: string; points: number }> }) =>
  Object.fromEntries(s.rules.map((r) => [r.id, `${r.status}:${r.points}`]));

const ENGLISH =
  'Tune Box plays your music offline, anywhere. Build playlists, follow artists and discover new songs every day with smart recommendations made for you.';

describe('description (constructed listings)', () => {
  it('an opening without the name, subtitle or keywords fails; promotional text over 170 fails', () => {
    const s = descriptionSection(
      constructedListing({
        appName: 'Tune Box',
        subtitle: 'Offline songs',
        description: `Welcome! We are a small team from Berlin. ${'x'.repeat(200)} Tune Box.`,
        promotionalText: 'p'.repeat(171),
      }),
      '',
    );
    expect(statuses(s)).toEqual({
      'description.present': 'passed:0',
      'description.length': 'failed:20',
      'description.opening': 'failed:15',
      'description.repeated-phrases': 'passed:0',
      'description.promotional-text': 'failed:10',
    });
    expect(s.score).toBe(55);
    expect(s.analysis).toContain('Apple does not index the iOS description for search');
  });
  it('repeated three-word phrases, links left out', () => {
    expect(
      repeatedPhrases(
        'Play music offline. Play music offline! play music offline? https://a.b/c https://a.b/c https://a.b/c',
      ),
    ).toEqual([{ phrase: 'play music offline', count: 3 }]);
  });
  it('not judged when the description could not be read', () => {
    const s = descriptionSection(constructedListing({ unknownFields: ['description'] }), '');
    expect(s.score).toBeNull();
  });
});

describe('updates (constructed listings)', () => {
  const at = (days: number) =>
    new Date(Date.parse('2026-01-01T00:00:00Z') - days * 86_400_000).toISOString();
  it.each([
    [90, 'passed:0'],
    [91, 'failed:20'],
    [181, 'failed:40'],
    [366, 'failed:60'],
  ])('%i days since the release -> %s', (days, verdict) => {
    const s = updatesSection(
      constructedListing({
        fetchedAt: '2026-01-01T00:00:00.000Z',
        versionHistory: [
          { version: '2.0', releaseDate: at(days), releaseNotes: 'New: dark mode.' },
        ],
      }),
    );
    expect(statuses(s)['updates.recent-release']).toBe(verdict);
  });
  it('cadence: the median interval of the last versions', () => {
    const versionHistory = [0, 70, 140, 300].map((d, i) => ({
      version: `1.${4 - i}`,
      releaseDate: at(d),
      releaseNotes: 'Adds widgets.',
    }));
    const s = updatesSection(
      constructedListing({ fetchedAt: '2026-01-01T00:00:00.000Z', versionHistory }),
    );
    expect(statuses(s)['updates.cadence']).toBe('failed:10');
    expect(s.analysis).toContain('every 70 days (median)');
  });
  it('generic release notes', () => {
    for (const t of [
      'Bug fixes and improvements.',
      'Bug fixes and performance improvements',
      'Minor bug fixes',
      'Performance improvements and bug fixes.',
      '',
      null,
    ])
      expect(isGenericReleaseNote(t)).toBe(true);
    expect(isGenericReleaseNote('New: share playlists with friends. Bug fixes.')).toBe(false);
  });
  it('not judged without a release date', () => {
    expect(updatesSection(constructedListing({ versionHistory: [] })).score).toBeNull();
  });
});

describe('localization (constructed listings)', () => {
  it('the storefront language missing and texts in another language both fail', () => {
    const s = localizationSection(
      constructedListing({ storefront: 'de', languages: ['English'], description: ENGLISH }),
    );
    expect(statuses(s)).toEqual({
      'localization.storefront-language': 'failed:40',
      'localization.texts-language': 'failed:30',
      'localization.language-count': 'failed:10',
    });
    expect(s.analysis).toContain(
      'German, the main language of the DE storefront, is not among them.',
    );
  });
  it('matches the store names of languages', () => {
    const s = localizationSection(
      constructedListing({
        storefront: 'cn',
        languages: ['Chinese, Simplified', 'English'],
        appName: '悬浮时钟',
        description:
          '悬浮时钟是一款精确的时间工具，可以显示毫秒，检测屏幕刷新率，显示实时网速，并在抢购时提醒你。支持画中画悬浮窗，随时查看时间。',
      }),
    );
    expect(statuses(s)).toEqual({
      'localization.storefront-language': 'passed:0',
      'localization.texts-language': 'passed:0',
      'localization.language-count': 'passed:0',
    });
  });
  it('matches languages listed in the page language or in themselves', () => {
    for (const [storefront, languages, pageLanguage] of [
      ['kr', ['한국어', 'English'], 'ko'],
      ['jp', ['日本語'], 'ja'],
      ['br', ['Português', 'Inglês'], 'pt-BR'],
      ['de', ['Deutsch'], null],
      ['cn', ['简体中文'], 'zh-Hans-CN'],
    ] as const) {
      const s = localizationSection(constructedListing({ storefront, languages: [...languages] }));
      const withPage = localizationSection({
        ...constructedListing({ storefront, languages: [...languages] }),
        storeData: pageLanguage
          ? {
              layout: '2025',
              pageLanguage,
              requestedLanguage: null,
              sources: {
                lookup: { status: 'ok', detail: null },
                page: { status: 'ok', detail: null },
                reviews: { status: 'ok', detail: null },
              },
              fields: {},
            }
          : undefined,
      });
      expect([storefront, statuses(withPage)['localization.storefront-language']]).toEqual([
        storefront,
        'passed:0',
      ]);
      expect(s.rules[0]!.status).toBe('passed');
    }
  });
  it('not judged when the languages could not be read; no main language for an unlisted storefront', () => {
    expect(
      localizationSection(constructedListing({ unknownFields: ['languages'] })).score,
    ).toBeNull();
    const s = localizationSection(constructedListing({ storefront: 'zz', languages: ['English'] }));
    expect(statuses(s)['localization.storefront-language']).toBe('not_applicable:0');
  });
});

describe('reviews (constructed reviews)', () => {
  const review = (rating: number, content: string, version = '2.0') => ({
    rating,
    title: null,
    content,
    version,
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  it('Japanese reviews are split into words with the Japanese stop-word list', () => {
    const reviews = [
      review(1, '広告が多すぎて使えない'),
      review(1, '広告が多いです'),
      review(2, 'ログインできない。広告も多い'),
    ];
    const terms = complaintTerms(reviews, 'jp', 'テスト');
    expect(terms[0]).toMatchObject({ term: '広告', reviews: 3 });
  });
  it('share of negative recent reviews and recurring complaints', () => {
    const recent = [
      ...Array.from({ length: 3 }, () => review(1, 'The sync is broken and crashes', '2.1')),
      ...Array.from({ length: 7 }, () => review(5, 'Lovely')),
    ];
    const s = reviewsSection(
      constructedListing({
        ratingHistogram: { '1': 30, '2': 20, '3': 50, '4': 100, '5': 800 },
        reviews: {
          count: 10,
          averageRecent: 3.8,
          distribution: { '1': 3, '2': 0, '3': 0, '4': 0, '5': 7 },
          newestAt: null,
          oldestAt: null,
          recent,
        },
      }),
    );
    expect(statuses(s)).toEqual({
      'reviews.histogram': 'passed:0',
      'reviews.recent-negative-share': 'failed:15',
      'reviews.recurring-complaints': 'failed:10',
    });
    expect(s.analysis).toContain('Versions they name: 2.1 (3).');
  });
  it('not judged without histogram and feed', () => {
    expect(reviewsSection(constructedListing()).score).toBeNull();
  });
});

describe('app size and compatibility', () => {
  it('the 200 MB cellular limit, inclusive', () => {
    expect(appSizeSection({ fileSizeBytes: CELLULAR_DOWNLOAD_LIMIT_BYTES }).score).toBe(100);
    expect(appSizeSection({ fileSizeBytes: CELLULAR_DOWNLOAD_LIMIT_BYTES + 1 }).score).toBe(80);
    expect(appSizeSection({ fileSizeBytes: null }).score).toBeNull();
    expect(formatBytes(279_764_992)).toBe('279.8 MB');
    expect(formatBytes(1_250_000_000)).toBe('1.25 GB');
  });
  it('devices as the store lists them', () => {
    const s = compatibilitySection({
      supportedDevices: ['iphone', 'mac', 'vision'],
      minimumOsVersion: '17.0',
    });
    expect(s.analysis).toBe(
      'The store lists the app for iPhone, Mac and Apple Vision Pro. It requires iOS 17.0 or later.',
    );
    expect(s.score).toBe(70);
    expect(compatibilitySection({ supportedDevices: [] }).score).toBeNull();
  });
});

describe('wording', () => {
  it("device keys become Apple's display names", () => {
    expect(displaySizeName('iphone_d74')).toBe('6.9-inch iPhone display');
    expect(displaySizeName('iphone_6_5')).toBe('6.5-inch iPhone display');
    expect(displaySizeName('ipadPro_2018')).toBe('12.9-inch iPad display');
    expect(displaySizeName('iphone_x99_new')).toBe('iPhone display');
  });
  it('the keyword field never claims more bytes can be freed than are used', () => {
    for (const text of ['music,music,music', 'music', 'music , music ,musics', 'Tune,Box,tunes']) {
      const c = checkKeywordField(text, 'Tune Box: Music', null);
      expect(c.wastedBytes).toBeLessThanOrEqual(c.bytes);
    }
    expect(checkKeywordField('music,music,music', 'Tune Box: Music', null)).toMatchObject({
      bytes: 17,
      wastedBytes: 17,
    });
    expect(checkKeywordField('radio,radios , radio', 'Tune', null).wastedBytes).toBe(15);
  });
});
