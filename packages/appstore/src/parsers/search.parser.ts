import { parseLookupResponse } from './lookup.parser';
import { cleanText, toNumber } from './text.helpers';

/** One iOS app among the results of a store search, in the store's order. */
export interface TSearchResult {
  /** The result's `trackId` (digits). */
  appId: string;
  name: string;
  developer: string | null;
  iconUrl: string | null;
  /** Average user rating 0-5 of the current storefront (`averageUserRating`), null when none. */
  rating: number | null;
  ratingCount: number | null;
  /** First release (ISO 8601), null when absent or unreadable. */
  releasedAt: string | null;
  /** Release of the current version (ISO 8601). */
  updatedAt: string | null;
  /** The app's primary genre name. */
  genre: string | null;
}

/** A parsed search answer: what Apple counted and the apps in order. */
export interface TSearchAnswer {
  /** `resultCount` as Apple sent it (entries of every kind). */
  resultCount: number;
  /** iOS apps in the store's order, each app once (see {@link parseSearchAnswer}). */
  results: TSearchResult[];
}

const isoOrNull = (v: unknown): string | null => {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
};

/**
 * Parses an iTunes Search API answer (`{resultCount, results}`, Apple's three leading blank
 * lines allowed) into the ordered iOS apps whose position is their rank:
 *
 * - only entries whose `kind` is `software` (an iPhone/iPad app) count; other entity kinds the
 *   answer may carry (`mac-software`, `software-bundle`, songs or anything without a numeric
 *   `trackId`) are skipped and do not take a position, since a person searching the iPhone
 *   App Store does not see them (https://performance-partners.apple.com/search-api: `entity`,
 *   `kind` of results);
 * - an app listed twice keeps its first position; later copies are dropped without taking a
 *   position, so the apps after it are not pushed down by the duplicate.
 *
 * Throws a `SyntaxError`/`TypeError` when the text is not a search answer.
 */
export function parseSearchAnswer(text: string): TSearchAnswer {
  const response = parseLookupResponse(text);
  const seen = new Set<string>();
  const results: TSearchResult[] = [];
  for (const r of response.results) {
    if (r.kind !== 'software') continue;
    const id =
      typeof r.trackId === 'number' || typeof r.trackId === 'string' ? String(r.trackId) : '';
    if (!/^\d+$/.test(id) || seen.has(id)) continue;
    seen.add(id);
    const name = cleanText(r.trackName);
    const icon = [r.artworkUrl512, r.artworkUrl100, r.artworkUrl60].find(
      (u): u is string => typeof u === 'string' && u !== '',
    );
    results.push({
      appId: id,
      name: name ?? `App ${id}`,
      developer: cleanText(r.artistName),
      iconUrl: icon ?? null,
      rating: toNumber(r.averageUserRating),
      ratingCount: toNumber(r.userRatingCount),
      releasedAt: isoOrNull(r.releaseDate),
      updatedAt: isoOrNull(r.currentVersionReleaseDate),
      genre: typeof r.primaryGenreName === 'string' ? r.primaryGenreName : null,
    });
  }
  return { resultCount: response.resultCount, results };
}

/**
 * The 1-based rank of app `appId` in `orderedIds` (the app ids of one read, in the store's
 * order, as {@link parseSearchAnswer} gives them), or null when it is not among them.
 */
export function rankOf(orderedIds: readonly string[], appId: string): number | null {
  const i = orderedIds.indexOf(appId);
  return i === -1 ? null : i + 1;
}
