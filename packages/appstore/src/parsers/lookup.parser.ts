import {
  DEVICE_CLASSES,
  type TDeviceClass,
  type TListingField,
  type TScreenshot,
  type TScreenshotsByDevice,
} from '@aso/contracts';
import { sizeFromImageUrl } from './artwork.helpers';
import type { TListingPart, TListingValues } from './parser.types';
import {
  asArray,
  asRecord,
  cleanText,
  formatCount,
  formatRating,
  genreIdOf,
  toNumber,
} from './text.helpers';

type TRecord = Record<string, unknown>;

/** A parsed iTunes Lookup / Search API answer: `{ resultCount, results }`. */
export interface TLookupResponse {
  resultCount: number;
  results: TRecord[];
}

/**
 * Parses an iTunes Lookup (or Search) API answer. Apple sends three blank lines before the
 * JSON; they are allowed. Throws a `SyntaxError`/`TypeError` with a clear message when the text
 * is not `{ resultCount, results: [...] }`.
 */
export function parseLookupResponse(text: string): TLookupResponse {
  const root = asRecord(JSON.parse(text) as unknown);
  if (!root || !Array.isArray(root.results)) {
    throw new TypeError('expected a JSON object with a "results" array');
  }
  const results = root.results.map(asRecord).filter((r): r is TRecord => r !== null);
  return { resultCount: toNumber(root.resultCount) ?? results.length, results };
}

/** The result for `appId` (its `trackId`), or null when the answer does not hold it. */
export function findLookupResult(response: TLookupResponse, appId: string): TRecord | null {
  return response.results.find((r) => String(r.trackId) === appId) ?? null;
}

function screenshotsFrom(urls: unknown): TScreenshot[] {
  return asArray(urls).flatMap((u) => {
    if (typeof u !== 'string' || u === '') return [];
    // The lookup API has no size fields; the size is the one encoded in the URL (392x696bb).
    const size = sizeFromImageUrl(u) ?? { width: 0, height: 0 };
    return [{ url: u, ...size }];
  });
}

let languageNames: Intl.DisplayNames | null | undefined;

/**
 * English name of an ISO 639-1 code as the lookup API gives it ('EN' -> 'English',
 * 'NB' -> 'Norwegian Bokmål'); the code itself when the runtime has no name for it.
 */
export function languageName(code: string): string {
  if (languageNames === undefined) {
    try {
      languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
    } catch {
      languageNames = null;
    }
  }
  try {
    return languageNames?.of(code.toLowerCase()) ?? code;
  } catch {
    return code;
  }
}

function storeUrl(value: unknown): string | null {
  const raw = cleanText(value);
  if (!raw) return null;
  try {
    const url = new URL(raw);
    // `uo` is an affiliate/tracking parameter the lookup API appends; it is not the page.
    url.searchParams.delete('uo');
    return url.toString();
  } catch {
    return raw;
  }
}

// Prefixes of the lookup's `supportedDevices` model names ('iPhone5s-iPhone5s', 'iPadAir-…',
// 'Watch4-Watch4', 'AppleTV4K-…'), first match wins.
const DEVICE_PREFIXES: ReadonlyArray<[string, TDeviceClass]> = [
  ['iphone', 'iphone'],
  ['ipod', 'iphone'],
  ['ipad', 'ipad'],
  ['watch', 'watch'],
  ['appletv', 'tv'],
  ['mac', 'mac'],
  ['realitydevice', 'vision'],
  ['vision', 'vision'],
];

/**
 * Device classes of a lookup result, in `DEVICE_CLASSES` order: from its `supportedDevices`
 * model names, and `mac` for `kind: mac-software`. [] when it lists none.
 */
export function lookupDeviceClasses(result: TRecord): TDeviceClass[] {
  const found = new Set<TDeviceClass>();
  if (result.kind === 'mac-software') found.add('mac');
  for (const name of asArray(result.supportedDevices)) {
    if (typeof name !== 'string') continue;
    const lower = name.toLowerCase();
    const hit = DEVICE_PREFIXES.find(([prefix]) => lower.startsWith(prefix));
    if (hit) found.add(hit[1]);
  }
  return DEVICE_CLASSES.filter((d) => found.has(d));
}

/**
 * The listing values of one lookup result (LAYOUTS.md "iTunes Lookup"): name, developer,
 * genre, rating (averageUserRating), rating count, description, icon (512 px), screenshots
 * (iPhone, iPad and Apple TV; Mac for `kind: mac-software`), price, version, release notes,
 * languages (names from `languageCodesISO2A`), URL, bundle id, age rating, the genre id
 * (`primaryGenreId`), the current
 * version's release date (`currentVersionReleaseDate`), download size (`fileSizeBytes`),
 * supported device classes and minimum iOS version. It has no
 * subtitle, previews, in-app events or chart position.
 */
