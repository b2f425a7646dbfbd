import type { TPreviewVideo, TRatingHistogram, TScreenshotSet } from '@aso/contracts';
import { PageParseError } from '../errors/store.errors';
import { resolveArtworkUrl } from './artwork.util';
import { deviceClassOf, pickScreenshotSets, previewOrder } from './device-class.util';
import { findScript, toScannedPage, type TScannedPage } from './html-scan';
import {
  suppliedFields,
  type TListingValues,
  type TPageParseResult,
  type TPageParser,
} from './parser.types';
import { asArray, asRecord, cleanText, formatCount, formatRating, toNumber } from './text.util';

/** id of the 2025 layout's server data script. */
export const SERVER_DATA_SCRIPT_ID = 'serialized-server-data';

type TRecord = Record<string, unknown>;

const MEDIA_SHELF = /^product_media_(phone|pad|mac|vision|watch|tv)_/i;

/**
 * The page model of a 2025-layout page: `{ data: [ { intent, data } ] }` (older snapshots: a
 * bare array), model = `data[0].data`. Throws PageParseError when the script is not JSON or
 * has no such model.
 */
export function findServerDataModel(text: string): TRecord {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new PageParseError(
      '2025',
      `the ${SERVER_DATA_SCRIPT_ID} script is not JSON (${String(error)})`,
    );
  }
  const entries = Array.isArray(root) ? root : asArray(asRecord(root)?.data);
  const model = asRecord(asRecord(entries[0])?.data);
  if (!model) {
    throw new PageParseError(
      '2025',
      `the ${SERVER_DATA_SCRIPT_ID} script has no data[0].data page model`,
    );
  }
  return model;
}

/** An Apple artwork object of this layout (`template`, `width`, `height`, `crop`, `variants`). */
function artworkUrl(artwork: unknown): { url: string; width: number; height: number } | null {
  const a = asRecord(artwork);
  const template = typeof a?.template === 'string' ? a.template : null;
  const width = toNumber(a?.width);
  const height = toNumber(a?.height);
  if (!template || width === null || height === null) return null;
  const format = asRecord(asArray(a?.variants)[0])?.format;
  return {
    url: resolveArtworkUrl(template, {
      width,
      height,
      crop: typeof a?.crop === 'string' ? a.crop : null,
      format: typeof format === 'string' ? format : null,
    }),
    width,
    height,
  };
}

/** Rows of the Information shelf by lower-case title ('provider', 'category', 'languages', ...). */
function informationRows(shelves: TRecord): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const item of asArray(asRecord(shelves.information)?.items)) {
    const row = asRecord(item);
    const title = cleanText(row?.title)?.toLowerCase();
    if (!title) continue;
    const texts = asArray(row?.items)
      .map((entry) => cleanText(asRecord(entry)?.text) ?? cleanText(entry))
      .filter((t): t is string => t !== null);
    rows.set(title, texts);
  }
  return rows;
}

function ratings(shelves: TRecord): Partial<TListingValues> {
  const item = asRecord(asArray(asRecord(shelves.productRatings)?.items)[0]);
  const values: Partial<TListingValues> = {};
  const average = toNumber(item?.ratingAverage);
  const total = toNumber(item?.totalNumberOfRatings);
  if (average !== null) values.rating = formatRating(average);
  if (total !== null) values.reviewCount = formatCount(total);
  // ratingCounts are ordered 5 stars .. 1 star and may be floats (LAYOUTS.md): round.
  const counts = asArray(item?.ratingCounts).map(toNumber);
  if (counts.length === 5 && counts.every((c) => c !== null)) {
    const [five, four, three, two, one] = counts.map((c) => Math.round(c ?? 0));
    values.ratingHistogram = {
      '1': one!,
      '2': two!,
      '3': three!,
      '4': four!,
      '5': five!,
    } satisfies TRatingHistogram;
  }
  return values;
}

function media(shelves: TRecord): { sets: TScreenshotSet[]; previews: TPreviewVideo[] } {
  const sets: TScreenshotSet[] = [];
  const previews: TPreviewVideo[] = [];
  for (const [key, shelf] of Object.entries(shelves)) {
    if (!MEDIA_SHELF.test(key)) continue;
    const device = deviceClassOf(key);
    if (!device) continue;
    const set: TScreenshotSet = { deviceType: key, screenshots: [] };
    for (const item of asArray(asRecord(shelf)?.items)) {
      const entry = asRecord(item);
      const shot = artworkUrl(entry?.screenshot);
      if (shot) set.screenshots.push(shot);
      const video = asRecord(entry?.video);
      const videoUrl = cleanText(video?.videoUrl);
      if (videoUrl && !previews.some((p) => p.videoUrl === videoUrl)) {
        previews.push({
          device,
          deviceType: key,
          videoUrl,
          posterUrl: artworkUrl(video?.preview)?.url ?? null,
        });
      }
    }
    sets.push(set);
  }
  previews.sort(
    (a, b) => previewOrder(a.device, a.deviceType) - previewOrder(b.device, b.deviceType),
  );
  return { sets, previews };
}

