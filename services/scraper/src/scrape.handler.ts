import {
  STEP_LABELS,
  storeDataLine,
  ZAppListing,
  type TAppListing,
  type TStepId,
} from '@aso/contracts';
import {
  findFreshSnapshot,
  findSnapshot,
  isDatabaseUnavailableError,
  type TAppSnapshotRow,
} from '@aso/db';
import { StoreError } from '@aso/appstore/node';
import {
  RateLimitError,
  UnrecoverableError,
  type Job,
  type TJobHandler,
  type TJobData,
} from '@aso/queue';
import type { Logger } from 'pino';
import { AppStepReporter } from './app-step.reporter';
import {
  summariseInAppEvents,
  summariseMetadata,
  summarisePreviews,
  summariseScreenshots,
} from './listing.summary';
import {
  planFailure,
  ScrapeInputError,
  snapshotDecision,
  validateScrapeTarget,
  type TFailurePlan,
  type TScrapeTarget,
} from './scrape.policy';
import { recordStoreRead, storeReadOfFailure, storeReadOfResult } from './store-read.recorder';
import { readStore } from './store.reader';
import { storeSnapshot } from './snapshot.recorder';
import type { TWorkerDeps } from './worker.deps';

/** The steps after `scrape`, each reporting what the listing holds. */
const EXTRACTION_STEPS: ReadonlyArray<[TStepId, (listing: TAppListing) => string]> = [
  ['metadata_extraction', summariseMetadata],
  ['screenshot_analysis', summariseScreenshots],
  ['preview_video_detection', summarisePreviews],
  ['in_app_events', summariseInAppEvents],
];

/** Message of the steps after `cache_check` when the listing came from a snapshot. */
export const FROM_CACHE = 'from cache';

/** One scrape job in progress: what its steps share. */
interface TScrapeRun {
  deps: TWorkerDeps;
  data: TJobData<'scrape'>;
  job: Job<TJobData<'scrape'>>;
  signal: AbortSignal;
  log: Logger;
  steps: AppStepReporter;
}

/** A listing reused from a stored snapshot. */
interface TCachedListing {
  listing: TAppListing;
  fetchedAt: Date;
}

/**
 * A stored snapshot's listing, or null when it no longer satisfies the listing schema or was
 * read in another page language than the one asked for now.
 */
function cachedListing(row: TAppSnapshotRow, language: string | null): TAppListing | null {
  const parsed = ZAppListing.safeParse(row.listing);
  if (!parsed.success) return null;
  const readIn = parsed.data.storeData?.requestedLanguage ?? null;
  return readIn === language ? parsed.data : null;
}

/**
 * Step 1, `url_validation`: the job's URL, app id and storefront
 * (docs/product.md#validation-rules).
 */
async function validateUrl(run: TScrapeRun): Promise<TScrapeTarget> {
  await run.steps.start('url_validation', STEP_LABELS.url_validation);
  const target = validateScrapeTarget(run.data);
  await run.steps.done(
    'url_validation',
    `App ${target.appId} in the ${target.storefront.toUpperCase()} storefront` +
      (target.language ? ` (page language ${target.language})` : ''),
  );
  return target;
}

/**
 * Step 2, `cache_check`: the stored snapshot the job names (an audit of a snapshot: never the
 * store), else the latest snapshot younger than `APP_CACHE_TTL` seconds, read in the same page
 * language, unless the job bypasses the cache.
 */
