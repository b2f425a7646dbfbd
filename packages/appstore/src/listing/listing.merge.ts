import {
  LISTING_FIELDS,
  ZAppListing,
  type TAppListing,
  type TListingField,
  type TListingFieldSource,
  type TReviewsSummary,
} from '@aso/contracts';
import type { TParsedProductPage } from '../parsers/product-page.parser';
import type { TListingPart, TListingValues } from '../parsers/parser.types';

/** Inputs of {@link mergeListing}. */
export interface TMergeListingInput {
  appId: string;
  /** Two-letter storefront, lower case. */
  storefront: string;
  /** The lookup API's part, or null when the lookup did not have the app or failed. */
  lookup: TListingPart | null;
  /** The parsed product page, or null when the page was missing (404) or failed. */
  page: TParsedProductPage | null;
  /** Summary of the reviews RSS feed, or null when it was not read. */
  reviews: TReviewsSummary | null;
  /** When the data was fetched (ISO 8601); now by default. */
  fetchedAt?: string;
}

// Placeholders of fields no source supplied (see the rules at the top of contracts/listing.ts).
const UNKNOWN: Pick<
  TAppListing,
  | 'appName'
  | 'subtitle'
  | 'developer'
  | 'category'
  | 'categoryRank'
  | 'chartPosition'
  | 'rating'
  | 'reviewCount'
  | 'ratingHistogram'
  | 'description'
  | 'iconUrl'
  | 'screenshots'
  | 'previews'
  | 'inAppEvents'
  | 'price'
  | 'version'
  | 'releaseNotes'
  | 'languages'
  | 'bundleId'
  | 'ageRating'
  | 'promotionalText'
  | 'versionHistory'
  | 'fileSizeBytes'
  | 'supportedDevices'
  | 'minimumOsVersion'
> = {
  appName: '',
  subtitle: null,
  developer: '',
  category: '',
  categoryRank: 'N/A',
  chartPosition: null,
  rating: '0',
  reviewCount: '0',
  ratingHistogram: null,
  description: '',
  iconUrl: '',
  screenshots: {},
  previews: [],
  inAppEvents: [],
  price: null,
  version: null,
  releaseNotes: null,
  languages: [],
  bundleId: null,
  ageRating: null,
  promotionalText: null,
  versionHistory: [],
  fileSizeBytes: null,
  supportedDevices: [],
  minimumOsVersion: null,
};

function hasValue(values: Partial<TListingValues>, field: keyof TListingValues): boolean {
  const value = values[field];
  if (value === undefined) return false;
  // An empty screenshot map says nothing the lookup could not say better.
  if (field === 'screenshots') return Object.keys(value as object).length > 0;
  return true;
}

/**
 * Builds the normalised listing from what each source yielded (DESIGN section 2):
 *
 * - Where both have a field, the product page wins (it is what shoppers see): the page
 *   layout's own data first, then the page's JSON-LD, then the lookup API. A field is taken
 *   whole from one source (screenshots too: per-device sets are not mixed across sources,
 *   except that an empty page screenshot map lets the lookup's sets through).
 * - `categoryRank` carries `chartPosition` with it; `previewVideoUrl`/`previewPosterUrl` are
 *   the first preview (iPhone first).
 * - A subtitle equal to the category (case-insensitive) means no subtitle.
 * - `fieldSources` names the source of each field, `unknownFields` the fields no source
 *   supplied (they hold the placeholders described in contracts/listing.ts); `appStoreUrl`
 *   falls back to `https://apps.apple.com/<cc>/app/id<id>` and is then not listed as unknown.
 * - `reviews` is the RSS summary (source 'reviews').
 *
 * Throws a ZodError if the result does not satisfy `ZAppListing` (a bug, not bad input).
 */
export function mergeListing(input: TMergeListingInput): TAppListing {
  const parts: TListingPart[] = [
    ...(input.page?.parts ?? []),
    ...(input.lookup ? [input.lookup] : []),
  ];
  const fieldSources: Partial<Record<TListingField, TListingFieldSource>> = {};
  const unknownFields: TListingField[] = [];
  const merged: Record<string, unknown> = { ...UNKNOWN };

  for (const field of LISTING_FIELDS) {
    if (field === 'reviews') continue;
    const part =
      parts.find((p) => hasValue(p.values, field)) ??
      parts.find((p) => p.values[field] !== undefined);
    if (!part) {
      if (field !== 'appStoreUrl') unknownFields.push(field);
      continue;
    }
    merged[field] = part.values[field];
    fieldSources[field] = part.source;
    if (field === 'categoryRank') merged.chartPosition = part.values.chartPosition ?? null;
  }

  if (input.reviews) fieldSources.reviews = 'reviews';
  else unknownFields.push('reviews');

  const category = merged.category as string;
  const subtitle = merged.subtitle as string | null;
  if (subtitle !== null && category !== '' && subtitle.toLowerCase() === category.toLowerCase()) {
    merged.subtitle = null;
  }

  const previews = merged.previews as TAppListing['previews'];
  const listing = {
    ...merged,
    appId: input.appId,
    storefront: input.storefront.toLowerCase(),
    appStoreUrl:
      (merged.appStoreUrl as string | undefined) ??
      `https://apps.apple.com/${input.storefront.toLowerCase()}/app/id${input.appId}`,
    previewVideoUrl: previews[0]?.videoUrl ?? null,
    previewPosterUrl: previews[0]?.posterUrl ?? null,
    reviews: input.reviews,
    fetchedAt: input.fetchedAt ?? new Date().toISOString(),
    sourceLayout: input.page?.layout ?? 'none',
    fieldSources,
    unknownFields,
  };
  return ZAppListing.parse(listing);
}

/**
 * The iPhone screenshot URLs of a listing in store order (the spec's Audit `screenshots`, a
 * list of URLs); the iPad set when the app has no iPhone screenshots; else [].
 */
export function primaryScreenshotUrls(listing: Pick<TAppListing, 'screenshots'>): string[] {
  const set = listing.screenshots.iphone ?? listing.screenshots.ipad;
  return set ? set.screenshots.map((s) => s.url) : [];
}
