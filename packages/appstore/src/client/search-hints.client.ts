import { isAppStoreStorefront, unknownStorefrontMessage } from '@aso/contracts';
import { StoreHttpError } from '../errors/store.errors';
import { parseSearchHints, STOREFRONT_IDS } from '../parsers/search-hints.parser';
import { guardedFetch, originOf } from './guarded-fetch';

/** Apple's origin of the search hints endpoint. */
export const DEFAULT_SEARCH_HINTS_ORIGIN = 'https://search.itunes.apple.com';

/** Default timeout of a search hints request, ms: they are best effort, so short. */
export const DEFAULT_SEARCH_HINTS_TIMEOUT_MS = 3_000;

/** Response size cap of a search hints answer, bytes (an answer is a few kilobytes). */
const HINTS_MAX_BYTES = 256 * 1024;

/** Options of {@link searchHints}. */
export interface TSearchHintsOptions {
  /** The term as typed (already normalised by the caller). */
  term: string;
  /** Two-letter storefront. */
  storefront: string;
  /** Origin of the hints endpoint (`SEARCH_HINTS_ORIGIN`); Apple's by default. */
  origin?: string;
  /** Timeout of the request including the body, ms (default 3 000). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The URL of a search hints request. */
export function searchHintsUrl(origin: string, term: string): string {
  const query = new URLSearchParams({ clientApplication: 'Software', term });
  return `${origin}/WebObjects/MZSearchHints.woa/wa/hints?${query.toString()}`;
}

/**
 * The store's search hints (autocomplete suggestions) for `term` in `storefront`, best effort:
 * ONE request to `{origin}/WebObjects/MZSearchHints.woa/wa/hints?clientApplication=
 * Software&term=` with the storefront's `X-Apple-Store-Front` (facundoolano/aso#26; the
 * endpoint is not documented by Apple and has answered nothing or no priorities for years:
 * app-store-scraper#148, #199), within the timeout, never retried. Returns the suggested terms
 * in the store's order ([] when it answers none: the caller marks the hints empty).
 *
 * Throws `StoreHttpError` on a non-2xx answer, the network and timeout errors of
 * `guardedFetch`, and a `TypeError` naming a bad storefront or origin.
 */
export async function searchHints(options: TSearchHintsOptions): Promise<string[]> {
  const storefront = options.storefront.toLowerCase();
  if (!isAppStoreStorefront(storefront)) throw new TypeError(unknownStorefrontMessage(storefront));
  const origin = originOf(options.origin ?? DEFAULT_SEARCH_HINTS_ORIGIN, 'origin');
  const url = searchHintsUrl(origin, options.term);
  const id = STOREFRONT_IDS[storefront];
  const response = await guardedFetch(url, {
    allowedOrigins: [origin],
    timeoutMs: options.timeoutMs ?? DEFAULT_SEARCH_HINTS_TIMEOUT_MS,
    maxBytes: HINTS_MAX_BYTES,
    maxRedirects: 0,
    headers: {
      accept: 'application/xml, text/xml',
      ...(id === undefined ? {} : { 'x-apple-store-front': `${id}-1,29` }),
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (response.status < 200 || response.status >= 300) {
    throw new StoreHttpError(url, response.status, 1);
  }
  return parseSearchHints(response.text);
}