function splitList(texts: string[]): string[] {
  return texts
    .flatMap((t) => t.split(/,\s*|\s+and\s+/))
    .map((t) => t.trim())
    .filter((t) => t !== '' && !/^\d+\s+more$/i.test(t));
}

/** Reads the listing values out of a 2025-layout page model and page title. */
export function serverDataValues(model: TRecord, page: TScannedPage): Partial<TListingValues> {
  const values: Partial<TListingValues> = {};
  const lockup = asRecord(model.lockup) ?? {};
  const shelves = asRecord(model.shelfMapping) ?? {};
  const info = informationRows(shelves);

  // The page <title> reads "\u200E<Name> App - App Store"; cleanText strips the mark.
  const titleName = cleanText(page.title?.replace(/\s+App\s+-\s+App Store\s*$/i, ''));
  const name = cleanText(lockup.title) ?? cleanText(model.title) ?? titleName;
  if (name) values.appName = name;
  const developer = info.get('provider')?.[0] ?? info.get('seller')?.[0];
  if (developer) values.developer = developer;
  const category = info.get('category')?.[0];
  if (category) values.category = category;

  // When an app has no subtitle the 2025 lockup shows the category in its place.
  const subtitle = cleanText(lockup.subtitle);
  values.subtitle =
    subtitle && (!category || subtitle.toLowerCase() !== category.toLowerCase()) ? subtitle : null;

  Object.assign(values, ratings(shelves));

  const descriptionItem = asRecord(asArray(asRecord(shelves.description)?.items)[0]);
  const description =
    cleanText(asRecord(descriptionItem?.paragraph)?.text) ?? cleanText(descriptionItem?.text);
  if (description) values.description = description;

  const icon = artworkUrl(lockup.icon);
  if (icon) values.iconUrl = icon.url;

  const { sets, previews } = media(shelves);
  if (sets.length > 0 || previews.length > 0) {
    values.screenshots = pickScreenshotSets(sets);
    values.previews = previews;
  }

  const recent = asRecord(asArray(asRecord(shelves.mostRecentVersion)?.items)[0]);
  const version = cleanText(recent?.primarySubtitle)?.replace(/^version\s+/i, '');
  if (version) {
    values.version = version;
    values.releaseNotes = cleanText(recent?.text);
  }

  const languages = info.get('languages');
  if (languages && languages.length > 0) values.languages = splitList(languages);
  const age = info.get('age rating')?.[0];
  if (age) values.ageRating = age;
  const bundleId = cleanText(lockup.bundleId);
  if (bundleId) values.bundleId = bundleId;
  if (page.canonicalUrl) values.appStoreUrl = page.canonicalUrl;
  return values;
}

const SERVER_DATA_FIELDS = [
  'appName',
  'subtitle',
  'developer',
  'category',
  'rating',
  'reviewCount',
  'ratingHistogram',
  'description',
  'iconUrl',
  'screenshots',
  'previews',
  'version',
  'releaseNotes',
  'languages',
  'appStoreUrl',
  'bundleId',
  'ageRating',
] as const;

/**
 * Parser of the 2025 product page layout, written from second-hand descriptions (LAYOUTS.md:
 * public parser code; no recorded page of this layout exists). It reads
 * `<script type="application/json" id="serialized-server-data">`: `data[0].data.lockup`
 * (title, subtitle, bundleId, icon), `shelfMapping.productRatings`, the
 * `product_media_<device>_...` shelves (screenshots and `video` previews), `description`,
 * `mostRecentVersion` and the `information` rows. In-app events and chart position are not
 * confirmed in this layout, so this parser never supplies them; the price comes from the
 * page's JSON-LD.
 */
export const serverDataPageParser: TPageParser = {
  layout: '2025',
  marker: `<script id="${SERVER_DATA_SCRIPT_ID}"> (2025 layout)`,
  fields: SERVER_DATA_FIELDS,
  detect(html: string | TScannedPage): boolean {
    return findScript(toScannedPage(html), 'id', SERVER_DATA_SCRIPT_ID) !== undefined;
  },
  parse(html: string | TScannedPage): TPageParseResult {
    const page = toScannedPage(html);
    const script = findScript(page, 'id', SERVER_DATA_SCRIPT_ID);
    if (!script) throw new PageParseError('2025', `no <script id="${SERVER_DATA_SCRIPT_ID}">`);
    const values = serverDataValues(findServerDataModel(script.text), page);
    return {
      layout: '2025',
      part: { source: 'page:2025', values },
      ...suppliedFields(values, SERVER_DATA_FIELDS),
    };
  },
};
