import {
  LISTING_FIELDS,
  ZAppListing,
  type TAppListing,
  type TFieldProvenance,
  type TListingField,
  type TListingFieldSource,
  type TReviewsSummary,
  type TStoreData,
} from '@aso/contracts';
import { LOOKUP_FIELDS } from '../parsers/lookup.parser';
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
  /**
   * How each source went (the store client's reports). Without it, a source counts as `ok`
   * when it yielded something and `skipped` otherwise.
   */
  sources?: TStoreData['sources'];
  /** The `?l=` language the page was asked in, when one was. */
  requestedLanguage?: string | null;
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

/** A value that says "the listing has none": null, '', [], {} or 'Not ranked'. */
function isNone(field: TListingField, value: unknown): boolean {
  if (value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (field === 'categoryRank') return value === 'Not ranked';
  if (field === 'screenshots') return Object.keys(value as object).length === 0;
  return false;
}

function defaultSources(input: TMergeListingInput): TStoreData['sources'] {
  const report = (yielded: boolean) =>
    ({ status: yielded ? 'ok' : 'skipped', detail: null }) as const;
  return {
    lookup: report(input.lookup !== null),
    page: report(input.page !== null),
    reviews: report(input.reviews !== null),
  };
}

/**
 * Why no source supplied `field`: what the product page and the lookup said about it, e.g.
 * 'product page: HTTP 503; lookup: app not listed', 'not found on the 2025 page' or 'not read
 * from the 2025 page layout'.
 */
function unreadableReason(
  field: TListingField,
  input: TMergeListingInput,
  sources: TStoreData['sources'],
): string {
  if (field === 'reviews') {
    const r = sources.reviews;
    if (r.status === 'failed') return `reviews feed: ${r.detail ?? 'failed'}`;
    return r.status === 'skipped' ? 'reviews feed not read' : 'reviews feed: none';
  }
  const reasons: string[] = [];
  const page = sources.page;
  if (input.page) {
    reasons.push(
      input.page.carries.includes(field)
        ? `not found on the ${input.page.layout} page`
        : `not read from the ${input.page.layout} page layout`,
    );
  } else if (page.status === 'failed') reasons.push(`product page: ${page.detail ?? 'failed'}`);
  else if (page.status === 'not_found') reasons.push('no product page (404)');
  else reasons.push('product page not read');
  if (LOOKUP_FIELDS.includes(field)) {
    const lookup = sources.lookup;
    if (lookup.status === 'failed') reasons.push(`lookup: ${lookup.detail ?? 'failed'}`);
    else if (lookup.status === 'not_found') reasons.push('lookup: app not listed');
    else if (input.lookup) reasons.push('not in the lookup');
  }
  return reasons.join('; ');
}

/**
 * Builds the normalised listing from what each source yielded (docs/product.md#how-an-audit-runs):
 *
 * - Where both have a field, the product page wins (it is what shoppers see): the page
 *   layout's own data first, then the page's JSON-LD, then the lookup API. A field is taken
 *   whole from one source (screenshots too: per-device sets are not mixed across sources,
 *   except that an empty page screenshot map lets the lookup's sets through).
 * - `categoryRank` carries `chartPosition` with it; `previewVideoUrl`/`previewPosterUrl` are
 *   the first preview (iPhone first).
 * - A subtitle equal (case-insensitively) to a category any source names (the page's
 *   category row or JSON-LD, the lookup's `primaryGenreName` or `genres`) means no subtitle:
 *   the 2025 page shows the category in place of a missing subtitle.
 * - `fieldSources` names the source of each field, `unknownFields` the fields no source
 *   supplied (they hold the placeholders described in contracts/listing.ts); `appStoreUrl`
 *   falls back to `https://apps.apple.com/<cc>/app/id<id>` and is then not listed as unknown.
 * - `reviews` is the RSS summary (source 'reviews').
 * - `storeData` records the layout, the page's language, how each source went and every
 *   field's provenance: `read`, `not_on_listing` (a source says the app has none) or
 *   `unreadable` with the reason.
 *
 * Throws a ZodError if the result does not satisfy `ZAppListing` (a bug, not bad input).
 */
export function mergeListing(input: TMergeListingInput): TAppListing {
  const parts: TListingPart[] = [
    ...(input.page?.parts ?? []),
    ...(input.lookup ? [input.lookup] : []),
  ];
  const sources = input.sources ?? defaultSources(input);
  const fieldSources: Partial<Record<TListingField, TListingFieldSource>> = {};
  const provenance: Partial<Record<TListingField, TFieldProvenance>> = {};
  const unknownFields: TListingField[] = [];
  const merged: Record<string, unknown> = { ...UNKNOWN };
  const unreadable = (field: TListingField) => {
    unknownFields.push(field);
    provenance[field] = {
      state: 'unreadable',
      source: null,
      reason: unreadableReason(field, input, sources),
    };
  };

  for (const field of LISTING_FIELDS) {
    if (field === 'reviews') continue;
    const part =
      parts.find((p) => hasValue(p.values, field)) ??
      parts.find((p) => p.values[field] !== undefined);
    if (!part) {
      if (field !== 'appStoreUrl') unreadable(field);
      continue;
    }
    merged[field] = part.values[field];
    fieldSources[field] = part.source;
    provenance[field] = {
      state: isNone(field, part.values[field]) ? 'not_on_listing' : 'read',
      source: part.source,
      reason: null,
    };
    if (field === 'categoryRank') merged.chartPosition = part.values.chartPosition ?? null;
  }

  if (input.reviews) {
    fieldSources.reviews = 'reviews';
    provenance.reviews = {
      state: input.reviews.count > 0 ? 'read' : 'not_on_listing',
      source: 'reviews',
      reason: null,
    };
  } else unreadable('reviews');

  // The genre id names the category in any language: taken from any source that gives it,
  // whichever gave the category's name.
  const genreId = parts.map((p) => p.values.genreId).find((id) => id !== undefined);
  if (genreId !== undefined) merged.genreId = genreId;

  const categories = new Set(
    parts
      .flatMap((p) => [p.values.category, ...(p.categoryNames ?? [])])
      .filter((c): c is string => typeof c === 'string' && c !== '')
      .map((c) => c.toLowerCase()),
  );
  const subtitle = merged.subtitle as string | null;
  if (subtitle !== null && categories.has(subtitle.toLowerCase())) {
    merged.subtitle = null;
    provenance.subtitle = { state: 'not_on_listing', source: fieldSources.subtitle!, reason: null };
  }

  const previews = merged.previews as TAppListing['previews'];
  const storefront = input.storefront.toLowerCase();
  const layout = input.page?.layout ?? 'none';
  const listing = {
    ...merged,
    appId: input.appId,
    storefront,
    appStoreUrl:
      (merged.appStoreUrl as string | undefined) ??
      `https://apps.apple.com/${storefront}/app/id${input.appId}`,
    previewVideoUrl: previews[0]?.videoUrl ?? null,
    previewPosterUrl: previews[0]?.posterUrl ?? null,
    reviews: input.reviews,
    fetchedAt: input.fetchedAt ?? new Date().toISOString(),
    sourceLayout: layout,
    fieldSources,
    unknownFields,
    storeData: {
      layout,
      pageLanguage: input.page?.language ?? null,
      requestedLanguage: input.requestedLanguage ?? null,
      sources,
      fields: provenance,
    },
  };
  return ZAppListing.parse(listing);
}

/**
 * The iPhone screenshot URLs of a listing in store order (the documented Audit `screenshots`, a
 * list of URLs); the iPad set when the app has no iPhone screenshots; else [].
 */
export function primaryScreenshotUrls(listing: Pick<TAppListing, 'screenshots'>): string[] {
  const set = listing.screenshots.iphone ?? listing.screenshots.ipad;
  return set ? set.screenshots.map((s) => s.url) : [];
}
