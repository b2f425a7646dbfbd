import type {
  TListingPrice,
  TPreviewVideo,
  TRatingHistogram,
  TScreenshotSet,
} from '@aso/contracts';
import { PageParseError } from '../errors/store.errors';
import { resolveArtworkUrl } from './artwork.helpers';
import { deviceClassOf, pickScreenshotSets, previewOrder } from './device-class.helpers';
import { findScript, toScannedPage, type TScannedPage } from './html-scan';
import { readInformationShelf } from './information-shelf';
import { findSoftwareApplicationBlock } from './json-ld.parser';
import {
  suppliedFields,
  type TListingValues,
  type TPageParseContext,
  type TPageParseResult,
  type TPageParser,
} from './parser.types';
import { asArray, asRecord, cleanText, formatCount, formatRating, toNumber } from './text.helpers';

/** id of the 2025 layout's server data script. */
export const SERVER_DATA_SCRIPT_ID = 'serialized-server-data';

type TRecord = Record<string, unknown>;

const MEDIA_SHELF = /^product_media_(phone|pad|mac|vision|watch|tv)_/i;

/**
 * The page model of a 2025-layout page: `{ data: [ { intent, data } ] }` (older snapshots: a
 * bare array), model = `data[0].data`; when that entry is not the product page (it has no
 * `lockup`, `shelfMapping` or `title`), the first entry that is. Throws PageParseError when
 * the script is not JSON or has no such model.
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
  const entries = (Array.isArray(root) ? root : asArray(asRecord(root)?.data))
    .map((entry) => asRecord(asRecord(entry)?.data))
    .filter((model): model is TRecord => model !== null);
  const model =
    entries.find((m) => m.lockup !== undefined || m.shelfMapping !== undefined) ?? entries[0];
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

/**
 * The app's price from the lockup's offer (`offerDisplayProperties`: `isFree`, `priceFormatted`,
 * `price`) and the page's JSON-LD block `ld` (its offer's `price`, `priceCurrency`). A free app shows no price
 * string, so `formatted` stays null unless the page has one. Undefined without a lockup offer
 * (the JSON-LD parser then reads the JSON-LD offer alone) or when no amount is given.
 */
function lockupPrice(offer: TRecord | null, ld: TRecord | null): TListingPrice | undefined {
  if (!offer) return undefined;
  const ldOffer = asRecord(Array.isArray(ld?.offers) ? ld.offers[0] : ld?.offers);
  const currency = cleanText(ldOffer?.priceCurrency) ?? cleanText(offer.currencyCode);
  // A paid app's buy button shows its price ('$4.99', '3,99 €'), a free one 'Get' / '받기'.
  const button = cleanText(asRecord(offer.titles)?.standard);
  const formatted =
    cleanText(offer.priceFormatted) ??
    (offer.isFree !== true && button && /\p{Nd}/u.test(button) ? button : null);
  const amount = offer.isFree === true ? 0 : (toNumber(ldOffer?.price) ?? toNumber(offer.price));
  if (amount === null) return undefined;
  return { amount, currency, formatted };
}

/**
 * Reads the listing values out of a 2025-layout page model (see {@link serverDataPageParser}).
 * Identity comes from the model's own places (`title`, `developerAction`, `lockup`,
 * `offerDisplayProperties`), the category, languages and age rating from the Information
 * shelf read by row structure, and the subtitle is null when the lockup shows the category in
 * its place (equal, case-insensitively, to the category row, the JSON-LD category or a
 * `categoryHints` name).
 */
