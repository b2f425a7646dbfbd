import { isAppStoreStorefront, unknownStorefrontMessage } from '@aso/contracts';
import { StoreError, StoreHttpError, StoreMalformedResponseError } from '../errors/store.errors';
import { parseSearchAnswer, type TSearchAnswer } from '../parsers/search.parser';
import { guardedFetch, originOf } from './guarded-fetch';
import {
  DEFAULT_ITUNES_ORIGIN,
  DEFAULT_STORE_MAX_BYTES,
  DEFAULT_STORE_TIMEOUT_MS,
  parseRetryAfterMs,
} from './store.transport';

/** Results one search read asks for: the Search API's largest `limit`. */
export const SEARCH_LIMIT = 200;

/**
 * The store refused a search read with 403, 429 or 503: Apple throttles the Search API with
 * these (403 included, though it is not documented as a throttle). `retryAfterMs` is the pause
 * the answer's Retry-After asked for, null without one (the caller backs off by itself).
 */
export class StoreThrottledError extends StoreError {
  readonly status: number;
  readonly retryAfterMs: number | null;

  constructor(url: string, status: number, retryAfterMs: number | null) {
    super(
      'RATE_LIMITED',
      `The App Store throttled ${url} (HTTP ${status})` +
        (retryAfterMs === null ? '' : `; retry after ${Math.ceil(retryAfterMs / 1000)} s`),
      true,
    );
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** HTTP statuses a search read treats as throttling. */
const THROTTLE_STATUSES = new Set([403, 429, 503]);

/** Options of {@link searchStore}. */
export interface TSearchStoreOptions {
  /** The term as the user would type it (already normalised by the caller). */
  term: string;
  /** Two-letter storefront. */
  storefront: string;
  /** Origin of the Search API (`ITUNES_ORIGIN`); Apple's by default. */
  itunesOrigin?: string;
  signal?: AbortSignal;
  /** Timeout of the request including the body, ms (default 15 000). */
  timeoutMs?: number;
  /** Response size cap, bytes (default 8 MiB; 200 results are about 1 MB). */
  maxBytes?: number;
  /** Extra request headers (tests: the replay server's fault headers). */
  headers?: Record<string, string>;
}

/** The URL of a search read: Apple's documented parameters, 200 iOS apps. */
export function searchUrl(itunesOrigin: string, term: string, storefront: string): string {
  const query = new URLSearchParams({
    term,
    country: storefront,
    entity: 'software',
    limit: String(SEARCH_LIMIT),
  });
  return `${itunesOrigin}/search?${query.toString()}`;
}

/**
 * Reads the store's search results for `term` in `storefront` with exactly ONE request
 * (`GET {itunesOrigin}/search?term=&country=&entity=software&limit=200`,
 * https://performance-partners.apple.com/search-api), never retried here: every request must
 * pass the caller's rate limiter, so retries are the caller's (queued jobs) to make. Timeout,
 * size cap, abort signal and the origin guard as every store request.
 *
 * Returns the parsed answer ({@link parseSearchAnswer}: iOS apps in order, deduplicated).
 * Throws `StoreThrottledError` on 403/429/503, `StoreHttpError` on another non-2xx,
 * `StoreMalformedResponseError` when the body is not a search answer, the network errors of
 * `guardedFetch`, the signal's reason when aborted, and a `TypeError` naming a bad storefront
 * or origin.
 */
export async function searchStore(options: TSearchStoreOptions): Promise<TSearchAnswer> {
  const storefront = options.storefront.toLowerCase();
  if (!isAppStoreStorefront(storefront)) throw new TypeError(unknownStorefrontMessage(storefront));
  const origin = originOf(options.itunesOrigin ?? DEFAULT_ITUNES_ORIGIN, 'itunesOrigin');
  const url = searchUrl(origin, options.term, storefront);
  const response = await guardedFetch(url, {
    allowedOrigins: [origin],
    timeoutMs: options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_STORE_MAX_BYTES,
    maxRedirects: 0,
    headers: { accept: 'application/json', ...options.headers },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (THROTTLE_STATUSES.has(response.status)) {
    throw new StoreThrottledError(
      url,
      response.status,
      parseRetryAfterMs(response.headers.get('retry-after')),
    );
  }
  if (response.status < 200 || response.status >= 300) {
    throw new StoreHttpError(url, response.status, 1);
  }
  try {
    return parseSearchAnswer(response.text);
  } catch (error) {
    throw new StoreMalformedResponseError(url, 'iTunes search JSON', String(error));
  }
}
