import type { TSectionKey } from './audit';
import {
  LISTING_FIELDS,
  STORE_SOURCES,
  type TAppListing,
  type TFieldState,
  type TListingField,
  type TPageLayout,
  type TStoreData,
  type TStoreSource,
} from './listing';

/**
 * Reading a listing's store data record (contracts `ZStoreData`): field labels, the fields each
 * analysis section is judged from, and the compact "store data" line shown on the results page,
 * the standalone page and in the CLI. Pure and browser-safe.
 */

/** Plain-language name of each listing field, as the store data line names it. */
export const LISTING_FIELD_LABELS: Record<TListingField, string> = {
  appName: 'name',
  subtitle: 'subtitle',
  developer: 'developer',
  category: 'category',
  categoryRank: 'chart position',
  rating: 'rating',
  reviewCount: 'rating count',
  ratingHistogram: 'rating breakdown',
  description: 'description',
  iconUrl: 'icon',
  screenshots: 'screenshots',
  previews: 'preview videos',
  inAppEvents: 'in-app events',
  price: 'price',
  version: 'version',
  releaseNotes: 'release notes',
  languages: 'languages',
  appStoreUrl: 'store URL',
  bundleId: 'bundle id',
  ageRating: 'age rating',
  promotionalText: 'promotional text',
  reviews: 'recent reviews',
  versionHistory: 'version history',
  fileSizeBytes: 'download size',
  supportedDevices: 'supported devices',
  minimumOsVersion: 'minimum iOS version',
};

/** How the store data line names a page layout. */
export const PAGE_LAYOUT_LABELS: Record<TPageLayout, string> = {
  ember: 'Ember page layout',
  '2025': '2025 page layout',
  jsonld: 'page JSON-LD only',
  none: 'no product page',
};

const SOURCE_LABELS: Record<Exclude<TStoreSource, 'page'>, string> = {
  lookup: 'lookup',
  reviews: 'reviews feed',
};

/**
 * The listing fields each analysis section is judged from. `keywords` is judged from the
 * user's own keyword text, not from the store.
 */
export const SECTION_INPUT_FIELDS: Record<TSectionKey, readonly TListingField[]> = {
  title: ['appName'],
  subtitle: ['subtitle'],
  keywords: [],
  icon: ['iconUrl'],
  video: ['previews'],
  screenshots: ['screenshots'],
  rating: ['rating', 'reviewCount'],
  category: ['category'],
  inAppEvents: ['inAppEvents'],
  description: ['description', 'promotionalText'],
  updates: ['versionHistory', 'releaseNotes'],
  localization: ['languages'],
  reviews: ['ratingHistogram', 'reviews'],
  appSize: ['fileSizeBytes'],
  compatibility: ['supportedDevices'],
};

/**
 * The state of `field` in `listing`: from its store data record when present; for listings
 * stored before that record existed, `unreadable` when the field is in `unknownFields`,
 * `not_on_listing` when a source supplied an empty value (null, '' or []), else `read`.
 */
export function listingFieldState(
  listing: Pick<TAppListing, 'unknownFields'> &
    Partial<Pick<TAppListing, 'storeData'>> &
    Partial<Record<TListingField, unknown>>,
  field: TListingField,
): TFieldState {
  const recorded = listing.storeData?.fields[field]?.state;
  if (recorded) return recorded;
  if (listing.unknownFields.includes(field)) return 'unreadable';
  const value = listing[field];
  return value === null || value === '' || (Array.isArray(value) && value.length === 0)
    ? 'not_on_listing'
    : 'read';
}

/** An unreadable input field of a section, with the reason recorded for it. */
export interface TUnreadableInput {
  field: TListingField;
  label: string;
  reason: string | null;
}

/**
 * The inputs of analysis section `section` that could not be read from the store (empty when
 * every input was read or is known to be absent), so a section can say it was not judged on
 * them.
 */
