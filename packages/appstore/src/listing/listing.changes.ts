import {
  CHANGE_FIELDS,
  DEVICE_CLASSES,
  listingFieldState,
  type TAppListing,
  type TChangeDetail,
  type TChangeEvent,
  type TChangeField,
  type TChangePreview,
  type TDetectedChange,
  type TListingField,
  type TListingFieldSource,
} from '@aso/contracts';

/**
 * Smallest change of the average rating that counts as a change (stars, 0-5 scale): below it
 * a rating moves with every few hundred ratings and says nothing about the listing.
 */
export const RATING_CHANGE_MIN = 0.05;

/**
 * The identity of an image on Apple's CDN: the path of the uploaded file without the host
 * (`is1-ssl` .. `is5-ssl` serve the same file) and without the last segment (the size and
 * format asked for: `512x512bb.jpg`, `{w}x{h}{c}.{f}`), so the lookup API's and the product
 * page's URLs of one image are one key. Other URLs are their own key (query dropped).
 */
export function imageKey(url: string): string {
  const match = /^https?:\/\/[a-z0-9-]+\.mzstatic\.com\/image\/thumb\/(.+)\/[^/]+$/i.exec(url);
  if (match) return `mzstatic:${match[1]!}`;
  return url.split('?')[0]!;
}

/** A listing text as compared: line endings unified, outer whitespace trimmed, '' as null. */
function normText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = value.replace(/\r\n?/g, '\n').trim();
  return text === '' ? null : text;
}

/** True when the store read gave the field (its value, or that the listing has none). */
function known(listing: TAppListing, field: TListingField): boolean {
  return listingFieldState(listing, field) !== 'unreadable';
}

/** The kind of source a field came from: a product page (any layout) or the lookup API. */
function family(source: TListingFieldSource | undefined): 'page' | 'lookup' | 'reviews' | null {
  if (!source) return null;
  return source.startsWith('page:') ? 'page' : (source as 'lookup' | 'reviews');
}

/**
 * True when both listings read `field` from the same kind of source. Screenshot sets, preview
 * videos and language names differ between the lookup API and the product page for one and
 * the same listing (other display sizes, English names instead of the page's language), so
 * those are compared only within one kind of source.
 */
function sameFamily(a: TAppListing, b: TAppListing, field: TListingField): boolean {
  const fa = family(a.fieldSources[field]);
  const fb = family(b.fieldSources[field]);
  return fa === null || fb === null || fa === fb;
}

function listDetail(
  before: readonly string[],
  after: readonly string[],
  key: (s: string) => string = (s) => s,
): TChangeDetail | null {
  const beforeKeys = before.map(key);
  const afterKeys = after.map(key);
  const added = after.filter((_, i) => !beforeKeys.includes(afterKeys[i]!));
  const removed = before.filter((_, i) => !afterKeys.includes(beforeKeys[i]!));
  const keptBefore = beforeKeys.filter((k) => afterKeys.includes(k));
  const keptAfter = afterKeys.filter((k) => beforeKeys.includes(k));
  const reordered = keptBefore.some((k, i) => k !== keptAfter[i]);
  if (added.length === 0 && removed.length === 0 && !reordered) return null;
  return { added, removed, reordered };
}

function eventSummary(e: TAppListing['inAppEvents'][number]): TChangeEvent {
  return {
    id: e.id,
    name: e.eventName,
    badge: e.eventBadge,
    timeIndicator: e.timeIndicator,
    imageUrl: e.eventImage,
    startDate: e.startDate ?? null,
    endDate: e.endDate ?? null,
  };
}

const at = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);

/** Whether an event had started at `now` (epoch ms); an event without a start date has. */
function hasStarted(e: TChangeEvent, now: number): boolean {
  const start = at(e.startDate);
  return Number.isNaN(start) || start <= now;
}

/** Whether an event had ended at `now` (epoch ms); an event without an end date has not. */
function hasEnded(e: TChangeEvent, now: number): boolean {
  const end = at(e.endDate);
  return !Number.isNaN(end) && end <= now;
}

function eventChanges(before: TAppListing, after: TAppListing): TDetectedChange | null {
  const a = before.inAppEvents.map(eventSummary);
  const b = after.inAppEvents.map(eventSummary);
  const tb = Date.parse(before.fetchedAt);
  const ta = Date.parse(after.fetchedAt);
  const started: string[] = [];
  const ended: string[] = [];
  for (const e of b) {
    const old = a.find((x) => x.id === e.id);
    // New on the listing, or listed before it began and running now.
    if (!old || (!hasStarted(old, tb) && hasStarted(e, ta))) started.push(e.id);
    else if (!hasEnded(old, tb) && hasEnded(e, ta)) ended.push(e.id);
  }
  for (const e of a) if (!b.some((x) => x.id === e.id)) ended.push(e.id);
  if (started.length === 0 && ended.length === 0) return null;
  return { field: 'inAppEvents', before: a, after: b, detail: { started, ended } };
}

function previewKey(p: TChangePreview): string {
  return `${p.device}|${imageKey(p.videoUrl)}`;
}

function previewChanges(before: TAppListing, after: TAppListing): TDetectedChange | null {
  const a: TChangePreview[] = before.previews.map(({ device, videoUrl, posterUrl }) => ({
    device,
    videoUrl,
    posterUrl,
  }));
  const b: TChangePreview[] = after.previews.map(({ device, videoUrl, posterUrl }) => ({
    device,
    videoUrl,
    posterUrl,
  }));
  const aKeys = new Set(a.map(previewKey));
  const bKeys = new Set(b.map(previewKey));
  const added = b.filter((p) => !aKeys.has(previewKey(p))).map((p) => p.videoUrl);
  const removed = a.filter((p) => !bKeys.has(previewKey(p))).map((p) => p.videoUrl);
  if (added.length === 0 && removed.length === 0) return null;
  return { field: 'previews', before: a, after: b, detail: { added, removed } };
}

