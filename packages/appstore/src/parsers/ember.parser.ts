import type {
  TDeviceClass,
  TListingInAppEvent,
  TListingPrice,
  TPreviewVideo,
  TRatingHistogram,
  TScreenshotSet,
} from '@aso/contracts';
import { DEVICE_CLASSES, LISTING_FIELDS } from '@aso/contracts';
import { PageParseError } from '../errors/store.errors';
import { resolveArtworkUrl } from './artwork.helpers';
import { deviceClassOf, pickScreenshotSets, previewOrder } from './device-class.helpers';
import { findScript, toScannedPage, type TScannedPage } from './html-scan';
import { timeIndicatorOf } from './in-app-event.helpers';
import {
  suppliedFields,
  type TListingValues,
  type TPageParseContext,
  type TPageParser,
  type TPageParseResult,
} from './parser.types';
import {
  asArray,
  asRecord,
  cleanText,
  formatChartPosition,
  formatCount,
  formatRating,
  genreIdOf,
  toNumber,
} from './text.helpers';

/** id of the Ember layout's Media API cache script. */
export const EMBER_SHOEBOX_ID = 'shoebox-media-api-cache-apps';

// Platforms of `attributes.platformAttributes`, the one the audit is about (iOS) first.
const PLATFORM_ORDER = ['ios', 'osx', 'xros', 'watch', 'appletvos'];

type TRecord = Record<string, unknown>;

/**
 * The app's own Media API record (`d[]` entry of type `apps`) in the shoebox: the JSON object
 * whose values are JSON *strings* (decode twice) holding `{ x, d }`. Records of other apps
 * (`relationships.customers-also-bought-apps`, `developer-other-apps`) are never top-level
 * `d[]` entries, and top-level entries of another id are skipped when `appId` is given.
 * Throws PageParseError when the script is not JSON or holds no app record.
 */
export function findEmberAppRecord(shoeboxText: string, appId?: string): TRecord {
  let outer: unknown;
  try {
    outer = JSON.parse(shoeboxText);
  } catch (error) {
    throw new PageParseError(
      'ember',
      `the ${EMBER_SHOEBOX_ID} script is not JSON (${String(error)})`,
    );
  }
  const entries = asRecord(outer);
  if (!entries)
    throw new PageParseError('ember', `the ${EMBER_SHOEBOX_ID} script is not a JSON object`);
  const candidates: TRecord[] = [];
  for (const value of Object.values(entries)) {
    let inner: unknown = value;
    if (typeof value === 'string') {
      try {
        inner = JSON.parse(value);
      } catch (error) {
        throw new PageParseError('ember', `a cache entry is not JSON (${String(error)})`);
      }
    }
    for (const item of asArray(asRecord(inner)?.d)) {
      const record = asRecord(item);
      if (record?.type === 'apps') candidates.push(record);
    }
  }
  const own = appId === undefined ? candidates[0] : candidates.find((r) => String(r.id) === appId);
  if (!own) {
    throw new PageParseError(
      'ember',
      appId === undefined
        ? 'the Media API cache holds no app record'
        : `the Media API cache holds no record for app ${appId}`,
    );
  }
  return own;
}

function platformsOf(attributes: TRecord): Array<[string, TRecord]> {
  const all = asRecord(attributes.platformAttributes) ?? {};
  return Object.entries(all)
    .map(([name, value]) => [name, asRecord(value)] as const)
    .filter((e): e is readonly [string, TRecord] => e[1] !== null)
    .sort(
      ([a], [b]) => (PLATFORM_ORDER.indexOf(a) + 1 || 99) - (PLATFORM_ORDER.indexOf(b) + 1 || 99),
    )
    .map(([name, value]) => [name, value]);
}

function defaultCustomAttributes(platform: TRecord): TRecord {
  // `customAttributes.default.default` is what every visitor sees; sibling keys of the inner
  // `default` are product-page-optimisation treatments shown to a share of visitors only.
  return asRecord(asRecord(asRecord(platform.customAttributes)?.default)?.default) ?? {};
}

