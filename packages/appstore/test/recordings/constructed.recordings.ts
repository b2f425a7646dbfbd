/**
 * CONSTRUCTED test data, not recordings: writes the `constructed-*` files of this folder, one
 * invented app ("Calm Notes", id 6450000001, US storefront) as the lookup API and the Ember
 * product page (Media API shoebox) would have answered on three days. Every value is invented;
 * the shapes follow fixtures/LAYOUTS.md. Between the days the listing changes field by field,
 * as {@link CONSTRUCTED_CHANGES} lists, so history and change detection can be tested through
 * the replay server's as-of day with the real parsers.
 *
 * Regenerate with `pnpm exec tsx packages/appstore/test/recordings/constructed.recordings.ts`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONSTRUCTED_APP = {
  appId: '6450000001',
  storefront: 'us',
  slug: 'calm-notes',
  url: 'https://apps.apple.com/us/app/calm-notes-journal-mood/id6450000001',
} as const;

/** The capture days of the constructed recordings, oldest first. */
export const CONSTRUCTED_DAYS = ['2026-05-01', '2026-06-01', '2026-07-01'] as const;

const CDN = 'https://is1-ssl.mzstatic.com/image/thumb/Purple221/v4/c0/n5/7r/constructed';
const art = (file: string, width: number, height: number) => ({
  url: `${CDN}/${file}/{w}x{h}{c}.{f}`,
  width,
  height,
});

interface TDayListing {
  name: string;
  subtitle: string;
  icon: string;
  description: string;
  promo: string | null;
  phone: string[];
  pad: string[];
  previews: string[];
  events: Array<{
    id: string;
    name: string;
    kind: string;
    badgeKind: string;
    start: string;
    end: string;
  }>;
  version: string;
  releaseDate: string;
  notes: string;
  price: number;
  languages: string[];
  rating: number;
  ratingCount: number;
  rank: number;
}

const DAY1: TDayListing = {
  name: 'Calm Notes: Journal & Mood',
  subtitle: 'Daily journal & mood tracker',
  icon: 'AppIcon-1.png',
  description: 'Write & reflect every day.\nTrack your mood over time.\nPrivate by design.',
  promo: null,
  phone: ['phone-1.png', 'phone-2.png', 'phone-3.png'],
  pad: ['pad-1.png', 'pad-2.png'],
  previews: [],
  events: [
    {
      id: '6700000001',
      name: 'Spring reset',
      kind: 'CHALLENGE',
      badgeKind: 'happening',
      start: '2026-04-20T00:00:00Z',
      end: '2026-05-20T00:00:00Z',
    },
  ],
  version: '3.2.1',
  releaseDate: '2026-04-28',
  notes: 'Bug fixes and performance improvements.',
  price: 0,
  languages: ['English', 'French'],
  rating: 4.52,
  ratingCount: 1210,
  rank: 48,
};

/** 2026-06-01: a listing update touching every tracked field but the price. */
const DAY2: TDayListing = {
  name: 'Calm Notes: Mood Journal',
  subtitle: 'Journal, mood & gratitude',
  icon: 'AppIcon-2.png',
  description:
    'Write & reflect every day.\nTrack your mood and gratitude over time.\nPrivate by design.',
  promo: 'New: weekly mood insights.',
  phone: ['phone-4.png', 'phone-1.png', 'phone-3.png'],
  pad: ['pad-1.png'],
  previews: ['preview-1'],
  events: [
    {
      id: '6700000002',
      name: 'Gratitude June',
      kind: 'CHALLENGE',
      badgeKind: 'happening',
      start: '2026-05-28T00:00:00Z',
      end: '2026-06-28T00:00:00Z',
    },
  ],
  version: '3.3.0',
  releaseDate: '2026-05-30',
  notes: 'Weekly mood insights and a gratitude prompt.',
  price: 0,
  languages: ['English', 'French', 'German'],
  rating: 4.61,
  ratingCount: 1302,
  rank: 31,
};

/** 2026-07-01: only the price and the rating count move (the rating by less than 0.05). */
const DAY3: TDayListing = {
  ...DAY2,
  events: [],
  price: 2.99,
  rating: 4.63,
  ratingCount: 1350,
};

/** The changes a reader must find between consecutive days, by field. */
export const CONSTRUCTED_CHANGES = {
  '2026-06-01': [
    'title',
    'subtitle',
    'icon',
    'description',
    'promotionalText',
    'screenshots.iphone',
    'screenshots.ipad',
    'previews',
    'inAppEvents',
    'version',
    'releaseNotes',
    'languages',
    'rating',
    'ratingCount',
    'categoryRank',
  ],
  '2026-07-01': ['inAppEvents', 'price', 'ratingCount'],
} as const;