export function serverDataValues(
  model: TRecord,
  page: TScannedPage,
  context: TPageParseContext = {},
): Partial<TListingValues> {
  const values: Partial<TListingValues> = {};
  const lockup = asRecord(model.lockup);
  const offer = asRecord(lockup?.offerDisplayProperties);
  const shelves = asRecord(model.shelfMapping) ?? {};

  // The page <title> reads "\u200E<Name> App - App Store"; cleanText strips the mark.
  const titleName = cleanText(page.title?.replace(/\s+App\s+-\s+App Store\s*$/i, ''));
  const name = cleanText(model.title) ?? cleanText(lockup?.title) ?? titleName;
  if (name) values.appName = name;
  const developer =
    cleanText(asRecord(model.developerAction)?.title) ?? cleanText(lockup?.developerName);
  if (developer) values.developer = developer;

  const ld = findSoftwareApplicationBlock(page);
  const ldCategories = [cleanText(ld?.applicationCategory), ...asArray(ld?.genre).map(cleanText)];
  const hints = [...(context.categoryHints ?? []), ...ldCategories].filter(
    (h): h is string => typeof h === 'string' && h !== '',
  );
  const info = readInformationShelf(shelves.information, {
    locale: page.lang,
    developerNames: developer ? [developer] : [],
    categoryHints: hints,
  });
  if (info.category) values.category = info.category;
  if (info.languages && info.languages.length > 0) values.languages = info.languages;
  if (info.ageRating) values.ageRating = info.ageRating;
  if (info.fileSizeBytes !== null) values.fileSizeBytes = info.fileSizeBytes;
  if (info.supportedDevices.length > 0) values.supportedDevices = info.supportedDevices;
  if (info.minimumOsVersion) values.minimumOsVersion = info.minimumOsVersion;

  // When an app has no subtitle the 2025 lockup shows the category in its place. Without a
  // lockup the page says nothing about the subtitle: it stays unknown.
  if (lockup) {
    const subtitle = cleanText(lockup.subtitle);
    const categories = new Set(
      [info.category, ...hints].filter((c): c is string => !!c).map((c) => c.toLowerCase()),
    );
    values.subtitle = subtitle && !categories.has(subtitle.toLowerCase()) ? subtitle : null;
  }

  Object.assign(values, ratings(shelves));

  const descriptionItem = asRecord(asArray(asRecord(shelves.description)?.items)[0]);
  const description =
    cleanText(asRecord(descriptionItem?.paragraph)?.text) ?? cleanText(descriptionItem?.text);
  if (description) values.description = description;

  const icon = artworkUrl(lockup?.icon);
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

  const bundleId = cleanText(offer?.bundleId) ?? cleanText(lockup?.bundleId);
  if (bundleId) values.bundleId = bundleId;
  const price = lockupPrice(offer, ld);
  if (price) values.price = price;
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
  'price',
  'fileSizeBytes',
  'supportedDevices',
  'minimumOsVersion',
] as const;

/**
 * Parser of the 2025 product page layout (`<script type="application/json"
 * id="serialized-server-data">`), checked against Apple's own pages on several storefronts
 * (fixtures `page2025-trimmed_*`, LAYOUTS.md). Reads the page model `data[0].data`: `title`,
 * `developerAction.title`, `lockup` (subtitle, icon) and its `offerDisplayProperties` (app id,
 * bundle id, `isFree`), the Information shelf by row structure (category, languages, age
 * rating, size, compatible devices and lowest iOS; see `readInformationShelf`), `shelfMapping.productRatings`, the
 * `product_media_<device>_...` shelves (screenshots and `video` previews), `description` and
 * `mostRecentVersion`; the price also uses the page's JSON-LD offer. In-app events and chart
 * position are not confirmed in this layout, so this parser never supplies them.
 *
 * Throws PageParseError when the script is not JSON, has no page model, or the model is about
 * another app than `context.appId` (its `adamId`).
 */
export const serverDataPageParser: TPageParser = {
  layout: '2025',
  marker: `<script id="${SERVER_DATA_SCRIPT_ID}"> (2025 layout)`,
  fields: SERVER_DATA_FIELDS,
  detect(html: string | TScannedPage): boolean {
    return findScript(toScannedPage(html), 'id', SERVER_DATA_SCRIPT_ID) !== undefined;
  },
  parse(html: string | TScannedPage, context: TPageParseContext = {}): TPageParseResult {
    const page = toScannedPage(html);
    const script = findScript(page, 'id', SERVER_DATA_SCRIPT_ID);
    if (!script) throw new PageParseError('2025', `no <script id="${SERVER_DATA_SCRIPT_ID}">`);
    const model = findServerDataModel(script.text);
    const offer = asRecord(asRecord(model.lockup)?.offerDisplayProperties);
    const adamId = offer?.adamId;
    const pageAppId =
      typeof adamId === 'string' || typeof adamId === 'number' ? String(adamId) : null;
    if (context.appId && pageAppId && pageAppId !== context.appId) {
      throw new PageParseError(
        '2025',
        `the page is about app ${pageAppId}, not app ${context.appId}`,
      );
    }
    const values = serverDataValues(model, page, context);
    const storefront = cleanText(
      asRecord(asRecord(model.pageMetrics)?.pageFields)?.storeFront,
    )?.toLowerCase();
    return {
      layout: '2025',
      part: { source: 'page:2025', values },
      ...suppliedFields(values, SERVER_DATA_FIELDS),
      language: page.lang,
      storefront: storefront ?? null,
    };
  },
};