function numberOf(text: string): number | null {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : null;
}

function languageKey(name: string): string {
  return name.normalize('NFC').trim().toLocaleLowerCase();
}

/**
 * Compares two consecutive snapshots of one listing (same app, storefront and page language)
 * field by field and returns what differs, in {@link CHANGE_FIELDS} order, `before` from the
 * older snapshot and `after` from the newer:
 *
 * - title, subtitle, description, promotional text, version, release notes: the texts, line
 *   endings unified and outer whitespace trimmed (an empty text is "none");
 * - icon: by image identity ({@link imageKey}), not by the size the URL asks for;
 * - screenshots per device class: URLs in store order, with `added`, `removed` and
 *   `reordered` (compared by image identity);
 * - preview videos: `added` and `removed` per device;
 * - in-app events: `started` (new on the listing, or begun since) and `ended` (gone from the
 *   listing, or over since) event ids;
 * - rating: a change of {@link RATING_CHANGE_MIN} stars or more; rating count: any change;
 * - category rank: the chart position text ('#3 in Music', 'Not ranked');
 * - price: amount and currency; languages: as a set, with `added` and `removed`.
 *
 * A field that either store read could not give (unreadable, see `listingFieldState`) is not
 * compared: a failed or partial read is not a change. Screenshots, previews and languages are
 * compared only when both reads took them from the same kind of source (product page or
 * lookup API), whose sets and language names differ for one and the same listing.
 * Everything else (reviews, histogram, file size, bookkeeping) is not a listing change.
 */
export function detectListingChanges(before: TAppListing, after: TAppListing): TDetectedChange[] {
  const changes: TDetectedChange[] = [];
  const both = (field: TListingField) => known(before, field) && known(after, field);
  const text = (
    field: TChangeField,
    listingField: TListingField,
    pick: (l: TAppListing) => string | null,
  ) => {
    if (!both(listingField)) return;
    const a = normText(pick(before));
    const b = normText(pick(after));
    if (a !== b) changes.push({ field, before: a, after: b, detail: null });
  };

  text('title', 'appName', (l) => l.appName);
  text('subtitle', 'subtitle', (l) => l.subtitle);
  if (both('iconUrl')) {
    const a = normText(before.iconUrl);
    const b = normText(after.iconUrl);
    if ((a && imageKey(a)) !== (b && imageKey(b))) {
      changes.push({ field: 'icon', before: a, after: b, detail: null });
    }
  }
  text('description', 'description', (l) => l.description);
  text('promotionalText', 'promotionalText', (l) => l.promotionalText);

  if (both('screenshots') && sameFamily(before, after, 'screenshots')) {
    for (const device of DEVICE_CLASSES) {
      const a = before.screenshots[device]?.screenshots.map((s) => s.url) ?? [];
      const b = after.screenshots[device]?.screenshots.map((s) => s.url) ?? [];
      const detail = listDetail(a, b, imageKey);
      if (detail) changes.push({ field: `screenshots.${device}`, before: a, after: b, detail });
    }
  }
  if (both('previews') && sameFamily(before, after, 'previews')) {
    const change = previewChanges(before, after);
    if (change) changes.push(change);
  }
  if (both('inAppEvents')) {
    const change = eventChanges(before, after);
    if (change) changes.push(change);
  }
  text('version', 'version', (l) => l.version);
  text('releaseNotes', 'releaseNotes', (l) => l.releaseNotes);

  if (both('price')) {
    const a = before.price;
    const b = after.price;
    const differs =
      (a === null) !== (b === null) ||
      (a !== null &&
        b !== null &&
        (a.amount !== b.amount ||
          (a.currency !== null && b.currency !== null && a.currency !== b.currency)));
    if (differs) changes.push({ field: 'price', before: a, after: b, detail: null });
  }
  if (both('languages') && sameFamily(before, after, 'languages')) {
    const detail = listDetail(before.languages, after.languages, languageKey);
    if (detail && ((detail.added?.length ?? 0) > 0 || (detail.removed?.length ?? 0) > 0)) {
      changes.push({
        field: 'languages',
        before: before.languages,
        after: after.languages,
        detail: { added: detail.added, removed: detail.removed },
      });
    }
  }

  if (both('rating')) {
    const a = numberOf(before.rating);
    const b = numberOf(after.rating);
    // Compared in thousandths of a star, so 4.75 -> 4.70 counts despite binary fractions.
    if (
      a !== null &&
      b !== null &&
      Math.abs(Math.round((b - a) * 1000)) >= RATING_CHANGE_MIN * 1000
    ) {
      changes.push({ field: 'rating', before: a, after: b, detail: { delta: round2(b - a) } });
    }
  }
  if (both('reviewCount')) {
    const a = numberOf(before.reviewCount);
    const b = numberOf(after.reviewCount);
    if (a !== null && b !== null && a !== b) {
      changes.push({ field: 'ratingCount', before: a, after: b, detail: { delta: b - a } });
    }
  }
  if (both('categoryRank') && before.categoryRank !== 'N/A' && after.categoryRank !== 'N/A') {
    if (before.categoryRank !== after.categoryRank) {
      const delta =
        before.chartPosition && after.chartPosition
          ? after.chartPosition.position - before.chartPosition.position
          : undefined;
      changes.push({
        field: 'categoryRank',
        before: before.categoryRank,
        after: after.categoryRank,
        detail: delta === undefined ? null : { delta },
      });
    }
  }
  const order = new Map<string, number>(CHANGE_FIELDS.map((f, i) => [f, i]));
  return changes.sort((x, y) => order.get(x.field)! - order.get(y.field)!);
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