function artworkUrl(artwork: unknown): { url: string; width: number; height: number } | null {
  const a = asRecord(artwork);
  const template = typeof a?.url === 'string' ? a.url : null;
  const width = toNumber(a?.width);
  const height = toNumber(a?.height);
  if (!template || width === null || height === null) return null;
  return { url: resolveArtworkUrl(template, { width, height }), width, height };
}

function screenshotSets(platforms: Array<[string, TRecord]>): TScreenshotSet[] {
  const sets: TScreenshotSet[] = [];
  for (const [, platform] of platforms) {
    const byType =
      asRecord(defaultCustomAttributes(platform).customScreenshotsByType) ??
      asRecord(platform.screenshotsByType) ??
      {};
    for (const [deviceType, items] of Object.entries(byType)) {
      const screenshots = asArray(items)
        .map(artworkUrl)
        .filter((s): s is NonNullable<typeof s> => s !== null);
      sets.push({ deviceType, screenshots });
    }
  }
  return sets;
}

function previews(platforms: Array<[string, TRecord]>): TPreviewVideo[] {
  const found: TPreviewVideo[] = [];
  for (const [, platform] of platforms) {
    const custom = asRecord(defaultCustomAttributes(platform).customVideoPreviewsByType);
    const byType =
      custom && Object.keys(custom).length > 0
        ? custom
        : (asRecord(platform.videoPreviewsByType) ?? {});
    for (const [deviceType, items] of Object.entries(byType)) {
      const device = deviceClassOf(deviceType);
      if (!device) continue;
      for (const item of asArray(items)) {
        const v = asRecord(item);
        const videoUrl = typeof v?.video === 'string' ? v.video : null;
        if (
          !videoUrl ||
          found.some((p) => p.videoUrl === videoUrl && p.deviceType === deviceType)
        ) {
          continue;
        }
        found.push({
          device,
          deviceType,
          videoUrl,
          posterUrl: artworkUrl(v?.previewFrame)?.url ?? null,
        });
      }
    }
  }
  return found.sort(
    (a, b) => previewOrder(a.device, a.deviceType) - previewOrder(b.device, b.deviceType),
  );
}

function inAppEvents(record: TRecord): TListingInAppEvent[] {
  const relationships = asRecord(record.relationships) ?? {};
  return asArray(asRecord(relationships['app-events'])?.data).flatMap((item) => {
    const event = asRecord(item);
    const a = asRecord(event?.attributes);
    if (!event || !a) return [];
    const badgeKind = cleanText(a.badgeKind);
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    return [
      {
        id: typeof event.id === 'string' || typeof event.id === 'number' ? String(event.id) : '',
        timeIndicator: timeIndicatorOf(badgeKind),
        eventImage: artworkUrl(a.lockupArtwork)?.url ?? artworkUrl(a.artwork)?.url ?? null,
        eventBadge: cleanText(a.kind) ?? '',
        eventName: cleanText(a.name) ?? '',
        eventDescription:
          cleanText(asRecord(a.description)?.standard) ?? cleanText(a.description) ?? '',
        eventSubtitle: cleanText(a.subtitle),
        badgeKind,
        startDate: str(a.startDate),
        endDate: str(a.endDate),
        promotionStartDate: str(a.promotionStartDate),
        eventUrl: str(a.url),
      },
    ];
  });
}

function histogram(list: unknown): TRatingHistogram | undefined {
  const counts = asArray(list).map(toNumber);
  if (counts.length !== 5 || counts.some((c) => c === null)) return undefined;
  // ratingCountList is ordered 1 star .. 5 stars.
  const [one, two, three, four, five] = counts.map((c) => Math.round(c ?? 0));
  return { '1': one!, '2': two!, '3': three!, '4': four!, '5': five! };
}

