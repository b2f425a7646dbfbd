import { setTimeout as sleep } from 'node:timers/promises';
import pRetry, { AbortError } from 'p-retry';
import { StoreError, StoreHttpError, StoreRateLimitedError } from '../errors/store.errors';
import { guardedFetch, type TFetchedResponse, type TGuardedFetchOptions } from './guarded-fetch';

/*
 * The store client's transport: the GET every store source goes through, with its timeout,
 * size cap, SSRF guard (all three from guardedFetch) and retries with backoff (p-retry),
 * including Retry-After pauses (docs/product.md#store-data-sources). What the answers mean is
 * the listing assembly's business (store.client.ts).
 */

/** Apple's origin of the lookup API and the reviews RSS feed. */
export const DEFAULT_ITUNES_ORIGIN = 'https://itunes.apple.com';
/** Apple's origin of product pages. */
export const DEFAULT_APP_STORE_ORIGIN = 'https://apps.apple.com';
/** Default per-request timeout, ms. */
export const DEFAULT_STORE_TIMEOUT_MS = 15_000;
/** Default response size cap, bytes (a 2025 product page is about 900 KB). */
export const DEFAULT_STORE_MAX_BYTES = 8 * 1024 * 1024;

/** Retry policy for 429 and 5xx answers, timeouts, dropped connections and cut-off bodies. */
export interface TStoreRetryOptions {
  /** Tries per request, including the first (default 3). */
  attempts?: number;
  /** First backoff delay, ms (default 500); doubles per retry, with jitter. */
  baseDelayMs?: number;
  /** Largest backoff delay, ms (default 8000). */
  maxDelayMs?: number;
  /**
   * Longest Retry-After the client waits for itself, ms (default 30 000). A 429 asking for
   * more throws `StoreRateLimitedError` at once, so the worker can slow the whole queue.
   */
  maxRetryAfterMs?: number;
}

/** The retry policy with every default filled in. */
export interface TRetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
}

/**
 * Retry-After header value in ms: delta-seconds or an HTTP date (RFC 9110 section 10.2.3);
 * null when absent or unreadable.
 */
export function parseRetryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** A request's answer (2xx or 404) and the tries it took. */
export interface TRequestOutcome {
  response: TFetchedResponse;
  attempts: number;
}

/**
 * A request that failed for good: the store error, the tries made and the last HTTP status;
 * the listing assembly turns it into that source's `failed` report.
 */
export class SourceError extends Error {
  constructor(
    readonly error: StoreError,
    readonly attempts: number,
    readonly httpStatus?: number,
  ) {
    super(error.message);
  }
}

/**
 * GET with retries (p-retry: exponential backoff from `baseDelayMs`, doubling, randomised,
 * capped at `maxDelayMs`): 2xx and 404 are returned; 429 and 5xx, timeouts, dropped
 * connections and cut-off bodies are retried. A 429 also waits for its Retry-After before the
 * next try, unless it asks for more than `maxRetryAfterMs`, which ends the tries at once. When
 * tries run out a 429 throws `StoreRateLimitedError` (the pause asked, else the first backoff),
 * a 5xx `StoreHttpError`; other 4xx throw at once. Errors are wrapped in SourceError with the
 * number of tries and the last HTTP status.
 */
export async function getWithRetry(
  url: string,
  policy: TRetryPolicy,
  fetchOptions: Parameters<typeof guardedFetch>[1],
): Promise<TRequestOutcome> {
  let attempts = 0;
  let httpStatus: number | undefined;
  /** The Retry-After of the last 429, ms (null without one). */
  let askedMs: number | null = null;
  const { signal } = fetchOptions;
  try {
    return await pRetry(
      async (attempt) => {
        attempts = attempt;
        httpStatus = undefined;
        askedMs = null;
        const response = await guardedFetch(url, fetchOptions);
        const { status } = response;
        if ((status >= 200 && status < 300) || status === 404) return { response, attempts };
        httpStatus = status;
        if (status === 429) {
          askedMs = parseRetryAfterMs(response.headers.get('retry-after'));
          const error = new StoreRateLimitedError(url, askedMs ?? policy.baseDelayMs);
          throw askedMs !== null && askedMs > policy.maxRetryAfterMs
            ? new AbortError(error)
            : error;
        }
        const error = new StoreHttpError(url, status, attempt);
        throw error.retryable ? error : new AbortError(error);
      },
      {
        retries: policy.attempts - 1,
        factor: 2,
        minTimeout: policy.baseDelayMs,
        maxTimeout: policy.maxDelayMs,
        randomize: true,
        ...(signal ? { signal } : {}),
        shouldRetry: ({ error }) => error instanceof StoreError && error.retryable,
        // The pause a 429 asked for comes before the backoff of the next try.
        onFailedAttempt: async ({ retriesLeft }) => {
          if (askedMs !== null && retriesLeft > 0) {
            await sleep(askedMs, undefined, signal ? { signal } : {});
          }
        },
      },
    );
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof StoreError) throw new SourceError(error, attempts, httpStatus);
    throw error;
  }
}

/** Options of {@link storeTransport}. */
export interface TStoreTransportOptions {
  /** Origins that may be fetched (SSRF guard); redirects elsewhere are refused. */
  allowedOrigins: readonly string[];
  /** Per-request timeout including the body, ms (default 15 000). */
  timeoutMs?: number | undefined;
  /** Response size cap per request, bytes (default 8 MiB). */
  maxBytes?: number | undefined;
  retry?: TStoreRetryOptions | undefined;
  /** Extra request headers; never credentials (requests go to the store). */
  headers?: Record<string, string> | undefined;
  /** Cancels every request; its reason is thrown. */
  signal?: AbortSignal | undefined;
}

/** One store GET with the transport's guards and retries (see {@link getWithRetry}). */
export type TFetchOne = (url: string) => Promise<TRequestOutcome>;

/**
 * The GET the store sources share: guardedFetch's timeout, size cap and SSRF guard, retries by
 * {@link getWithRetry} with the policy's defaults (3 tries, 500 ms first backoff, 8 s largest,
 * 30 s longest Retry-After waited for), and an `accept` header for HTML and JSON.
 */
export function storeTransport(options: TStoreTransportOptions): TFetchOne {
  const policy: TRetryPolicy = {
    attempts: Math.max(1, options.retry?.attempts ?? 3),
    baseDelayMs: options.retry?.baseDelayMs ?? 500,
    maxDelayMs: options.retry?.maxDelayMs ?? 8_000,
    maxRetryAfterMs: options.retry?.maxRetryAfterMs ?? 30_000,
  };
  const fetchOptions: TGuardedFetchOptions = {
    allowedOrigins: options.allowedOrigins,
    timeoutMs: options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_STORE_MAX_BYTES,
    headers: { accept: 'text/html,application/json;q=0.9,*/*;q=0.8', ...options.headers },
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return (url) => getWithRetry(url, policy, fetchOptions);
}