export function lookupValues(result: TRecord): Partial<TListingValues> {
  const values: Partial<TListingValues> = {};
  const name = cleanText(result.trackName);
  if (name) values.appName = name;
  const developer = cleanText(result.artistName) ?? cleanText(result.sellerName);
  if (developer) values.developer = developer;
  const category = cleanText(result.primaryGenreName) ?? cleanText(asArray(result.genres)[0]);
  if (category) values.category = category;
  const genreId = genreIdOf(result.primaryGenreId);
  if (genreId) values.genreId = genreId;
  const rating = toNumber(result.averageUserRating);
  if (rating !== null) values.rating = formatRating(rating);
  const count = toNumber(result.userRatingCount);
  if (count !== null) values.reviewCount = formatCount(count);
  const description = cleanText(result.description);
  if (description) values.description = description;
  const icon =
    cleanText(result.artworkUrl512) ??
    cleanText(result.artworkUrl100) ??
    cleanText(result.artworkUrl60);
  if (icon) values.iconUrl = icon;

  const screenshots: TScreenshotsByDevice = {};
  const main = screenshotsFrom(result.screenshotUrls);
  const isMac = result.kind === 'mac-software';
  if (main.length > 0) {
    screenshots[isMac ? 'mac' : 'iphone'] = {
      deviceType: isMac ? 'lookup:mac' : 'lookup:iphone',
      screenshots: main,
    };
  }
  const ipad = screenshotsFrom(result.ipadScreenshotUrls);
  if (ipad.length > 0) screenshots.ipad = { deviceType: 'lookup:ipad', screenshots: ipad };
  const tv = screenshotsFrom(result.appletvScreenshotUrls);
  if (tv.length > 0) screenshots.tv = { deviceType: 'lookup:tv', screenshots: tv };
  values.screenshots = screenshots;

  const amount = toNumber(result.price);
  if (amount !== null) {
    values.price = {
      amount,
      currency: cleanText(result.currency),
      formatted: cleanText(result.formattedPrice),
    };
  }
  const version = cleanText(result.version);
  if (version) {
    values.version = version;
    values.releaseNotes = cleanText(result.releaseNotes);
  }
  const codes = asArray(result.languageCodesISO2A).filter(
    (c): c is string => typeof c === 'string',
  );
  if (codes.length > 0) values.languages = codes.map(languageName);
  const url = storeUrl(result.trackViewUrl);
  if (url) values.appStoreUrl = url;
  const bundleId = cleanText(result.bundleId);
  if (bundleId) values.bundleId = bundleId;
  const age = cleanText(result.trackContentRating) ?? cleanText(result.contentAdvisoryRating);
  if (age) values.ageRating = age;
  if (version) {
    values.versionHistory = [
      {
        version,
        releaseDate: cleanText(result.currentVersionReleaseDate),
        releaseNotes: values.releaseNotes ?? null,
      },
    ];
  }
  const size = toNumber(result.fileSizeBytes);
  if (size !== null) values.fileSizeBytes = Math.round(size);
  const devices = lookupDeviceClasses(result);
  if (devices.length > 0) values.supportedDevices = devices;
  const minimumOs = cleanText(result.minimumOsVersion);
  if (minimumOs) values.minimumOsVersion = minimumOs;
  return values;
}

/**
 * Parses a lookup answer for one app: its listing part, or null when the answer does not hold
 * the app (`resultCount: 0`). Throws like {@link parseLookupResponse} on malformed text.
 */
export function parseLookup(text: string, appId: string): TListingPart | null {
  const result = findLookupResult(parseLookupResponse(text), appId);
  if (!result) return null;
  const genres = asArray(result.genres)
    .map(cleanText)
    .filter((g): g is string => g !== null);
  return { source: 'lookup', values: lookupValues(result), categoryNames: genres };
}

/**
 * Fields a lookup result can carry (see {@link lookupValues}): what stays unknown when the
 * lookup has no record of the app.
 */
export const LOOKUP_FIELDS: readonly TListingField[] = [
  'appName',
  'developer',
  'category',
  'rating',
  'reviewCount',
  'description',
  'iconUrl',
  'screenshots',
  'price',
  'version',
  'releaseNotes',
  'languages',
  'appStoreUrl',
  'bundleId',
  'ageRating',
  'versionHistory',
  'fileSizeBytes',
  'supportedDevices',
  'minimumOsVersion',
];
