/**
 * The product page's badge text per Media API `badgeKind` of an in-app event, as Apple's web
 * page localises it (en-us strings `WEA.AppPages.Events.Status.*`: 'HAPPENING NOW',
 * 'NOW AVAILABLE', 'LIVE', 'EVENT ENDED'); 'UPCOMING' for events that have not started.
 */
const BADGE_TEXT: Record<string, string> = {
  happening: 'HAPPENING NOW',
  available: 'NOW AVAILABLE',
  live: 'LIVE',
  ended: 'EVENT ENDED',
  upcoming: 'UPCOMING',
};

/**
 * The documented `timeIndicator` of an in-app event (docs/product.md#entities): the store's badge
 * text for `badgeKind` (see above), the badge kind upper-cased when Apple adds a new one, '' when
 * absent.
 */
export function timeIndicatorOf(badgeKind: string | null): string {
  if (!badgeKind) return '';
  return BADGE_TEXT[badgeKind.toLowerCase()] ?? badgeKind.toUpperCase();
}
