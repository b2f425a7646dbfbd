import { DEVICE_CLASSES, type TAppListing } from '@aso/contracts';

/** One changed field between two snapshots of a listing. */
export interface TListingChange {
  /** Listing field name; screenshots are compared per device class (`screenshots.iphone`). */
  field: string;
  before: unknown;
  after: unknown;
}

// Bookkeeping that changes on every scrape and says nothing about the listing itself.
const IGNORED = new Set(['fetchedAt', 'fieldSources', 'unknownFields', 'screenshots']);

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  const ak = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const bk = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ak.length === bk.length &&
    ak.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/**
 * Field-by-field comparison of two listings of the same app (the latest two
 * snapshots, for "what changed"). Returns the changed fields in the listing's field order, `a`
 * as `before` and `b` as `after`; screenshots are compared per device class
 * (`screenshots.iphone`, `screenshots.ipad`, ...). `fetchedAt`, `fieldSources` and
 * `unknownFields` are ignored. Equal listings give [].
 */
export function diffListings(a: TAppListing, b: TAppListing): TListingChange[] {
  const changes: TListingChange[] = [];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) {
    if (key === 'screenshots') {
      for (const device of DEVICE_CLASSES) {
        const before = a.screenshots[device] ?? null;
        const after = b.screenshots[device] ?? null;
        if (!deepEqual(before, after))
          changes.push({ field: `screenshots.${device}`, before, after });
      }
      continue;
    }
    if (IGNORED.has(key)) continue;
    const before = (a as Record<string, unknown>)[key];
    const after = (b as Record<string, unknown>)[key];
    if (!deepEqual(before, after)) changes.push({ field: key, before, after });
  }
  return changes;
}