function price(platform: TRecord): TListingPrice | undefined {
  const offers = asArray(platform.offers).map(asRecord);
  const offer = offers.find((o) => o?.type === 'get') ?? offers[0];
  const amount = toNumber(offer?.price);
  if (!offer || amount === null) return undefined;
  return {
    amount,
    currency: cleanText(offer.currencyCode),
    formatted: cleanText(offer.priceFormatted),
  };
}

/** Reads the listing values out of an Ember-layout app record. */
export function emberValues(record: TRecord): Partial<TListingValues> {
  const attributes = asRecord(record.attributes) ?? {};
  const platforms = platformsOf(attributes);
  const main = platforms[0]?.[1] ?? {};
  const values: Partial<TListingValues> = {};

  const name = cleanText(attributes.name);
  if (name) values.appName = name;
  const developer = cleanText(attributes.artistName) ?? cleanText(main.seller);
  if (developer) values.developer = developer;
  const genres = asArray(asRecord(asRecord(record.relationships)?.genres)?.data);
  const category =
    cleanText(attributes.genreDisplayName) ??
    cleanText(asRecord(asRecord(genres[0])?.attributes)?.name);
  if (category) values.category = category;
  const genreId = genreIdOf(asRecord(genres[0])?.id);
  if (genreId) values.genreId = genreId;

  // The page was read, so a missing subtitle means the app has none.
  const subtitle = cleanText(main.subtitle);
  values.subtitle =
    subtitle && (!category || subtitle.toLowerCase() !== category.toLowerCase()) ? subtitle : null;

  // `chartPositions.appStore` is absent when the app is not in a top chart: the page shows no
  // chart badge, hence 'Not ranked' (not 'N/A', which means "no source could tell").
  const chart = asRecord(asRecord(attributes.chartPositions)?.appStore);
  const position = toNumber(chart?.position);
  const genreName = cleanText(chart?.genreName) ?? category;
  if (chart && position !== null && genreName) {
    values.categoryRank = formatChartPosition(position, genreName);
    values.chartPosition = { position, genreName, chart: cleanText(chart.chart) };
  } else {
    values.categoryRank = 'Not ranked';
    values.chartPosition = null;
  }

  const userRating = asRecord(attributes.userRating);
  const ratingValue = toNumber(userRating?.value);
  const ratingCount = toNumber(userRating?.ratingCount);
  if (ratingValue !== null) values.rating = formatRating(ratingValue);
  if (ratingCount !== null) values.reviewCount = formatCount(ratingCount);
  const hist = histogram(userRating?.ratingCountList);
  if (hist) values.ratingHistogram = hist;

  const description =
    cleanText(asRecord(main.description)?.standard) ?? cleanText(main.description);
  if (description) values.description = description;
  const icon = artworkUrl(main.artwork);
  if (icon) values.iconUrl = icon.url;

  values.screenshots = pickScreenshotSets(screenshotSets(platforms));
  values.previews = previews(platforms);
  values.inAppEvents = inAppEvents(record);

  const p = price(main);
  if (p) values.price = p;
  const latest = asRecord(asArray(main.versionHistory)[0]);
  const version = cleanText(latest?.versionDisplay);
  if (version) {
    values.version = version;
    values.releaseNotes = cleanText(latest?.releaseNotes);
  }
  const languages = asArray(main.languageList)
    .map(cleanText)
    .filter((l): l is string => l !== null);
  if (languages.length > 0) values.languages = languages;
  const url = cleanText(attributes.url);
  if (url) values.appStoreUrl = url;
  const bundleId = cleanText(main.bundleId);
  if (bundleId) values.bundleId = bundleId;
  const age = cleanText(asRecord(asRecord(attributes.contentRatingsBySystem)?.appsApple)?.name);
  if (age) values.ageRating = age;
  const history = asArray(main.versionHistory).flatMap((item) => {
    const entry = asRecord(item);
    const v = cleanText(entry?.versionDisplay);
    if (!entry || !v) return [];
    return [
      {
        version: v,
        releaseDate: cleanText(entry.releaseTimestamp) ?? cleanText(entry.releaseDate),
        releaseNotes: cleanText(entry.releaseNotes),
      },
    ];
  });
  if (history.length > 0) values.versionHistory = history;
  const size = emberFileSize(attributes.fileSizeByDevice);
  if (size !== null) values.fileSizeBytes = size;
  const devices = emberDeviceClasses(attributes, main);
  if (devices.length > 0) values.supportedDevices = devices;
  const minimumOs = cleanText(main.minimumOSVersion);
  if (minimumOs) values.minimumOsVersion = minimumOs;
  const promo = defaultCustomAttributes(main).customPromotionalText;
  values.promotionalText = cleanText(promo) ?? cleanText(asRecord(promo)?.standard);
  return values;
}

