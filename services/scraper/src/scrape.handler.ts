import { STEP_LABELS, ZAppListing, type TAppListing, type TStepId } from '@aso/contracts';
import { findFreshSnapshot, insertSnapshot, type AppSnapshotRow } from '@aso/db';
import { fetchAppListing } from '@aso/appstore/node';
import { RateLimitError, UnrecoverableError, type JobHandler } from '@aso/queue';
import { AppStepReporter } from './app-step.reporter';
import {
  summariseInAppEvents,
  summariseMetadata,
  summarisePreviews,
  summariseScreenshots,
} from './listing.summary';
import { planFailure, snapshotDecision, validateScrapeTarget } from './scrape.policy';
import type { WorkerDeps } from './worker.deps';

/** The steps after `scrape`, each reporting what the listing holds. */
const EXTRACTION_STEPS: ReadonlyArray<[TStepId, (listing: TAppListing) => string]> = [
  ['metadata_extraction', summariseMetadata],
  ['screenshot_analysis', summariseScreenshots],
  ['preview_video_detection', summarisePreviews],
  ['in_app_events', summariseInAppEvents],
];

/** Message of the steps after `cache_check` when the listing came from a snapshot. */
export const FROM_CACHE = 'from cache';

/** A stored snapshot's listing, or null when it no longer satisfies the listing schema. */
function cachedListing(row: AppSnapshotRow): TAppListing | null {
  const parsed = ZAppListing.safeParse(row.listing);
  return parsed.success ? parsed.data : null;
}

/**
 * Builds the `scrape` job handler (DESIGN section 2 point 4). For one app
 * of an audit it reports, on the audit's progress stream, each step `in_progress` then `done`
 * (or `error` with a message):
 *
 * 1. `url_validation`: the job's URL, app id and storefront (App Store URL rules, spec 5);
 * 2. `cache_check`: the latest snapshot younger than `APP_CACHE_TTL` seconds is reused unless
 *    `bypassCache` ('Cache hit: snapshot from <ISO time>' / 'No fresh snapshot; scraping');
 * 3. `scrape`: `fetchAppListing` (lookup API, product page, reviews RSS) with the job's abort
 *    signal, `STORE_TIMEOUT_MS`, `STORE_MAX_BYTES` and the store retry settings; the result is
 *    stored as a new `app_snapshots` row unless a source failed (see `snapshotDecision`);
 * 4. `metadata_extraction`, `screenshot_analysis` (screenshot sets per device with sizes),
 *    `preview_video_detection`, `in_app_events`: what the listing holds ('from cache: ...' on
 *    a cache hit).
 *
 * Returns the listing (contracts `TAppListing`): the analysis parent job reads it with
 * `getChildrenValues()`. Failures follow `planFailure`: `UnrecoverableError` with the
 * user-facing message (unknown app, bad input, refused redirect, unknown page layout); a 429
 * pauses the whole queue (`worker.rateLimit` + `Worker.RateLimitError()`, BullMQ's manual rate
 * limit, no attempt used); anything else is thrown for BullMQ to retry with the catalog's
 * backoff (3 attempts).
 */
