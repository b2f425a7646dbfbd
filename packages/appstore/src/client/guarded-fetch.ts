import {
  StoreError,
  StoreNetworkError,
  StoreRedirectRefusedError,
  StoreResponseTooLargeError,
  StoreTimeoutError,
  StoreTruncatedResponseError,
} from '../errors/store.errors';

/** Options of {@link guardedFetch}. */
export interface TGuardedFetchOptions {
  /** Origins that may be fetched, e.g. `https://apps.apple.com` (SSRF guard). */
  allowedOrigins: readonly string[];
  /** Timeout of the whole request including the body, ms. */
  timeoutMs: number;
  /** Largest body accepted, bytes. */
  maxBytes: number;
  /** The caller's cancellation (e.g. the BullMQ job's abort signal). */
  signal?: AbortSignal;
  /** Redirects followed within the allowed origins before giving up (default 3). */
  maxRedirects?: number;
  headers?: Record<string, string>;
}

/** A fetched answer: final URL, status, headers and the body as text (UTF-8). */
export interface TFetchedResponse {
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

/** The `origin` of an http(s) URL string; throws a TypeError naming `what` otherwise. */
export function originOf(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${what} must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`${what} must use http or https, got "${value}"`);
  }
  return url.origin;
}

async function readBody(response: Response, url: string, maxBytes: number): Promise<string> {
  const declared = response.headers.get('content-length');
  const expected = declared !== null && /^\d+$/.test(declared) ? Number(declared) : null;
  if (expected !== null && expected > maxBytes) {
    await response.body?.cancel();
    throw new StoreResponseTooLargeError(url, maxBytes);
  }
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (error) {
      // An abort surfaces here too; let the caller map it (timeout vs. cancellation).
      if (error instanceof Error && error.name === 'AbortError') throw error;
      if (error instanceof DOMException && error.name === 'TimeoutError') throw error;
      throw new StoreTruncatedResponseError(url, received, expected);
    }
    if (chunk.done) break;
    received += chunk.value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw new StoreResponseTooLargeError(url, maxBytes);
    }
    chunks.push(chunk.value);
  }
  if (expected !== null && received < expected) {
    throw new StoreTruncatedResponseError(url, received, expected);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

/**
 * One GET with the store client's guards (docs/product.md#store-data-sources):
 *
 * - only URLs on `allowedOrigins` are fetched; redirects are handled manually and followed
 *   only when they stay on those origins (at most `maxRedirects`), any other target throws
 *   `StoreRedirectRefusedError` without being fetched (SSRF guard);
 * - `timeoutMs` bounds the whole request including the body (`StoreTimeoutError`), and the
 *   caller's `signal` cancels it (its abort reason is thrown as is);
 * - bodies above `maxBytes` throw `StoreResponseTooLargeError`; a body cut off before its
 *   Content-Length throws `StoreTruncatedResponseError`; a failed connection throws
 *   `StoreNetworkError`.
 *
 * Any HTTP status is returned (the caller decides about 404, 429, 5xx).
 */
export async function guardedFetch(
  url: string,
  options: TGuardedFetchOptions,
): Promise<TFetchedResponse> {
  const allowed = new Set(options.allowedOrigins.map((o) => originOf(o, 'allowed origin')));
  const maxRedirects = options.maxRedirects ?? 3;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let current = url;

  for (let hop = 0; ; hop += 1) {
    if (!allowed.has(originOf(current, 'request URL'))) {
      throw new StoreRedirectRefusedError(url, current);
    }
    try {
      const response = await fetch(current, {
        method: 'GET',
        redirect: 'manual',
        signal,
        headers: options.headers,
      });
      if (response.status >= 300 && response.status < 400 && response.status !== 304) {
        const location = response.headers.get('location');
        await response.body?.cancel();
        if (!location)
          return { url: current, status: response.status, headers: response.headers, text: '' };
        const target = new URL(location, current).toString();
        if (!/^https?:$/.test(new URL(target).protocol) || !allowed.has(new URL(target).origin)) {
          throw new StoreRedirectRefusedError(current, target);
        }
        if (hop >= maxRedirects) {
          throw new StoreRedirectRefusedError(
            current,
            `${target} (more than ${maxRedirects} redirects)`,
          );
        }
        current = target;
        continue;
      }
      const text = await readBody(response, current, options.maxBytes);
      return { url: current, status: response.status, headers: response.headers, text };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) throw new StoreTimeoutError(current, options.timeoutMs);
      if (error instanceof StoreError) throw error;
      throw new StoreNetworkError(
        current,
        error instanceof Error && error.cause ? error.cause : error,
      );
    }
  }
}
