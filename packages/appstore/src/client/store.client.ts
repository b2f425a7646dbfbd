import {
  isAppStoreStorefront,
  unknownStorefrontMessage,
  type TAppListing,
  type TPageLayout,
  type TReviewsSummary,
  type TStoreSourceReport,
} from '@aso/contracts';
import {
  AppNotFoundError,
  describeStoreError,
  StoreError,
  StoreMalformedResponseError,
  StoreRateLimitedError,
  StoreUnavailableError,
} from '../errors/store.errors';
import { mergeListing } from '../listing/listing.merge';
import { parseLookup } from '../parsers/lookup.parser';
import { parseProductPage, type TParsedProductPage } from '../parsers/product-page.parser';
import type { TListingPart } from '../parsers/parser.types';
import { parseReviewsFeed } from '../parsers/reviews.parser';
import { storeLanguageOf } from '../url/app-store-url.validation';
import { originOf, type TFetchedResponse } from './guarded-fetch';
import {
  DEFAULT_APP_STORE_ORIGIN,
  DEFAULT_ITUNES_ORIGIN,
  SourceError,
  storeTransport,
  type TFetchOne,
  type TStoreRetryOptions,
} from './store.transport';

/*
 * The store client's listing assembly: which store sources one listing reads, what each answer
 * means (found, not found, failed, malformed) and how the parts merge into one listing. The
 * requests themselves (timeouts, retries, Retry-After) are the transport's (store.transport.ts).
 */

export {
  DEFAULT_APP_STORE_ORIGIN,
  DEFAULT_ITUNES_ORIGIN,
  DEFAULT_STORE_MAX_BYTES,
  DEFAULT_STORE_TIMEOUT_MS,
  parseRetryAfterMs,
  type TStoreRetryOptions,
} from './store.transport';

/** Options of {@link fetchAppListing}. */
export interface TFetchAppListingOptions {
  /** App id (digits). */
  appId: string;
  /** Two-letter storefront (one of `APP_STORE_STOREFRONTS`); 'us' by default. */
  storefront?: string;
  /**
   * The store URL's `?l=` language (e.g. 'fr-CA'): the product page is asked in it. Ignored
   * when it is not a language tag.
   */
  language?: string;
  /** Origin of the lookup API and reviews feed (`ITUNES_ORIGIN`); Apple's by default. */
  itunesOrigin?: string;
  /** Origin of product pages (`APP_STORE_ORIGIN`); Apple's by default. */
  appStoreOrigin?: string;
  /** Cancels every request (e.g. the BullMQ job's abort signal); its reason is thrown. */
  signal?: AbortSignal;
  /** Per-request timeout including the body, ms (default 15 000). */
  timeoutMs?: number;
  /** Response size cap per request, bytes (default 8 MiB). */
  maxBytes?: number;
  retry?: TStoreRetryOptions;
  /** Also read the reviews RSS feed for the reviews summary (default true). */
  includeReviews?: boolean;
  /**
   * Extra request headers (tests use the replay server's `x-replay-*` fault headers). Never
   * put credentials here: requests go to the store.
   */
  headers?: Record<string, string>;
  /** Clock for `fetchedAt` (tests). */
  now?: () => Date;
}

/** How one source went: fetched and used, not found, failed, or not asked. */
export interface TSourceReport {
  url: string;
  status: 'ok' | 'not_found' | 'failed' | 'skipped';
  /** Final HTTP status, when an answer arrived. */
  httpStatus?: number;
  /** Capture date the replay server gave for a recorded answer ('' when undated). */
  recordedOn?: string;
  attempts: number;
  /** Why the source failed (its error message). */
  error?: string;
  /** The error itself, for callers that branch on its type. */
  cause?: StoreError;
}

/** Result of {@link fetchAppListing}. */
export interface TFetchAppListingResult {
  listing: TAppListing;
  layout: TPageLayout;
  sources: { lookup: TSourceReport; page: TSourceReport; reviews: TSourceReport };
  /**
   * The product page as parsed (layout, the fields its layout carries and those it lacked),
   * null when no page was read; the scraper records it for the drift alarm.
   */
  page: TParsedProductPage | null;
}

function failed(url: string, error: unknown): TSourceReport {
  if (error instanceof SourceError) {
    return {
      url,
      status: 'failed',
      attempts: error.attempts,
      error: error.error.message,
      cause: error.error,
      ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
    };
  }
  throw error;
}