function mediaApi(day: string, l: TDayListing): string {
  const record = {
    id: CONSTRUCTED_APP.appId,
    type: 'apps',
    href: `/v1/catalog/us/apps/${CONSTRUCTED_APP.appId}`,
    attributes: {
      name: l.name,
      artistName: 'Calm Notes Ltd',
      url: CONSTRUCTED_APP.url,
      genreDisplayName: 'Health & Fitness',
      userRating: {
        value: l.rating,
        ratingCount: l.ratingCount,
        ratingCountList: [40, 30, 60, 200, l.ratingCount - 330],
      },
      chartPositions: {
        appStore: {
          position: l.rank,
          genreName: 'Health & Fitness',
          genre: 6013,
          chart: 'top-free',
          chartLink: 'https://apps.apple.com/us/charts/iphone/health-fitness-apps/6013',
        },
      },
      contentRatingsBySystem: { appsApple: { name: '4+' } },
      platformAttributes: {
        ios: {
          subtitle: l.subtitle,
          bundleId: 'com.example.calmnotes',
          minimumOSVersion: '16.0',
          description: { standard: l.description },
          artwork: art(l.icon, 1024, 1024),
          versionHistory: [
            { versionDisplay: l.version, releaseNotes: l.notes, releaseDate: l.releaseDate },
          ],
          languageList: l.languages,
          offers: [
            {
              type: l.price === 0 ? 'get' : 'buy',
              price: l.price,
              priceFormatted: l.price === 0 ? 'Free' : `$${l.price.toFixed(2)}`,
              currencyCode: 'USD',
            },
          ],
          customAttributes: {
            default: {
              default: {
                customScreenshotsByType: {
                  iphone_6_5: l.phone.map((f) => art(f, 1242, 2688)),
                  ipadPro_2018: l.pad.map((f) => art(f, 2048, 2732)),
                },
                customVideoPreviewsByType: Object.fromEntries(
                  l.previews.length === 0
                    ? []
                    : [
                        [
                          'iphone_6_5',
                          l.previews.map((p) => ({
                            previewFrame: art(`${p}-frame.png`, 886, 1920),
                            video: `https://apptrailers.itunes.apple.com/itunes-assets/constructed/${p}.m3u8`,
                          })),
                        ],
                      ],
                ),
                ...(l.promo ? { customPromotionalText: l.promo } : {}),
              },
            },
          },
        },
      },
    },
    relationships: {
      genres: { data: [{ id: '6013', type: 'genres', attributes: { name: 'Health & Fitness' } }] },
      'app-events': {
        data: l.events.map((e) => ({
          id: e.id,
          type: 'app-events',
          attributes: {
            name: e.name,
            subtitle: null,
            description: { standard: `${e.name}: a constructed event.` },
            kind: e.kind,
            badgeKind: e.badgeKind,
            startDate: e.start,
            endDate: e.end,
            promotionStartDate: e.start,
            url: `${CONSTRUCTED_APP.url}?eventid=${e.id}`,
            lockupArtwork: art(`event-${e.id}.png`, 1920, 1080),
          },
        })),
      },
    },
  };
  const key = `\uF8FF.v1.catalog.us.apps.${CONSTRUCTED_APP.appId}.l.en-us`;
  return JSON.stringify({
    [key]: JSON.stringify({ x: Date.parse(`${day}T06:00:00Z`), d: [record] }),
  });
}

function lookup(l: TDayListing): string {
  const result = {
    kind: 'software',
    trackId: Number(CONSTRUCTED_APP.appId),
    trackName: l.name,
    artistName: 'Calm Notes Ltd',
    sellerName: 'Calm Notes Ltd',
    bundleId: 'com.example.calmnotes',
    primaryGenreName: 'Health & Fitness',
    genres: ['Health & Fitness', 'Lifestyle'],
    averageUserRating: l.rating,
    userRatingCount: l.ratingCount,
    description: l.description,
    artworkUrl512: `${CDN}/${l.icon}/512x512bb.jpg`,
    screenshotUrls: l.phone.map((f) => `${CDN}/${f}/392x696bb.jpg`),
    ipadScreenshotUrls: l.pad.map((f) => `${CDN}/${f}/576x768bb.jpg`),
    appletvScreenshotUrls: [],
    price: l.price,
    formattedPrice: l.price === 0 ? 'Free' : `$${l.price.toFixed(2)}`,
    currency: 'USD',
    version: l.version,
    releaseNotes: l.notes,
    currentVersionReleaseDate: `${l.releaseDate}T07:00:00Z`,
    languageCodesISO2A: l.languages.map((n) => n.slice(0, 2).toUpperCase()),
    contentAdvisoryRating: '4+',
    trackContentRating: '4+',
    trackViewUrl: `${CONSTRUCTED_APP.url}?uo=4`,
    fileSizeBytes: '73400320',
    minimumOsVersion: '16.0',
    supportedDevices: ['iPhone15-iPhone15', 'iPadPro11M4-iPadPro11M4'],
  };
  // Apple's lookup answers start with three blank lines.
  return `\n\n\n${JSON.stringify({ resultCount: 1, results: [result] })}\n`;
}

/** Writes the constructed recordings into `dir`. */
export function writeConstructedRecordings(dir: string): void {
  const days: Array<[string, TDayListing]> = [
    [CONSTRUCTED_DAYS[0], DAY1],
    [CONSTRUCTED_DAYS[1], DAY2],
    [CONSTRUCTED_DAYS[2], DAY3],
  ];
  const { storefront, slug, appId } = CONSTRUCTED_APP;
  for (const [day, l] of days) {
    const name = (kind: string) =>
      `constructed-${kind}_${storefront}_${slug}_id${appId}_${day}.json`;
    writeFileSync(path.join(dir, name('media-api')), mediaApi(day, l));
    writeFileSync(path.join(dir, name('itunes-lookup')), lookup(l));
  }
}

/** This folder: the project's own constructed recordings (`constructed-*`). */
export const CONSTRUCTED_RECORDINGS_DIR = path.dirname(fileURLToPath(import.meta.url));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeConstructedRecordings(CONSTRUCTED_RECORDINGS_DIR);
}