async function checkCache(run: TScrapeRun, target: TScrapeTarget): Promise<TCachedListing | null> {
  const { deps, data, log, steps } = run;
  await steps.start('cache_check', STEP_LABELS.cache_check);
  let cached: TCachedListing | null = null;
  let message = 'Cache bypassed on request; scraping';
  if (data.snapshotId) {
    const row = await findSnapshot(deps.db, target.appId, data.snapshotId);
    const parsed = row ? ZAppListing.safeParse(row.listing) : null;
    if (!row || !parsed?.success) {
      throw new ScrapeInputError(
        `The stored snapshot ${data.snapshotId} of app ${target.appId} cannot be read`,
      );
    }
    await steps.done('cache_check', `Stored snapshot from ${row.fetched_at.toISOString()}`, {
      cacheHit: true,
    });
    return { listing: parsed.data, fetchedAt: row.fetched_at };
  }
  if (!data.bypassCache) {
    const row = await findFreshSnapshot(
      deps.db,
      target.appId,
      target.storefront,
      deps.env.APP_CACHE_TTL,
    );
    const listing = row ? cachedListing(row, target.language ?? null) : null;
    if (row && listing) {
      cached = { listing, fetchedAt: row.fetched_at };
      message = `Cache hit: snapshot from ${row.fetched_at.toISOString()}`;
    } else {
      if (row) log.info({ snapshotId: row.id }, 'stored snapshot not reusable; scraping');
      message = 'No fresh snapshot; scraping';
    }
  }
  await steps.done('cache_check', message, { cacheHit: cached !== null });
  return cached;
}

/** Step 3 on a cache hit: `scrape` is done at once. */
async function reuseSnapshot(run: TScrapeRun, cached: TCachedListing): Promise<TAppListing> {
  await run.steps.start('scrape', STEP_LABELS.scrape);
  await run.steps.done('scrape', FROM_CACHE);
  run.log.info({ fetchedAt: cached.fetchedAt.toISOString() }, 'scrape: cache hit');
  return cached.listing;
}

/**
 * Step 3, `scrape`: reads the store, records the read for the drift alarm, stores the listing
 * as a snapshot unless a source failed (see `snapshotDecision`), and reports the layout, the
 * sources and the store data line.
 */
async function scrapeStore(run: TScrapeRun, target: TScrapeTarget): Promise<TAppListing> {
  const { deps, log, steps } = run;
  await steps.start('scrape', STEP_LABELS.scrape);
  const started = Date.now();
  const result = await readStore(deps.env, target, run.signal);
  const { listing } = result;
  await recordStoreRead(deps, storeReadOfResult(result), (err) =>
    log.warn({ err }, 'could not record the store read'),
  );
  const decision = snapshotDecision(result.sources);
  if (decision.store) await storeSnapshot(deps, listing, target.language ?? null);
  const ms = Date.now() - started;
  const sources = Object.entries(result.sources).map(([k, r]) => `${k} ${r.status}`);
  log.info(
    {
      layout: result.layout,
      ms,
      sources,
      cached: decision.store,
      missingPageFields: result.page?.missing ?? [],
    },
    'scrape: store read',
  );
  await steps.done(
    'scrape',
    `Read the App Store in ${ms} ms (page layout: ${result.layout}, ${sources.join(', ')})` +
      (decision.store ? '; snapshot stored' : `; ${decision.reason}`) +
      (listing.storeData ? `. ${storeDataLine(listing.storeData)}` : ''),
  );
  return listing;
}

/** Steps 4-7: what the listing holds ('from cache: ...' on a cache hit). */
async function reportExtraction(
  run: TScrapeRun,
  listing: TAppListing,
  fromCache: boolean,
): Promise<void> {
  for (const [stepId, summarise] of EXTRACTION_STEPS) {
    await run.steps.start(stepId, STEP_LABELS[stepId]);
    const summary = summarise(listing);
    await run.steps.done(stepId, fromCache ? `${FROM_CACHE}: ${summary}` : summary);
  }
}

/** What {@link planFailure} decides for this job's `error`. */
function failurePlan(run: TScrapeRun, error: unknown): TFailurePlan {
  return planFailure(error, {
    appId: run.data.appId,
    storefront: run.data.storefront,
    attemptsMade: run.job.attemptsMade,
    attempts: run.job.opts.attempts ?? 1,
    queuedAt: run.job.timestamp,
    now: Date.now(),
    maxRateLimitWaitMs: run.deps.env.STORE_RATE_LIMIT_MAX_WAIT_MS,
  });
}

/**
 * A failed attempt: reports it on the step it happened in, records a store read that failed
 * for good (for the drift alarm) and throws what BullMQ needs: `UnrecoverableError` to fail
 * now, BullMQ's manual rate limit to pause the queue, or a plain error to retry.
 */