export function createScrapeHandler(deps: WorkerDeps): JobHandler<'scrape'> {
  const { env } = deps;
  return async (data, job, signal) => {
    const log = deps.log.child({ auditId: data.auditId, appId: data.appId, jobId: job.id });
    const steps = new AppStepReporter(deps.bus, data);
    try {
      await steps.start('url_validation', STEP_LABELS.url_validation);
      const target = validateScrapeTarget(data);
      await steps.done(
        'url_validation',
        `App ${target.appId} in the ${target.storefront.toUpperCase()} storefront`,
      );

      await steps.start('cache_check', STEP_LABELS.cache_check);
      let cached: { listing: TAppListing; fetchedAt: Date } | null = null;
      let cacheMessage = 'Cache bypassed on request; scraping';
      if (!data.bypassCache) {
        const row = await findFreshSnapshot(
          deps.db,
          target.appId,
          target.storefront,
          env.APP_CACHE_TTL,
        );
        const listing = row ? cachedListing(row) : null;
        if (row && listing) {
          cached = { listing, fetchedAt: row.fetched_at };
          cacheMessage = `Cache hit: snapshot from ${row.fetched_at.toISOString()}`;
        } else {
          if (row) log.warn({ snapshotId: row.id }, 'stored snapshot does not parse; scraping');
          cacheMessage = 'No fresh snapshot; scraping';
        }
      }
      await steps.done('cache_check', cacheMessage, { cacheHit: cached !== null });

      let listing: TAppListing;
      if (cached) {
        await steps.start('scrape', STEP_LABELS.scrape);
        await steps.done('scrape', FROM_CACHE);
        listing = cached.listing;
        log.info({ fetchedAt: cached.fetchedAt.toISOString() }, 'scrape: cache hit');
      } else {
        await steps.start('scrape', STEP_LABELS.scrape);
        const started = Date.now();
        const result = await fetchAppListing({
          appId: target.appId,
          storefront: target.storefront,
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
        listing = result.listing;
        const decision = snapshotDecision(result.sources);
        if (decision.store) {
          await insertSnapshot(deps.db, {
            appId: listing.appId,
            storefront: listing.storefront,
            appName: listing.appName === '' ? null : listing.appName,
            fetchedAt: listing.fetchedAt,
            sourceLayout: listing.sourceLayout,
            listing,
          });
        }
        const ms = Date.now() - started;
        const sources = Object.entries(result.sources).map(([k, r]) => `${k} ${r.status}`);
        log.info(
          { layout: result.layout, ms, sources, cached: decision.store },
          'scrape: store read',
        );
        await steps.done(
          'scrape',
          `Read the App Store in ${ms} ms (page layout: ${result.layout}, ${sources.join(', ')})` +
            (decision.store ? '; snapshot stored' : `; ${decision.reason}`),
        );
      }

      for (const [stepId, summarise] of EXTRACTION_STEPS) {
        await steps.start(stepId, STEP_LABELS[stepId]);
        const summary = summarise(listing);
        await steps.done(stepId, cached ? `${FROM_CACHE}: ${summary}` : summary);
      }
      return listing;
    } catch (error) {
      if (signal.aborted) {
        // Worker shutting down or job cancelled: BullMQ hands the job on; nothing to report.
        log.warn({ err: error }, 'scrape aborted');
        throw error;
      }
      const plan = planFailure(error, {
        appId: data.appId,
        storefront: data.storefront,
        attemptsMade: job.attemptsMade,
        attempts: job.opts.attempts ?? 1,
        queuedAt: job.timestamp,
        now: Date.now(),
        maxRateLimitWaitMs: env.STORE_RATE_LIMIT_MAX_WAIT_MS,
      });
      const stepId = steps.current ?? 'scrape';
      const report = (status: 'in_progress' | 'error', message: string) =>
        steps.emit(stepId, status, message).catch((err: unknown) => {
          log.error({ err }, 'could not report the failed step');
        });
      switch (plan.action) {
        case 'fail':
          log.warn({ err: error, reason: plan.message }, 'scrape failed for good');
          await report('error', plan.message);
          throw new UnrecoverableError(plan.message);
        case 'rate_limit':
          log.warn({ pauseMs: plan.pauseMs }, 'store rate limit: pausing the scrape queue');
          await report('in_progress', plan.message);
          // BullMQ's manual rate limit (docs: "Rate limiting" > "Manual rate-limit"): the
          // limiter key stops every worker of the queue from taking jobs for `pauseMs` (the
          // workers' `limiter` option makes them check it), and the special error puts this job
          // back in `wait` without using an attempt. bullmq 5.8x marks `worker.rateLimit`
          // deprecated in favour of `queue.rateLimit` (v6); both set the same key.
          await deps.worker().rateLimit(plan.pauseMs);
          throw new RateLimitError();
        case 'retry': {
          const attempt = job.attemptsMade + 1;
          log.warn({ err: error, attempt, final: plan.final }, 'scrape attempt failed');
          await report(
            plan.final ? 'error' : 'in_progress',
            plan.final
              ? plan.message
              : `${plan.message}; retrying (attempt ${attempt} of ${job.opts.attempts ?? 1} failed)`,
          );
          throw new Error(plan.message, { cause: error });
        }
      }
    }
  };
}