export function unreadableSectionInputs(
  storeData: TStoreData | null | undefined,
  section: TSectionKey,
): TUnreadableInput[] {
  if (!storeData) return [];
  return SECTION_INPUT_FIELDS[section].flatMap((field) => {
    const provenance = storeData.fields[field];
    return provenance?.state === 'unreadable'
      ? [{ field, label: LISTING_FIELD_LABELS[field], reason: provenance.reason }]
      : [];
  });
}

/** The store data record grouped for display (see {@link storeDataLine}). */
export interface TStoreDataSummary {
  /** The product page read, e.g. '2025 page layout (ko)', 'product page failed (HTTP 503)'. */
  layout: string;
  /** One phrase per other source that was asked, e.g. 'lookup', 'reviews feed failed (HTTP 503)'. */
  sources: string[];
  /** Labels of the fields the listing does not have. */
  notOnListing: string[];
  /** Unreadable fields grouped by reason, in field order. */
  unreadable: Array<{ reason: string | null; labels: string[] }>;
}

/**
 * Groups a store data record for display: the layout read (with the page's language), how each
 * source went, the fields not on the listing, and the unreadable fields grouped by reason.
 * `reviews` (the recent reviews summary) is reported with the sources, not as a field.
 */
export function summariseStoreData(storeData: TStoreData): TStoreDataSummary {
  const { page } = storeData.sources;
  const language = storeData.pageLanguage ? ` (${storeData.pageLanguage})` : '';
  const layout =
    page.status === 'ok'
      ? `${PAGE_LAYOUT_LABELS[storeData.layout]}${language}`
      : page.status === 'not_found'
        ? 'no product page (404)'
        : page.status === 'failed'
          ? `product page failed${page.detail ? ` (${page.detail})` : ''}`
          : 'product page not read';
  const sources: string[] = [];
  for (const source of ['lookup', 'reviews'] as const) {
    const report = storeData.sources[source];
    const label = SOURCE_LABELS[source];
    if (report.status === 'ok') sources.push(label);
    else if (report.status === 'not_found') sources.push(`${label}: app not listed`);
    else if (report.status === 'failed') {
      sources.push(`${label} failed${report.detail ? ` (${report.detail})` : ''}`);
    }
  }
  const notOnListing: string[] = [];
  const groups = new Map<string, string[]>();
  for (const field of LISTING_FIELDS) {
    if (field === 'reviews') continue;
    const provenance = storeData.fields[field];
    if (!provenance) continue;
    if (provenance.state === 'not_on_listing') notOnListing.push(LISTING_FIELD_LABELS[field]);
    else if (provenance.state === 'unreadable') {
      const key = provenance.reason ?? '';
      groups.set(key, [...(groups.get(key) ?? []), LISTING_FIELD_LABELS[field]]);
    }
  }
  return {
    layout,
    sources,
    notOnListing,
    unreadable: [...groups].map(([reason, labels]) => ({ reason: reason || null, labels })),
  };
}

/**
 * The compact "store data" line of a listing, e.g.
 * `Store data: 2025 page layout (ko), lookup: app not listed, reviews feed. Not on the listing:
 * preview videos. Could not be read: chart position, in-app events (the 2025 page layout does
 * not carry them); rating, rating count (not found on the page).`
 */
export function storeDataLine(storeData: TStoreData): string {
  const s = summariseStoreData(storeData);
  let line = `Store data: ${[s.layout, ...s.sources].join(', ')}.`;
  if (s.notOnListing.length > 0) line += ` Not on the listing: ${s.notOnListing.join(', ')}.`;
  if (s.unreadable.length > 0) {
    const parts = s.unreadable.map(
      (g) => `${g.labels.join(', ')}${g.reason ? ` (${g.reason})` : ''}`,
    );
    line += ` Could not be read: ${parts.join('; ')}.`;
  } else {
    line += ' Every field could be read.';
  }
  return line;
}