async function handleFailure(run: TScrapeRun, error: unknown): Promise<never> {
  const { deps, log, steps, job } = run;
  if (run.signal.aborted) {
    // Worker shutting down or job cancelled: BullMQ hands the job on; nothing to report.
    log.warn({ err: error }, 'scrape aborted');
    throw error;
  }
  if (isDatabaseUnavailableError(error)) {
    // Not the store's fault and not this job's: thrown as it is, so the worker's `deferOn`
    // puts the job back until PostgreSQL answers, without using an attempt. Wrapped in a
    // store message it would use up the attempts and fail the audit over an outage.
    throw error;
  }
  const plan = failurePlan(run, error);
  const stepId = steps.current ?? 'scrape';
  const report = (status: 'in_progress' | 'error', message: string) =>
    steps.emit(stepId, status, message).catch((err: unknown) => {
      log.error({ err }, 'could not report the failed step');
    });
  const lastTry = plan.action === 'fail' || (plan.action === 'retry' && plan.final);
  if (lastTry && error instanceof StoreError) {
    await recordStoreRead(
      deps,
      storeReadOfFailure(error, { appId: run.data.appId, storefront: run.data.storefront }),
      (err) => log.warn({ err }, 'could not record the store read'),
    );
  }
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

/**
 * Builds the `scrape` job handler (docs/product.md#scrape-steps). For one app of an audit it
 * reports, on the audit's progress stream, each step `in_progress` then `done` (or `error`
 * with a message):
 *
 * 1. `url_validation` ({@link validateUrl}): the job's URL, app id, storefront and `?l=`
 *    language (App Store URL rules, docs/product.md#validation-rules);
 * 2. `cache_check` ({@link checkCache}): the latest snapshot younger than `APP_CACHE_TTL`
 *    seconds, read in the same language, is reused unless `bypassCache` ('Cache hit: snapshot
 *    from <ISO time>' / 'No fresh snapshot; scraping'); a job with `snapshotId` reads that
 *    stored snapshot instead ('Stored snapshot from <ISO time>'; fails at once when it is gone);
 * 3. `scrape` ({@link scrapeStore}): `fetchAppListing` (lookup API, product page, reviews RSS,
 *    all of the job's storefront) with the job's abort signal, `STORE_TIMEOUT_MS`,
 *    `STORE_MAX_BYTES` and the store retry settings; the read is recorded for the drift alarm
 *    (`store_reads`, `aso_store_fields_missing_total`) and the listing stored as a new
 *    `app_snapshots` row unless a source failed, compared with the one before it (see
 *    `storeSnapshot`); the message ends with the store data line;
 * 4. `metadata_extraction`, `screenshot_analysis` (screenshot sets per device with sizes),
 *    `preview_video_detection`, `in_app_events` ({@link reportExtraction}): what the listing
 *    holds ('from cache: ...' on a cache hit).
 *
 * Returns the listing (contracts `TAppListing`): the analysis parent job reads it with
 * `getChildrenValues()`. Failures follow `planFailure` ({@link handleFailure}):
 * `UnrecoverableError` with the user-facing message (unknown app, bad input, refused redirect,
 * unknown page layout when no other source answered); a 429 pauses the whole queue
 * (`worker.rateLimit` + `RateLimitError`, BullMQ's manual rate limit, no attempt
 * used); an unreachable database is thrown unchanged (the worker defers the job until it
 * answers); anything else is thrown for BullMQ to retry with the catalog's backoff (3 attempts).
 */
export function createScrapeHandler(deps: TWorkerDeps): TJobHandler<'scrape'> {
  return async (data, job, signal) => {
    const run: TScrapeRun = {
      deps,
      data,
      job,
      signal,
      log: deps.log.child({ auditId: data.auditId, appId: data.appId, jobId: job.id }),
      steps: new AppStepReporter(deps.bus, data),
    };
    try {
      const target = await validateUrl(run);
      const cached = await checkCache(run, target);
      const listing = cached ? await reuseSnapshot(run, cached) : await scrapeStore(run, target);
      await reportExtraction(run, listing, cached !== null);
      return listing;
    } catch (error) {
      return handleFailure(run, error);
    }
  };
}
