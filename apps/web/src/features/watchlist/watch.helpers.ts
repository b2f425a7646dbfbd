/**
 * Small pure helpers of the watched-listing screens: dates, storefront names, timeline paths.
 */
import type { TWatchItem, TWatchRole } from '@aso/contracts';

/** Words of each role on the screens. */
export const ROLE_LABELS: Record<TWatchRole, string> = { mine: 'my app', competitor: 'competitor' };

const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO 8601 date-time in the reader's time zone: 'Jul 20, 2025, 2:05 PM'. */
export function formatDateTime(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : DATE_TIME.format(at);
}

let regionNames: Intl.DisplayNames | null = null;

/**
 * English name of a storefront's country or region from its two-letter code ('gb' -> 'United
 * Kingdom'); the code in capitals when the browser does not know it.
 */
export function storefrontName(storefront: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  try {
    return regionNames.of(storefront.toUpperCase()) ?? storefront.toUpperCase();
  } catch {
    return storefront.toUpperCase();
  }
}

function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Whether an App Store Connect export's territory name ('United States', 'Türkiye') names the
 * storefront's country: compared with the English region name, accents and punctuation
 * ignored; also true when the territory is the two-letter code itself.
 */
export function territoryMatchesStorefront(territory: string, storefront: string): boolean {
  const t = fold(territory);
  return t === storefront.toLowerCase() || t === fold(storefrontName(storefront));
}

/** Path of a watched app's timeline page. */
export function timelinePath(item: Pick<TWatchItem, 'appId' | 'storefront'>): string {
  return `/apps/${encodeURIComponent(item.appId)}?storefront=${encodeURIComponent(item.storefront)}`;
}

/** Display name of a watched listing: its app name, else 'App <id>' before the first read. */
export function watchItemName(item: Pick<TWatchItem, 'appName' | 'appId'>): string {
  return item.appName ?? `App ${item.appId}`;
}