const SOURCE_NAMES: Record<TStoreSource, string> = {
  lookup: 'lookup',
  page: 'product page',
  reviews: 'reviews feed',
};

/** The source of a field provenance ('page:2025' -> 'page'). */
function sourceOf(source: string | null): TStoreSource | null {
  if (source === null) return null;
  if (source.startsWith('page')) return 'page';
  return source === 'lookup' || source === 'reviews' ? source : null;
}

/** The recording dates of the sources a replayed listing was read from (none for a live read). */
function recordedSources(storeData: TStoreData): TStoreSource[] {
  return STORE_SOURCES.filter(
    (s) => storeData.sources[s].status === 'ok' && storeData.sources[s].recordedOn !== undefined,
  );
}

const recordingDate = (storeData: TStoreData, source: TStoreSource): string =>
  storeData.sources[source].recordedOn || 'undated';

/**
 * When the store data of one app was read, in short, as the competitor table and the PDF's page
 * header state it: 'read 2026-11-28 09:14 UTC' for a live read (UTC, to the minute); in offline
 * replay 'recorded 2026-06 (offline replay)', or 'recorded 2025-07 and 2026-06 (offline replay)'
 * when its sources were recorded on different dates (dates ascending, 'undated' last). Null when
 * the record has neither a read time nor a recording date.
 */
export function storeDataWhen(storeData: TStoreData): string | null {
  const recorded = recordedSources(storeData);
  if (recorded.length > 0) {
    const dates = [...new Set(recorded.map((s) => recordingDate(storeData, s)))].sort((a, b) =>
      a === 'undated' ? 1 : b === 'undated' ? -1 : a.localeCompare(b),
    );
    const list =
      dates.length === 1 ? dates[0]! : `${dates.slice(0, -1).join(', ')} and ${dates.at(-1)!}`;
    return `recorded ${list} (offline replay)`;
  }
  if (!storeData.readAt) return null;
  const at = new Date(storeData.readAt);
  if (Number.isNaN(at.getTime())) return null;
  return `read ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * When the store data of one app was read, as every audit, its PDF and the CLI state it:
 * 'Store data read 2026-11-28 09:14 UTC' for a live read; in offline replay 'Store data
 * recorded 2026-06 (offline replay)', or, when the sources were recorded on different dates,
 * each date with the fields read from it ('Store data recorded on different dates (offline
 * replay): product page 2025-07 (name, version, ...); lookup 2026-06 (...)'), so no field is
 * read against another's date. Null when the record has no read time and no recording date.
 */
export function storeDataDateLine(storeData: TStoreData): string | null {
  const recorded = recordedSources(storeData);
  const dates = new Set(recorded.map((s) => recordingDate(storeData, s)));
  if (dates.size > 1) {
    const parts = recorded.map((source) => {
      const fields = LISTING_FIELDS.filter(
        (f) => sourceOf(storeData.fields[f]?.source ?? null) === source,
      ).map((f) => LISTING_FIELD_LABELS[f]);
      return `${SOURCE_NAMES[source]} ${recordingDate(storeData, source)}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`;
    });
    return `Store data recorded on different dates (offline replay): ${parts.join('; ')}`;
  }
  const when = storeDataWhen(storeData);
  return when === null ? null : `Store data ${when}`;
}

/**
 * The time listing field `field` describes (ms since the epoch): the recording date of the
 * source it was read from in offline replay, else when the listing was read. Time rules
 * ("released 513 days before") count to it, never to now.
 */
export function fieldAsOf(
  listing: Pick<TAppListing, 'fetchedAt'> & Partial<Pick<TAppListing, 'storeData'>>,
  field: TListingField,
): number {
  const source = sourceOf(listing.storeData?.fields[field]?.source ?? null);
  const on = source ? listing.storeData?.sources[source].recordedOn : undefined;
  const recorded = on ? Date.parse(on) : Number.NaN;
  return Number.isNaN(recorded) ? Date.parse(listing.fetchedAt) : recorded;
}
