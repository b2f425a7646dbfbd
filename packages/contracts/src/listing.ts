import { z } from 'zod';

/**
 * The normalised App Store listing of one app in one storefront
 * (docs/product.md#store-data-sources). The scraper builds it from the iTunes Lookup API, the
 * product page (whatever layout Apple serves) and the customer-reviews RSS feed; it is stored as
 * the `listing` JSON of an `app_snapshots` row and feeds the documented Audit and competitorData
 * (docs/product.md#entities).
 *
 * Unknown values: a field that no source supplied is listed in `unknownFields` and holds a
 * neutral placeholder ('' for text, '0' for rating and reviewCount, 'N/A' for categoryRank,
 * null or [] for the rest), so consumers can tell "the store says none" (field known, value
 * empty) from "we could not read it" (field in `unknownFields`).
 */

/** Device classes of the App Store, in the order the store lists them. */
export const DEVICE_CLASSES = ['iphone', 'ipad', 'mac', 'watch', 'tv', 'vision'] as const;
export const ZDeviceClass = z.enum(DEVICE_CLASSES);
export type TDeviceClass = z.infer<typeof ZDeviceClass>;

/** Which source supplied a listing field: a product page layout, the lookup API or the RSS feed. */
export const ZListingFieldSource = z.enum([
  'page:ember',
  'page:2025',
  'page:jsonld',
  'lookup',
  'reviews',
]);
export type TListingFieldSource = z.infer<typeof ZListingFieldSource>;

/**
 * Product page layout a listing was read from: `ember` (Media API shoebox JSON), `2025`
 * (`serialized-server-data`), `jsonld` (only the schema.org block understood) or `none` (no
 * product page: built from the lookup API alone).
 */
export const ZPageLayout = z.enum(['ember', '2025', 'jsonld', 'none']);
export type TPageLayout = z.infer<typeof ZPageLayout>;

/** One screenshot with its real pixel size (width x height in px) and resolved image URL. */
export const ZScreenshot = z.object({
  url: z.string(),
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
});
export type TScreenshot = z.infer<typeof ZScreenshot>;

/**
 * Screenshots per device class. Each class holds the one set the store shows for it (for
 * iPhone the largest display size the developer uploaded, e.g. Apple's `iphone_d74` 6.9" set
 * before `iphone_6_5` and `iphone6+`); `deviceType` names Apple's display-size key the set
 * came from (`lookup:iphone` etc. when it came from the lookup API, which has no such key).
 */
export const ZScreenshotSet = z.object({
  deviceType: z.string(),
  screenshots: z.array(ZScreenshot),
});
export type TScreenshotSet = z.infer<typeof ZScreenshotSet>;
export const ZScreenshotsByDevice = z.partialRecord(ZDeviceClass, ZScreenshotSet);
export type TScreenshotsByDevice = z.infer<typeof ZScreenshotsByDevice>;

/** One app preview video: device class, Apple's display-size key, HLS URL and poster frame. */
export const ZPreviewVideo = z.object({
  device: ZDeviceClass,
  deviceType: z.string(),
  /** HLS playlist (`.m3u8`) URL. */
  videoUrl: z.string(),
  /** Poster frame (Apple's `previewFrame`) resolved at its recorded size, when present. */
  posterUrl: z.string().nullable(),
});
export type TPreviewVideo = z.infer<typeof ZPreviewVideo>;

/** In-app event of a listing (docs/product.md#entities: inAppEvents item). */
export const ZInAppEvent = z.object({
  timeIndicator: z.string(),
  eventImage: z.string().nullable(),
  eventBadge: z.string(),
  eventName: z.string(),
  eventDescription: z.string(),
  startDate: z.string().nullable().optional(),
  endDate: z.string().nullable().optional(),
});
export type TInAppEvent = z.infer<typeof ZInAppEvent>;

/**
 * An in-app event as the product page shows it: the documented inAppEvents item
 * (docs/product.md#entities) plus the event id, subtitle, Apple's badge kind and the event page
 * URL. `timeIndicator` is the store's badge text ('HAPPENING NOW', 'NOW AVAILABLE', 'EVENT ENDED',
 * 'LIVE', or 'UPCOMING' for an event that has not started), `eventBadge` the event kind
 * ('CHALLENGE', 'MAJOR UPDATE', ...). Dates are ISO 8601 UTC.
 */
export const ZListingInAppEvent = ZInAppEvent.extend({
  id: z.string(),
  eventSubtitle: z.string().nullable(),
  badgeKind: z.string().nullable(),
  promotionStartDate: z.string().nullable(),
  eventUrl: z.string().nullable(),
});
export type TListingInAppEvent = z.infer<typeof ZListingInAppEvent>;

/**
 * One release of the app as the store lists it (newest first in `versionHistory`):
 * `releaseDate` ISO 8601 (a date, or a date and time in UTC), null when not shown.
 */