/**
 * Download size the page shows for an iPhone: the largest `fileSizeByDevice` value of an
 * `iPhone…` model (the sizes differ per model by a few KB), else the largest of any model;
 * null when the page has none.
 */
function emberFileSize(bySize: unknown): number | null {
  const entries = Object.entries(asRecord(bySize) ?? {}).flatMap(([model, v]) => {
    const n = toNumber(v);
    return n === null ? [] : [{ model, n }];
  });
  const iphone = entries.filter((e) => e.model.startsWith('iPhone'));
  const pool = iphone.length > 0 ? iphone : entries;
  return pool.length === 0 ? null : Math.round(Math.max(...pool.map((e) => e.n)));
}

const EMBER_FAMILIES: Record<string, TDeviceClass> = {
  iphone: 'iphone',
  ipod: 'iphone',
  ipad: 'ipad',
  mac: 'mac',
  watch: 'watch',
  tvos: 'tv',
  realitydevice: 'vision',
  vision: 'vision',
};

/**
 * Device classes of the page (`deviceFamilies`), plus Mac when the iOS app runs on Apple
 * silicon Macs (`isIOSBinaryMacOSCompatible`) and Vision when it runs on Apple Vision Pro
 * (`isXROSCompatible`), as the page's Compatibility section lists them.
 */
function emberDeviceClasses(attributes: TRecord, main: TRecord): TDeviceClass[] {
  const found = new Set<TDeviceClass>();
  for (const family of asArray(attributes.deviceFamilies)) {
    const device = typeof family === 'string' ? EMBER_FAMILIES[family.toLowerCase()] : undefined;
    if (device) found.add(device);
  }
  if (attributes.isIOSBinaryMacOSCompatible === true) found.add('mac');
  if (main.isXROSCompatible === true) found.add('vision');
  return DEVICE_CLASSES.filter((d) => found.has(d));
}

/** The Ember page carries every listing field but the reviews summary (the RSS feed's). */
const EMBER_FIELDS = LISTING_FIELDS.filter((f) => f !== 'reviews');

/**
 * Parser of the Ember product page layout (first hand: `media-api_*` recordings): the page
 * embeds Apple's Media API catalog response in
 * `<script type="fastboot/shoebox" id="shoebox-media-api-cache-apps">`, a JSON object whose
 * values are JSON strings holding `{ x, d: [app] }` (LAYOUTS.md).
 */
export const emberPageParser: TPageParser = {
  layout: 'ember',
  marker: `<script id="${EMBER_SHOEBOX_ID}"> (Ember layout, Media API shoebox)`,
  fields: EMBER_FIELDS,
  detect(html: string | TScannedPage): boolean {
    return findScript(toScannedPage(html), 'id', EMBER_SHOEBOX_ID) !== undefined;
  },
  parse(html: string | TScannedPage, context: TPageParseContext = {}): TPageParseResult {
    const script = findScript(toScannedPage(html), 'id', EMBER_SHOEBOX_ID);
    if (!script) throw new PageParseError('ember', `no <script id="${EMBER_SHOEBOX_ID}">`);
    const values = emberValues(findEmberAppRecord(script.text, context.appId));
    return {
      layout: 'ember',
      part: { source: 'page:ember', values },
      ...suppliedFields(values, EMBER_FIELDS),
    };
  },
};