/**
 * Fetches and normalises one app's listing in one storefront (docs/product.md#store-data-sources).
 * Reads, concurrently, the lookup API (`<itunesOrigin>/lookup?id=&country=<cc>&entity=software`),
 * the product page (`<appStoreOrigin>/<cc>/app/id<id>`, with `?l=<language>` when one is given) and
 * the reviews RSS feed (`<itunesOrigin>/<cc>/rss/customerreviews/id=<id>/sortby=mostrecent/json`):
 * the storefront drives every request. Each has a timeout, the caller's abort signal, a size cap,
 * retries (see `TStoreRetryOptions`) and the SSRF guard (only the two origins are fetched;
 * redirects elsewhere are refused). The page is parsed once the lookup answered, with the lookup's
 * genres as category hints.
 *
 * The listing is built with `mergeListing` (product page wins, lookup fills gaps) and carries
 * its store data record (layout, page language, each source's outcome, every field's
 * provenance). When only one of lookup and page has the app or answers, it is built from that
 * one and its `unknownFields` name what stayed unknown; a failed reviews feed only leaves
 * `reviews` unknown.
 *
 * Throws:
 * - `AppNotFoundError` ('App not found in the <CC> App Store') when the lookup has
 *   `resultCount: 0` and the page answers 404, at once, without retries;
 * - `StoreRateLimitedError` when neither source could be read and one was rate-limited
 *   (carries `retryAfterMs` for BullMQ's rate limiter);
 * - `StoreUnavailableError` when neither source could be read for other reasons (its
 *   `causes` name each source's error: HTTP status, timeout, refused redirect, cut-off or
 *   malformed body, unknown page layout);
 * - the signal's abort reason when the caller aborts;
 * - `TypeError` naming a bad option (app id, a storefront that is not the App Store's, origin).
 */
export async function fetchAppListing(
  options: TFetchAppListingOptions,
): Promise<TFetchAppListingResult> {
  const { appId } = options;
  if (!/^\d+$/.test(appId)) throw new TypeError(`appId must be digits, got "${appId}"`);
  const storefront = (options.storefront ?? 'us').toLowerCase();
  if (!isAppStoreStorefront(storefront)) {
    throw new TypeError(unknownStorefrontMessage(options.storefront ?? storefront));
  }
  const language = storeLanguageOf(options.language);
  const itunesOrigin = originOf(options.itunesOrigin ?? DEFAULT_ITUNES_ORIGIN, 'itunesOrigin');
  const appStoreOrigin = originOf(
    options.appStoreOrigin ?? DEFAULT_APP_STORE_ORIGIN,
    'appStoreOrigin',
  );
  const fetchOne = storeTransport({
    allowedOrigins: [itunesOrigin, appStoreOrigin],
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes,
    retry: options.retry,
    headers: options.headers,
    signal: options.signal,
  });
  const urls = storeUrls({ appId, storefront, itunesOrigin, appStoreOrigin, language });

  const [lookup, pageAnswer, reviews] = await Promise.all([
    readLookup(urls.lookup, appId, fetchOne),
    fetchPage(urls.page, fetchOne),
    options.includeReviews === false
      ? Promise.resolve({
          report: { url: urls.reviews, status: 'skipped' as const, attempts: 0 },
          summary: null,
        })
      : readReviews(urls.reviews, fetchOne),
  ]);
  if (options.signal?.aborted) throw options.signal.reason;
  // The page is read once the lookup is in: its genres help find the category row and tell
  // the category shown in place of a missing subtitle from a real subtitle.
  const page = parsePage(pageAnswer, appId, [
    ...(lookup.part?.values.category ? [lookup.part.values.category] : []),
    ...(lookup.part?.categoryNames ?? []),
  ]);

  const sources = { lookup: lookup.report, page: page.report, reviews: reviews.report };
  if (!lookup.part && !page.page) {
    if (lookup.report.status === 'not_found' && page.report.status === 'not_found') {
      throw new AppNotFoundError(appId, storefront);
    }
    const causes: Record<string, StoreError> = {};
    if (lookup.report.cause) causes.lookup = lookup.report.cause;
    if (page.report.cause) causes['product page'] = page.report.cause;
    const rateLimited = Object.values(causes).find((e) => e instanceof StoreRateLimitedError);
    if (rateLimited) throw rateLimited;
    throw new StoreUnavailableError(appId, storefront, causes);
  }

  const listing = mergeListing({
    appId,
    storefront,
    lookup: lookup.part,
    page: page.page,
    reviews: reviews.summary,
    fetchedAt: (options.now?.() ?? new Date()).toISOString(),
    sources: {
      lookup: storeSourceReport(sources.lookup),
      page: storeSourceReport(sources.page),
      reviews: storeSourceReport(sources.reviews),
    },
    requestedLanguage: language ?? null,
  });
  return { listing, layout: listing.sourceLayout, sources, page: page.page };
}