export const ZVersionRelease = z.object({
  version: z.string(),
  releaseDate: z.string().nullable(),
  releaseNotes: z.string().nullable(),
});
export type TVersionRelease = z.infer<typeof ZVersionRelease>;

/**
 * One recent customer review of the RSS feed: 1-5 stars, title and text as written (text cut at
 * {@link RECENT_REVIEW_MAX_CHARS} characters), the app version it names, ISO 8601 time.
 */
export const ZRecentReview = z.object({
  rating: z.number().int().min(1).max(5),
  title: z.string().nullable(),
  content: z.string().nullable(),
  version: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type TRecentReview = z.infer<typeof ZRecentReview>;

/** Characters of a review's text kept in a listing (the rest is cut; quotes are shorter). */
export const RECENT_REVIEW_MAX_CHARS = 600;

/** Number of ratings per star value, keys '1'..'5' (counts rounded to integers). */
export const ZRatingHistogram = z.object({
  '1': z.number().int().nonnegative(),
  '2': z.number().int().nonnegative(),
  '3': z.number().int().nonnegative(),
  '4': z.number().int().nonnegative(),
  '5': z.number().int().nonnegative(),
});
export type TRatingHistogram = z.infer<typeof ZRatingHistogram>;

/** The app's position in a store chart, e.g. #1 in Music (top-free). */
export const ZChartPosition = z.object({
  position: z.number().int().positive(),
  genreName: z.string(),
  /** Apple's chart id: 'top-free', 'top-paid', ... */
  chart: z.string().nullable(),
});
export type TChartPosition = z.infer<typeof ZChartPosition>;

/** Price of the app (not of in-app purchases). `amount` in the storefront's currency units. */
export const ZListingPrice = z.object({
  amount: z.number().nonnegative(),
  currency: z.string().nullable(),
  /** The store's display text, e.g. 'Free' or '$0.00' or '$4.99'. */
  formatted: z.string().nullable(),
});
export type TListingPrice = z.infer<typeof ZListingPrice>;

/**
 * Summary of the most recent customer reviews (RSS feed, newest first, up to 50 on page 1).
 * `averageRecent` is the mean star value of those reviews (0-5, 2 decimals); it describes the
 * recent sample, not the store rating.
 */
export const ZReviewsSummary = z.object({
  count: z.number().int().nonnegative(),
  averageRecent: z.number().min(0).max(5).nullable(),
  distribution: ZRatingHistogram,
  newestAt: z.string().nullable(),
  oldestAt: z.string().nullable(),
  /** The reviews themselves, newest first (absent in listings recorded before they were kept). */
  recent: z.array(ZRecentReview).optional(),
});
export type TReviewsSummary = z.infer<typeof ZReviewsSummary>;

/** Names of the listing fields whose source is recorded in `fieldSources`. */
export const LISTING_FIELDS = [
  'appName',
  'subtitle',
  'developer',
  'category',
  'categoryRank',
  'rating',
  'reviewCount',
  'ratingHistogram',
  'description',
  'iconUrl',
  'screenshots',
  'previews',
  'inAppEvents',
  'price',
  'version',
  'releaseNotes',
  'languages',
  'appStoreUrl',
  'bundleId',
  'ageRating',
  'promotionalText',
  'reviews',
  'versionHistory',
  'fileSizeBytes',
  'supportedDevices',
  'minimumOsVersion',
] as const;
export const ZListingField = z.enum(LISTING_FIELDS);
export type TListingField = z.infer<typeof ZListingField>;

/** The three store sources a listing is read from. */
export const STORE_SOURCES = ['lookup', 'page', 'reviews'] as const;
export const ZStoreSource = z.enum(STORE_SOURCES);
export type TStoreSource = z.infer<typeof ZStoreSource>;

/**
 * How one source of a scrape went: `ok` (answered and read), `not_found` (the store says the
 * app is not there: lookup `resultCount: 0`, page 404), `failed` (no usable answer: HTTP error,
 * timeout, unknown page layout, ...; `detail` says which, without URLs), `skipped` (not asked).
 */
export const ZStoreSourceReport = z.object({
  status: z.enum(['ok', 'not_found', 'failed', 'skipped']),
  detail: z.string().nullable(),
  /**
   * Offline replay only: the capture date of the recorded answer ('2026-06', '2025-07-06'; ''
   * when the recording is undated). Absent for an answer read live from the store.
   */
  recordedOn: z.string().max(10).optional(),
});
export type TStoreSourceReport = z.infer<typeof ZStoreSourceReport>;

/**
 * What became of one listing field:
 * - `read`: a source supplied a value;
 * - `not_on_listing`: a source that shows the field says the app has none (no subtitle, no
 *   preview video, no in-app events ...);
 * - `unreadable`: no source supplied it (a source failed, the page layout does not carry it or
 *   its parser did not find it); the field then holds the placeholder described above and is
 *   listed in `unknownFields`.
 */
export const FIELD_STATES = ['read', 'not_on_listing', 'unreadable'] as const;
export const ZFieldState = z.enum(FIELD_STATES);
export type TFieldState = z.infer<typeof ZFieldState>;

/** Provenance of one field: its state, the source that decided it, and why it is unreadable. */
export const ZFieldProvenance = z.object({
  state: ZFieldState,
  /** The source whose value (or "none") was taken; null when unreadable. */
  source: ZListingFieldSource.nullable(),
  /** Why no source supplied the field (unreadable only), e.g. 'product page: HTTP 503'. */
  reason: z.string().nullable(),
});
export type TFieldProvenance = z.infer<typeof ZFieldProvenance>;

/**
 * The record of one store read of a listing ("store data"): the product page layout read, the
 * page's language (its `<html lang>`, e.g. 'ko', 'pt-BR'), the `?l=` language the read asked
 * for, how each source went, and the provenance of every listing field.
 */
export const ZStoreData = z.object({
  layout: ZPageLayout,
  pageLanguage: z.string().nullable(),
  requestedLanguage: z.string().nullable(),
  sources: z.object({
    lookup: ZStoreSourceReport,
    page: ZStoreSourceReport,
    reviews: ZStoreSourceReport,
  }),
  fields: z.partialRecord(ZListingField, ZFieldProvenance),
  /** When the store was read (ISO 8601, the listing's `fetchedAt`); filled in API answers. */
  readAt: z.string().optional(),
});
export type TStoreData = z.infer<typeof ZStoreData>;

/** The normalised listing (see the top of this file for the rules on unknown values). */
export const ZAppListing = z.object({
  appId: z.string().regex(/^\d+$/),
  storefront: z.string().regex(/^[a-z]{2}$/),
  appName: z.string(),
  /** null when the app has none (a subtitle equal to the category counts as none). */
  subtitle: z.string().nullable(),
  developer: z.string(),
  category: z.string(),
  /**
   * The App Store genre id of the category ('6007', see `APP_STORE_GENRES`), from the lookup
   * API's `primaryGenreId` or the page's genre record: the category's name is the storefront's
   * own ('생산성'), the id names it in any language. Absent on listings read before it was kept
   * or when no source gave it.
   */
  genreId: z.string().regex(/^\d+$/).optional(),
  /** '#<n> in <genre>' from the store chart; 'Not ranked' when the product page shows no chart position; 'N/A' when no source could tell. */
  categoryRank: z.string(),
  chartPosition: ZChartPosition.nullable(),
  /** Average user rating 0-5 as text, rounded to at most 2 decimals (the source's precision is kept below that: '4.8' stays '4.8'). */
  rating: z.string(),
  /** Number of ratings, an integer as text ('36130486'). */
  reviewCount: z.string(),
  ratingHistogram: ZRatingHistogram.nullable(),
  description: z.string(),
  iconUrl: z.string(),
  /** The first preview video's HLS URL (iPhone first), null when the app has none. */
  previewVideoUrl: z.string().nullable(),
  previewPosterUrl: z.string().nullable(),
  previews: z.array(ZPreviewVideo),
  screenshots: ZScreenshotsByDevice,
  inAppEvents: z.array(ZListingInAppEvent),
  price: ZListingPrice.nullable(),
  version: z.string().nullable(),
  releaseNotes: z.string().nullable(),
  /**
   * Languages the app supports, as the storefront lists them: in the page's language on a
   * product page ('한국어', '日本語', 'Alemão', ...), English names from the lookup API's ISO codes
   * ('English', 'French', ...).
   */
  languages: z.array(z.string()),
  appStoreUrl: z.string(),
  bundleId: z.string().nullable(),
  ageRating: z.string().nullable(),
  promotionalText: z.string().nullable(),
  reviews: ZReviewsSummary.nullable(),
  /**
   * Releases, newest first: the product page's version history, or the lookup API's current
   * version with its `currentVersionReleaseDate`. Optional: listings recorded before it was
   * read lack it (then it is unknown, like a field in `unknownFields`).
   */
  versionHistory: z.array(ZVersionRelease).optional(),
  /** Download size in bytes (lookup `fileSizeBytes`, or the page's largest iPhone size); null when not shown. */
  fileSizeBytes: z.number().int().nonnegative().nullable().optional(),
  /** Device classes the store lists the app for (iPhone, iPad, Mac, Apple Watch, Apple TV, Vision). */
  supportedDevices: z.array(ZDeviceClass).optional(),
  /** Lowest iOS version the app needs ('16.1'), null when not shown. */
  minimumOsVersion: z.string().nullable().optional(),
  fetchedAt: z.iso.datetime({ offset: true }),
  sourceLayout: ZPageLayout,
  fieldSources: z.partialRecord(ZListingField, ZListingFieldSource),
  unknownFields: z.array(ZListingField),
  /**
   * How the store was read and what came of each field (see {@link ZStoreData}). Absent on
   * listings stored before it was recorded.
   */
  storeData: ZStoreData.optional(),
});
export type TAppListing = z.infer<typeof ZAppListing>;
