/**
 * Errors of the store client and parsers. Each carries a stable `code` and `retryable`, so the
 * scrape worker can decide between retrying, slowing the queue (rate limit) and failing at once
 * (BullMQ `UnrecoverableError`) without matching on messages.
 */

/** Stable codes of {@link StoreError}. */
export type TStoreErrorCode =
  | 'APP_NOT_FOUND'
  | 'RATE_LIMITED'
  | 'HTTP_ERROR'
  | 'TIMEOUT'
  | 'NETWORK_ERROR'
  | 'REDIRECT_REFUSED'
  | 'RESPONSE_TOO_LARGE'
  | 'TRUNCATED_RESPONSE'
  | 'MALFORMED_RESPONSE'
  | 'UNKNOWN_PAGE_LAYOUT'
  | 'PAGE_PARSE_ERROR'
  | 'STORE_UNAVAILABLE';

/** Base class of every store error. */
export class StoreError extends Error {
  readonly code: TStoreErrorCode;
  /** True when the same request may succeed later (5xx, 429, timeouts, cut-off bodies). */
  readonly retryable: boolean;

  constructor(code: TStoreErrorCode, message: string, retryable: boolean, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.retryable = retryable;
  }
}

/**
 * Neither the lookup API (`resultCount: 0`) nor the product page (404) knows the app in this
 * storefront (docs/product.md#how-an-audit-runs). Message: 'App not found in the <CC> App Store'.
 * Not retryable.
 */
export class AppNotFoundError extends StoreError {
  readonly appId: string;
  readonly storefront: string;

  constructor(appId: string, storefront: string) {
    super('APP_NOT_FOUND', `App not found in the ${storefront.toUpperCase()} App Store`, false);
    this.appId = appId;
    this.storefront = storefront;
  }
}

/**
 * The store kept answering 429 (Too Many Requests) after the client's own retries, or asked
 * for a pause longer than the client may wait. `retryAfterMs` is the pause the store asked for
 * (Retry-After header) or, without one, the client's next backoff delay; the worker passes it
 * to BullMQ's rate limiter so the whole queue slows down instead of burning attempts.
 */
export class StoreRateLimitedError extends StoreError {
  readonly url: string;
  readonly retryAfterMs: number;

  constructor(url: string, retryAfterMs: number) {
    super(
      'RATE_LIMITED',
      `The App Store rate-limited ${url} (HTTP 429); retry after ${Math.ceil(retryAfterMs / 1000)} s`,
      true,
    );
    this.url = url;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A non-2xx answer other than 404/429. 5xx are retryable, other statuses are not. */
export class StoreHttpError extends StoreError {
  readonly url: string;
  readonly status: number;

  constructor(url: string, status: number, attempts: number) {
    super(
      'HTTP_ERROR',
      `The App Store answered HTTP ${status} for ${url}` +
        (attempts > 1 ? ` (${attempts} attempts)` : ''),
      status >= 500,
    );
    this.url = url;
    this.status = status;
  }
}

/** A request took longer than its timeout (ms). Retryable. */
export class StoreTimeoutError extends StoreError {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super('TIMEOUT', `Request to ${url} timed out after ${timeoutMs} ms`, true);
  }
}

/** The connection failed (refused, reset, DNS). Retryable. */
export class StoreNetworkError extends StoreError {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(
      'NETWORK_ERROR',
      `Could not reach ${url}: ${cause instanceof Error ? cause.message : String(cause)}`,
      true,
      { cause },
    );
  }
}

/**
 * A redirect pointed outside the configured store origins (SSRF guard,
 * docs/product.md#how-an-audit-runs: "no redirects followed off them"). Not retryable; the target
 * was never fetched.
 */
export class StoreRedirectRefusedError extends StoreError {
  constructor(
    readonly url: string,
    readonly location: string,
  ) {
    super(
      'REDIRECT_REFUSED',
      `Refused to follow a redirect from ${url} to ${location}: only the configured App Store origins may be fetched`,
      false,
    );
  }
}

