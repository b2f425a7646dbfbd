import {
  AppNotFoundError,
  describeStoreError,
  isValidAppStoreUrl,
  parseAppStoreUrl,
  StoreError,
  StoreRateLimitedError,
  StoreUnavailableError,
  URL_ERROR_INVALID,
} from '@aso/appstore/node';
import type { TFetchAppListingResult, TSourceReport } from '@aso/appstore/node';
import type { TScrapeJob } from '@aso/queue';

/**
 * Decisions of the scrape job that do not need I/O: what a job's target is, whether a scrape
 * may be cached, and what to do with a failure (fail at once, slow the queue, or retry).
 */

/** A job whose app id, storefront or URL is wrong: a retry cannot fix it. */
export class ScrapeInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScrapeInputError';
  }
}

/** The app a scrape job reads: id (digits), storefront (two letters, lower case), product page URL. */
export interface TScrapeTarget {
  appId: string;
  storefront: string;
  /** The normalised product page URL (`https://apps.apple.com/<cc>/app/[<slug>/]id<id>?platform=iphone[&l=..]`). */
  appStoreUrl: string;
  /** The URL's `?l=` page language, when it has one. */
  language?: string;
}

/**
 * The `url_validation` step: checks the job's URL with the App Store URL rules of
 * docs/product.md#validation-rules (the same rules the form and the gateway apply) and that it
 * names the job's app id and storefront. Throws `ScrapeInputError` with the rule's message ('Enter
 * a valid App Store URL.', "Couldn't extract an app ID from this URL.") or naming the mismatch.
 */
export function validateScrapeTarget(
  job: Pick<TScrapeJob, 'appId' | 'storefront' | 'appStoreUrl'>,
): TScrapeTarget {
  const parsed = parseAppStoreUrl(job.appStoreUrl);
  if (parsed.status === 'idle') throw new ScrapeInputError(URL_ERROR_INVALID);
  if (!isValidAppStoreUrl(parsed)) throw new ScrapeInputError(parsed.error ?? URL_ERROR_INVALID);
  if (parsed.appId !== job.appId) {
    throw new ScrapeInputError(
      `The app id ${job.appId} does not match the app id ${parsed.appId} of ${parsed.normalizedUrl}`,
    );
  }
  if (parsed.storefront !== job.storefront.toLowerCase()) {
    throw new ScrapeInputError(
      `The storefront "${job.storefront}" does not match the storefront "${parsed.storefront}" of ${parsed.normalizedUrl}`,
    );
  }
  return {
    appId: parsed.appId,
    storefront: parsed.storefront,
    appStoreUrl: parsed.normalizedUrl,
    ...(parsed.language ? { language: parsed.language } : {}),
  };
}

const SOURCE_NAMES = { lookup: 'lookup', page: 'product page', reviews: 'reviews feed' } as const;

/** Whether a finished scrape may be stored as a snapshot (the cache and history). */
export type TSnapshotDecision = { store: true } | { store: false; reason: string };

/**
 * A scrape is stored only when every source it asked answered for sure (found or not found).
 * When a source failed (5xx after retries, timeout, malformed body, ...) the listing built from
 * the others is still returned to the audit, but it is NOT cached: caching it would serve the
 * gap (e.g. no subtitle, no in-app events when the product page failed) to every audit of the
 * app for the whole cache TTL, while the next audit may well read the full listing.
 */
export function snapshotDecision(sources: TFetchAppListingResult['sources']): TSnapshotDecision {
  const failed = (Object.keys(SOURCE_NAMES) as Array<keyof typeof SOURCE_NAMES>)
    .map((key): [string, TSourceReport] => [SOURCE_NAMES[key], sources[key]])
    .filter(([, report]) => report.status === 'failed');
  if (failed.length === 0) return { store: true };
  const reasons = failed.map(
    ([name, report]) =>
      `${name} ${report.cause ? describeStoreError(report.cause) : (report.error ?? 'failed')}`,
  );
  return { store: false, reason: `not cached: ${reasons.join(', ')}` };
}

/** How the handler reacts to a failure. */
export type TFailurePlan =
  /** Fail the job now (BullMQ `UnrecoverableError`) with this user-facing message. */
  | { action: 'fail'; message: string }
  /** Pause the whole queue for `pauseMs` and put the job back without using an attempt. */
  | { action: 'rate_limit'; pauseMs: number; message: string }
  /** Throw a normal error: BullMQ retries with the catalog's backoff until attempts run out. */
  | { action: 'retry'; message: string; final: boolean };

/** What {@link planFailure} needs to know about the job. */
export interface TFailureContext {
  appId: string;
  storefront: string;
  /** BullMQ `job.attemptsMade`: attempts that failed before this one. */
  attemptsMade: number;
  /** BullMQ `job.opts.attempts` (1 when unset). */
  attempts: number;
  /** When the job was queued (epoch ms, BullMQ `job.timestamp`). */
  queuedAt: number;
  /** Now (epoch ms). */
  now: number;
  /** `STORE_RATE_LIMIT_MAX_WAIT_MS`. */
  maxRateLimitWaitMs: number;
}

/**
 * Decides what to do with a failed scrape (docs/product.md#how-an-audit-runs):
 * - bad job input, an app the store does not know (`AppNotFoundError`: 'App not found in the
 *   <CC> App Store') and any store error that is not retryable (refused redirect, unknown page
 *   layout, oversized body) fail at once;
 * - a 429 the store client could not absorb pauses the queue for the time the store asked
 *   (`retryAfterMs`, at least 1 s and at most what is left of `maxRateLimitWaitMs`), until the
 *   job has waited `maxRateLimitWaitMs` since it was queued; then it fails;
 * - anything else (5xx, timeouts, cut-off bodies, a database hiccup) is retried by BullMQ; the
 *   message of the last attempt is the audit's failure reason.
 */
export function planFailure(error: unknown, ctx: TFailureContext): TFailurePlan {
  const cc = ctx.storefront.toUpperCase();
  if (error instanceof ScrapeInputError) return { action: 'fail', message: error.message };
  if (error instanceof AppNotFoundError) return { action: 'fail', message: error.message };
  if (error instanceof StoreRateLimitedError) {
    const left = ctx.maxRateLimitWaitMs - (ctx.now - ctx.queuedAt);
    if (left <= 0) {
      return {
        action: 'fail',
        message: `The App Store is rate-limiting requests for app ${ctx.appId} (${cc}). Please try again later.`,
      };
    }
    const pauseMs = Math.max(1_000, Math.min(error.retryAfterMs, left));
    return {
      action: 'rate_limit',
      pauseMs,
      message: `The App Store is rate-limiting requests; waiting ${Math.ceil(pauseMs / 1000)} s`,
    };
  }
  const final = ctx.attemptsMade + 1 >= ctx.attempts;
  if (error instanceof StoreError) {
    const detail =
      error instanceof StoreUnavailableError
        ? Object.entries(error.causes)
            .map(([source, cause]) => `${source}: ${describeStoreError(cause)}`)
            .join(', ')
        : describeStoreError(error);
    const base = `Could not read the App Store data of app ${ctx.appId} (${cc}): ${detail}`;
    if (!error.retryable) return { action: 'fail', message: base };
    return {
      action: 'retry',
      final,
      message: final ? `${base}. Please try again later.` : base,
    };
  }
  return {
    action: 'retry',
    final,
    message: `The App Store data of app ${ctx.appId} (${cc}) could not be read right now. Please try again.`,
  };
}
