import { DEVICE_CLASSES, type TAppListing, type TDeviceClass } from '@aso/contracts';

/**
 * What the scrape job's extraction steps report about a listing (docs/product.md#scrape-steps:
 * `metadata_extraction`, `screenshot_analysis`, `preview_video_detection`, `in_app_events`).
 * Pure functions over a normalised `TAppListing`; the messages are the per-app step messages
 * of the progress stream.
 */

/** Apple's names of the device classes, as the product page labels them. */
export const DEVICE_LABELS: Record<TDeviceClass, string> = {
  iphone: 'iPhone',
  ipad: 'iPad',
  mac: 'Mac',
  watch: 'Apple Watch',
  tv: 'Apple TV',
  vision: 'Apple Vision Pro',
};

/** Said of a field no source supplied (it is in the listing's `unknownFields`). */
export const UNKNOWN = 'unknown (no source read lists them)';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One device class's screenshot set: Apple's display-size key, count and pixel sizes. */
export interface TScreenshotSetSummary {
  device: TDeviceClass;
  /** Apple's display-size key the set came from (`iphone_d74`, `lookup:iphone`, ...). */
  deviceType: string;
  count: number;
  /** Distinct pixel sizes in store order, `<width>x<height>` in px ('?' when unknown). */
  sizes: string[];
}

/**
 * The screenshot sets of a listing per device class, in the store's device order (iPhone,
 * iPad, Mac, Apple Watch, Apple TV, Apple Vision Pro), each with its count and distinct pixel
 * sizes. Classes without screenshots are left out.
 */
export function collectScreenshotSets(
  listing: Pick<TAppListing, 'screenshots'>,
): TScreenshotSetSummary[] {
  const out: TScreenshotSetSummary[] = [];
  for (const device of DEVICE_CLASSES) {
    const set = listing.screenshots[device];
    if (!set || set.screenshots.length === 0) continue;
    const sizes = [
      ...new Set(
        set.screenshots.map((s) => (s.width > 0 && s.height > 0 ? `${s.width}x${s.height}` : '?')),
      ),
    ];
    out.push({ device, deviceType: set.deviceType, count: set.screenshots.length, sizes });
  }
  return out;
}

/** True when `field` could not be read from any source (see contracts/listing.ts). */
function unknown(
  listing: Pick<TAppListing, 'unknownFields'>,
  field: TAppListing['unknownFields'][number],
) {
  return listing.unknownFields.includes(field);
}

/**
 * `metadata_extraction` message: name, developer, category, rating and rating count, chart
 * position, subtitle presence, and the fields no source supplied.
 * E.g. `"Spotify: Music and Podcasts" by Spotify, Music, rated 4.8 from 36130486 ratings, #1 in Music`.
 */
export function summariseMetadata(listing: TAppListing): string {
  const parts = [
    `"${listing.appName || 'unknown name'}"` +
      (listing.developer ? ` by ${listing.developer}` : ''),
  ];
  if (listing.category) parts.push(listing.category);
  if (!unknown(listing, 'rating')) {
    parts.push(`rated ${listing.rating} from ${plural(Number(listing.reviewCount), 'rating')}`);
  }
  if (listing.categoryRank !== 'N/A') parts.push(listing.categoryRank);
  parts.push(listing.subtitle ? `subtitle "${listing.subtitle}"` : 'no subtitle');
  const missing = listing.unknownFields.filter((f) => f !== 'reviews');
  let text = parts.join(', ');
  if (missing.length > 0) text += `; not available: ${missing.join(', ')}`;
  return text;
}

/**
 * `screenshot_analysis` message: the sets per device with counts and sizes, e.g.
 * `2 screenshot sets: iPhone 8 (1290x2796), iPad 6 (2048x2732)`; 'No screenshots' when the
 * store lists none; 'Screenshots unknown (no source read lists them)' when no source supplied
 * them (e.g. only the lookup answered and it has none).
 */
export function summariseScreenshots(listing: TAppListing): string {
  if (unknown(listing, 'screenshots')) return `Screenshots ${UNKNOWN}`;
  const sets = collectScreenshotSets(listing);
  if (sets.length === 0) return 'No screenshots';
  const detail = sets.map((s) => `${DEVICE_LABELS[s.device]} ${s.count} (${s.sizes.join(', ')})`);
  return `${plural(sets.length, 'screenshot set')}: ${detail.join(', ')}`;
}

/**
 * `preview_video_detection` message: how many app preview videos and for which devices, e.g.
 * `2 preview videos: iPhone (iphone_d74), iPhone (iphone_6_5)`; 'No preview video' when none.
 */
export function summarisePreviews(listing: TAppListing): string {
  if (unknown(listing, 'previews')) return `Preview videos ${UNKNOWN}`;
  if (listing.previews.length === 0) return 'No preview video';
  const detail = listing.previews.map((p) => `${DEVICE_LABELS[p.device]} (${p.deviceType})`);
  return `${plural(listing.previews.length, 'preview video')}: ${detail.join(', ')}`;
}

/**
 * `in_app_events` message: the events with their badge, e.g.
 * `2 in-app events: "Dun It Anyway" (HAPPENING NOW), "Stream your music on Notes" (NOW AVAILABLE)`;
 * 'No in-app events' when none.
 */
export function summariseInAppEvents(listing: TAppListing): string {
  if (unknown(listing, 'inAppEvents')) return `In-app events ${UNKNOWN}`;
  if (listing.inAppEvents.length === 0) return 'No in-app events';
  const detail = listing.inAppEvents.map(
    (e) => `"${e.eventName}"` + (e.timeIndicator ? ` (${e.timeIndicator})` : ''),
  );
  return `${plural(listing.inAppEvents.length, 'in-app event')}: ${detail.join(', ')}`;
}