/** The three store URLs of one app in one storefront (and page language). */
export function storeUrls(o: {
  appId: string;
  storefront: string;
  itunesOrigin: string;
  appStoreOrigin: string;
  language?: string | undefined;
}): { lookup: string; page: string; reviews: string } {
  const l = o.language ? `?l=${encodeURIComponent(o.language)}` : '';
  return {
    lookup: `${o.itunesOrigin}/lookup?id=${o.appId}&country=${o.storefront}&entity=software`,
    page: `${o.appStoreOrigin}/${o.storefront}/app/id${o.appId}${l}`,
    reviews: `${o.itunesOrigin}/${o.storefront}/rss/customerreviews/id=${o.appId}/sortby=mostrecent/json`,
  };
}

/**
 * The capture date an offline replay server gives a recorded answer (`x-replay-recorded-on`,
 * '2026-06', or 'undated' read as ''); nothing for a live answer or a malformed value.
 */
function recordedOnOf(response: TFetchedResponse): { recordedOn?: string } {
  const value = response.headers.get('x-replay-recorded-on');
  if (value === 'undated') return { recordedOn: '' };
  return value !== null && /^\d{4}(-\d{2}){0,2}$/.test(value) ? { recordedOn: value } : {};
}

/** A source's report in the listing's store data: status and a short, URL-free detail. */
function storeSourceReport(report: TSourceReport): TStoreSourceReport {
  return {
    status: report.status,
    detail: report.cause ? describeStoreError(report.cause) : (report.error ?? null),
    ...(report.recordedOn === undefined ? {} : { recordedOn: report.recordedOn }),
  };
}

/** The lookup API's part: `not_found` when it has no record of the app. */
async function readLookup(
  url: string,
  appId: string,
  fetchOne: TFetchOne,
): Promise<{ report: TSourceReport; part: TListingPart | null }> {
  try {
    const { response, attempts } = await fetchOne(url);
    const base = { url, attempts, httpStatus: response.status, ...recordedOnOf(response) };
    if (response.status === 404) return { report: { ...base, status: 'not_found' }, part: null };
    let part: TListingPart | null;
    try {
      part = parseLookup(response.text, appId);
    } catch (error) {
      throw new SourceError(
        new StoreMalformedResponseError(url, 'iTunes lookup JSON', String(error)),
        attempts,
        response.status,
      );
    }
    return { report: { ...base, status: part ? 'ok' : 'not_found' }, part };
  } catch (error) {
    return { report: failed(url, error), part: null };
  }
}

/** The product page's HTML, unparsed (null on 404 or failure). */
async function fetchPage(
  url: string,
  fetchOne: TFetchOne,
): Promise<{ report: TSourceReport; html: string | null }> {
  try {
    const { response, attempts } = await fetchOne(url);
    const base = { url, attempts, httpStatus: response.status, ...recordedOnOf(response) };
    if (response.status === 404) return { report: { ...base, status: 'not_found' }, html: null };
    return { report: { ...base, status: 'ok' }, html: response.text };
  } catch (error) {
    return { report: failed(url, error), html: null };
  }
}

/**
 * Parses a fetched product page; an unknown layout or unreadable data turns its report into a
 * failure carrying the parser's error (which names the markers looked for).
 */
function parsePage(
  answer: { report: TSourceReport; html: string | null },
  appId: string,
  categoryHints: string[],
): { report: TSourceReport; page: TParsedProductPage | null } {
  if (answer.html === null) return { report: answer.report, page: null };
  try {
    return { report: answer.report, page: parseProductPage(answer.html, { appId, categoryHints }) };
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    const { httpStatus } = answer.report;
    return {
      report: failed(answer.report.url, new SourceError(error, answer.report.attempts, httpStatus)),
      page: null,
    };
  }
}

/** The reviews RSS feed's summary (null on 404 or failure). */
async function readReviews(
  url: string,
  fetchOne: TFetchOne,
): Promise<{ report: TSourceReport; summary: TReviewsSummary | null }> {
  try {
    const { response, attempts } = await fetchOne(url);
    const base = { url, attempts, httpStatus: response.status, ...recordedOnOf(response) };
    if (response.status === 404) return { report: { ...base, status: 'not_found' }, summary: null };
    try {
      return {
        report: { ...base, status: 'ok' },
        summary: parseReviewsFeed(response.text).summary,
      };
    } catch (error) {
      throw new SourceError(
        new StoreMalformedResponseError(url, 'customer reviews RSS JSON', String(error)),
        attempts,
        response.status,
      );
    }
  } catch (error) {
    return { report: failed(url, error), summary: null };
  }
}
