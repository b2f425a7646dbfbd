import { fetchAppListing, type TFetchAppListingResult } from '@aso/appstore/node';
import type { TWorkerEnv } from './env';
import type { TScrapeTarget } from './scrape.policy';

/**
 * One store read of `target` (`fetchAppListing`: lookup API, product page, reviews feed, all
 * of its storefront and page language) with the worker's store settings (`ITUNES_ORIGIN`,
 * `APP_STORE_ORIGIN`, `STORE_TIMEOUT_MS`, `STORE_MAX_BYTES`, the retry settings) and the
 * job's abort signal. Shared by audits' scrapes and watched listings' reads.
 */
export function readStore(
  env: TWorkerEnv,
  target: TScrapeTarget,
  signal: AbortSignal,
): Promise<TFetchAppListingResult> {
  return fetchAppListing({
    appId: target.appId,
    storefront: target.storefront,
    ...(target.language ? { language: target.language } : {}),
    itunesOrigin: env.ITUNES_ORIGIN,
    appStoreOrigin: env.APP_STORE_ORIGIN,
    signal,
    timeoutMs: env.STORE_TIMEOUT_MS,
    maxBytes: env.STORE_MAX_BYTES,
    retry: {
      attempts: env.STORE_RETRY_ATTEMPTS,
      baseDelayMs: env.STORE_RETRY_BASE_DELAY_MS,
      maxRetryAfterMs: env.STORE_MAX_RETRY_AFTER_MS,
    },
  });
}