/** A response body exceeded the size cap (bytes). Not retryable. */
export class StoreResponseTooLargeError extends StoreError {
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(
      'RESPONSE_TOO_LARGE',
      `Response from ${url} is larger than the ${maxBytes}-byte limit`,
      false,
    );
  }
}

/** The connection closed before the whole body arrived. Retryable. */
export class StoreTruncatedResponseError extends StoreError {
  constructor(
    readonly url: string,
    readonly receivedBytes: number,
    readonly expectedBytes: number | null,
  ) {
    super(
      'TRUNCATED_RESPONSE',
      `Response from ${url} was cut off after ${receivedBytes}` +
        (expectedBytes === null ? ' bytes' : ` of ${expectedBytes} bytes`),
      true,
    );
  }
}

/** A JSON answer (lookup, reviews RSS) that is not the expected JSON. Not retryable. */
export class StoreMalformedResponseError extends StoreError {
  constructor(
    readonly url: string,
    what: string,
    detail: string,
  ) {
    super('MALFORMED_RESPONSE', `Malformed ${what} from ${url}: ${detail}`, false);
  }
}

/**
 * A product page that no known layout parser understands. The message names every layout
 * marker that was looked for (docs/product.md#how-an-audit-runs). Not retryable.
 */
export class UnknownPageLayoutError extends StoreError {
  constructor(readonly markers: readonly string[]) {
    super(
      'UNKNOWN_PAGE_LAYOUT',
      `Unknown App Store page layout: none of the known layout markers was found (looked for ${markers.join('; ')})`,
      false,
    );
  }
}

/** A page whose layout marker is present but whose data cannot be read. Not retryable. */
export class PageParseError extends StoreError {
  constructor(
    readonly layout: string,
    detail: string,
  ) {
    super('PAGE_PARSE_ERROR', `Could not read the ${layout} product page layout: ${detail}`, false);
  }
}

/**
 * No source could be read (each failed for its own reason, none said "not found"). Retryable
 * when any cause is. `causes` maps the source ('lookup', 'page') to its error.
 */
export class StoreUnavailableError extends StoreError {
  constructor(
    readonly appId: string,
    readonly storefront: string,
    readonly causes: Readonly<Record<string, StoreError>>,
  ) {
    super(
      'STORE_UNAVAILABLE',
      `App Store data for app ${appId} (${storefront.toUpperCase()}) could not be fetched: ` +
        Object.entries(causes)
          .map(([source, error]) => `${source}: ${error.message}`)
          .join('; '),
      Object.values(causes).some((e) => e.retryable),
    );
  }
}

/** Short, URL-free reason of one store error, for step messages and failure reasons. */
export function describeStoreError(error: StoreError): string {
  switch (error.code) {
    case 'HTTP_ERROR':
      return error instanceof StoreHttpError ? `HTTP ${error.status}` : error.message;
    case 'RATE_LIMITED':
      return 'rate limited (HTTP 429)';
    case 'TIMEOUT':
      return error instanceof StoreTimeoutError
        ? `no answer within ${error.timeoutMs} ms`
        : 'no answer in time';
    case 'REDIRECT_REFUSED': {
      let target = error instanceof StoreRedirectRefusedError ? error.location : 'another host';
      try {
        target = new URL(target).origin;
      } catch {
        // Keep the raw location: it is only shown.
      }
      return `redirect to ${target} refused (only the configured App Store origins are fetched)`;
    }
    case 'RESPONSE_TOO_LARGE':
      return error instanceof StoreResponseTooLargeError
        ? `response larger than ${error.maxBytes} bytes`
        : 'response too large';
    case 'NETWORK_ERROR':
      return 'store unreachable';
    case 'TRUNCATED_RESPONSE':
      return 'response cut off';
    case 'MALFORMED_RESPONSE':
      return 'malformed response';
    case 'APP_NOT_FOUND':
    case 'UNKNOWN_PAGE_LAYOUT':
    case 'PAGE_PARSE_ERROR':
    case 'STORE_UNAVAILABLE':
      // These messages carry no URL and say what matters (the unknown layout names the
      // markers that were looked for): keep them whole.
      return error.message;
  }
}
