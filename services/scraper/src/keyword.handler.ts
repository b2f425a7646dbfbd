import { searchStore, StoreThrottledError, type TSearchAnswer } from '@aso/appstore/node';
import { KEYWORD_RANK_DEPTH, type TRankSource } from '@aso/contracts';
import {
  claimDueKeywordTerms,
  clearKeywordAlarm,
  countSuspectEmptyTerms,
  findKeywordReadByJob,
  findKeywordTerm,
  isDatabaseUnavailableError,
  openKeywordAlarm,
  pruneUntrackedKeywordTerms,
  raiseKeywordAlarm,
  recordKeywordFailure,
  recordKeywordRead,
  recordKeywordThrottled,
} from '@aso/db';
import { keywordReadJobId, RateLimitError, UnrecoverableError, type TJobHandler } from '@aso/queue';
import { recordRankAlerts } from './rank-alert.recorder';
import type { TWorkerDeps } from './worker.deps';

/** The source of every rank read today. */
const SOURCE: TRankSource = 'itunes-search';

/** Top results kept on a term for research and difficulty (the first page a person sees). */
const TOP_KEPT = 10;

/** How long a term that answered suspiciously empty waits before it is read again (s). */
const SUSPECT_RETRY_S = 3_600;

/** How long a researched term nobody tracks is kept (s): a week. */
const RESEARCH_KEEP_S = 7 * 86_400;

/** How long a claimed term waits for its queued read before a round claims it again (s). */
const CLAIM_LEASE_S = 3_600;

/**
 * The search limiter of the `keyword-search` queue, shared by every scraper replica through
 * Redis (BullMQ's queue-wide limiter): at most ONE read starts per `window / rate` ms, plus
 * 5 %. Spacing the reads (rather than allowing `rate` per window in a burst) keeps every
 * sliding window of `ITUNES_SEARCH_WINDOW_MS` at `ITUNES_SEARCH_RATE_PER_MIN` reads or fewer,
 * which a burst at the end of one fixed window and the start of the next would not; the 5 %
 * absorbs differences in how long each job takes from its slot to its request (a busy event
 * loop, a new connection), so the default 20 a minute is at most 19 reads in any minute. Each
 * read is exactly one request, made first thing in its job (the search client never retries
 * by itself), so requests follow the same spacing.
 */
export function searchLimiter(
  env: Pick<TWorkerDeps['env'], 'ITUNES_SEARCH_RATE_PER_MIN' | 'ITUNES_SEARCH_WINDOW_MS'>,
): { max: number; duration: number } {
  return {
    max: 1,
    duration: Math.ceil((env.ITUNES_SEARCH_WINDOW_MS / env.ITUNES_SEARCH_RATE_PER_MIN) * 1.05),
  };
}

/**
 * When a term is next due after a read (epoch ms): `KEYWORD_INTERVAL` seconds from `now`,
 * spread uniformly over `KEYWORD_JITTER` of it.
 */
export function nextKeywordCheckAt(
  env: Pick<TWorkerDeps['env'], 'KEYWORD_INTERVAL' | 'KEYWORD_JITTER'>,
  now: number,
  random = Math.random(),
): Date {
  const ms = env.KEYWORD_INTERVAL * 1000;
  return new Date(now + ms * (1 - env.KEYWORD_JITTER / 2 + env.KEYWORD_JITTER * random));
}

/** The research fields of the top results, as stored on the term. */
function topOf(answer: TSearchAnswer) {
  return answer.results.slice(0, TOP_KEPT);
}

/** Throttled answers one read may get before it fails for good (and is due after the interval). */
const MAX_THROTTLES = 8;

/**
 * The pause after a throttled read without Retry-After (ms): `baseMs` doubling per throttled
 * answer the read already had, capped at 15 minutes, the upper half randomised (so replicas
 * and reads do not all come back at the same moment).
 */
export function throttleBackoffMs(
  baseMs: number,
  throttles: number,
  random = Math.random(),
): number {
  const full = Math.min(15 * 60_000, baseMs * 2 ** throttles);
  return Math.round(full / 2 + (full / 2) * random);
}

/**
 * The ordered app ids a read stores: the answer's apps in order, at most the first
 * {@link KEYWORD_RANK_DEPTH} (the column holds 200, and a rank is a position among the first
 * 200 even when an answer carries more).
 */
export function rankedIds(answer: TSearchAnswer): string[] {
  return answer.results.slice(0, KEYWORD_RANK_DEPTH).map((r) => r.appId);
}

/**
 * The key a read is stored under: the job's id and creation time (both kept by a retry), so a
 * retried job finds its read instead of storing, and alerting on, a second one.
 */
export function readJobKey(job: { id?: string | undefined; timestamp: number }): string {
  return `${job.id ?? 'job'}@${job.timestamp}`;
}

/**
 * Builds the `keyword-read` handler: ONE search request for the term in its storefront
 * (`searchStore`), shared by every user and app tracking it; the ordered app ids (the first
 * 200, {@link rankedIds}) are stored (`recordKeywordRead`, under the job's key), so each app's
 * and competitor's rank comes from this read; then the rank alerts of the read
 * (`recordRankAlerts`: notifications and `keyword.rank_changed` webhooks). A retried job whose
 * read was stored already makes no request: it records the alerts of that read, which stores
 * nothing already stored.
 *
 * - 403, 429 or 503 (`StoreThrottledError`): the whole `keyword-search` queue pauses (BullMQ
 *   `worker.rateLimit` + `RateLimitError`: the read goes back without using an attempt) for
 *   the answer's Retry-After, or without one for an exponential backoff with jitter
 *   ({@link throttleBackoffMs}, doubling per throttled answer of the read). The term shows
 *   "rate-limited" with the time of the next try meanwhile; after `MAX_THROTTLES` throttled
 *   answers the read fails and the term is due after the interval.
 * - An empty answer for a term that had results stores nothing (its apps are not recorded as
 *   unranked): the term is marked suspect and read again in an hour; when
 *   `KEYWORD_EMPTY_ALARM_AFTER` terms did so within `KEYWORD_EMPTY_ALARM_WINDOW_S`, the
 *   empty-answer alarm is raised (admin store health) and rounds only probe suspect terms
 *   until one answers with results again, which clears it.
 * - Other failures are retried with the catalog's backoff; the last one is shown on the term
 *   (`lastError`) and the term is due again after the interval.
 *
 * Returns `{ results }` (how many apps the read ordered), `{ suspectEmpty: true }` or
 * `{ skipped }` for a term nobody tracks any more.
 */
export function createKeywordReadHandler(deps: TWorkerDeps): TJobHandler<'keyword-read'> {
  return async (data, job, signal) => {
    const log = deps.log.child({ termId: data.termId, storefront: data.storefront, jobId: job.id });
    const jobKey = readJobKey(job);
    try {
      const earlier = await findKeywordReadByJob(deps.db, jobKey);
      if (earlier) {
        await recordRankAlerts(deps, earlier.id);
        return { results: earlier.appIds.length };
      }
      // The request comes first: the limiter's slot is the request's (see searchLimiter).
      const answer = await searchStore({
        term: data.term,
        storefront: data.storefront,
        itunesOrigin: deps.env.ITUNES_ORIGIN,
        timeoutMs: deps.env.STORE_TIMEOUT_MS,
        maxBytes: deps.env.STORE_MAX_BYTES,
        signal,
      });
      const term = await findKeywordTerm(deps.db, data.termId);
      if (!term) return { skipped: 'not tracked' };
      const ids = rankedIds(answer);
      if (ids.length === 0 && term.hadResults) {
        await recordKeywordFailure(deps.db, term.id, {
          error:
            'The store answered no results for a term that had results before; nothing was recorded (read again within the hour)',
          nextCheckAt: new Date(Date.now() + SUSPECT_RETRY_S * 1000),
          suspectEmpty: true,
        });
        const suspects = await countSuspectEmptyTerms(
          deps.db,
          deps.env.KEYWORD_EMPTY_ALARM_WINDOW_S,
        );
        if (suspects >= deps.env.KEYWORD_EMPTY_ALARM_AFTER) {
          await raiseKeywordAlarm(
            deps.db,
            `${suspects} search terms that had results answered none within ${Math.round(deps.env.KEYWORD_EMPTY_ALARM_WINDOW_S / 60)} min: keyword rounds paused`,
          );
          log.error({ suspects }, 'search answers went empty: keyword rounds paused');
        } else {
          log.warn({ suspects }, 'a term that had results answered none');
        }
        return { suspectEmpty: true };
      }
      const read = await recordKeywordRead(deps.db, {
        termId: term.id,
        source: SOURCE,
        resultCount: answer.resultCount,
        appIds: ids,
        top: topOf(answer),
        nextCheckAt: nextKeywordCheckAt(deps.env, Date.now()),
        jobKey,
      });
      const alerts = await recordRankAlerts(
        deps,
        read.id,
        new Map(answer.results.map((r) => [r.appId, r.name])),
      );
      if (ids.length > 0 && term.hadResults && (await clearKeywordAlarm(deps.db))) {
        log.info('search answers have results again: empty-answer alarm cleared');
      }
      log.info({ results: ids.length, alerts, refresh: data.refresh === true }, 'keyword read');
      return { results: ids.length };
    } catch (error) {
      if (signal.aborted || isDatabaseUnavailableError(error)) throw error;
      const termId = data.termId;
      const throttles = (data.throttles ?? 0) + 1;
      if (error instanceof StoreThrottledError && throttles <= MAX_THROTTLES) {
        const pauseMs =
          error.retryAfterMs ??
          throttleBackoffMs(deps.env.KEYWORD_THROTTLE_BACKOFF_MS, throttles - 1);
        const reason = `The store is throttling search reads (HTTP ${error.status}); next read after a pause`;
        await recordKeywordThrottled(deps.db, termId, new Date(Date.now() + pauseMs), reason);
        log.warn({ status: error.status, pauseMs }, 'search throttled: pausing keyword reads');
        // The read goes back to the queue without using an attempt; the whole queue (every
        // replica) waits out the pause first.
        await job.updateData({ ...data, throttles });
        await deps.keywordWorker().rateLimit(pauseMs);
        throw new RateLimitError();
      }
      const message = error instanceof Error ? error.message : String(error);
      const final =
        job.attemptsMade + 1 >= (job.opts.attempts ?? 1) ||
        error instanceof TypeError ||
        error instanceof StoreThrottledError;
      if (final) {
        await recordKeywordFailure(deps.db, termId, {
          error: message,
          nextCheckAt: nextKeywordCheckAt(deps.env, Date.now()),
        });
      }
      log.warn({ err: error, final }, 'keyword read failed');
      if (error instanceof TypeError || error instanceof StoreThrottledError) {
        throw new UnrecoverableError(message);
      }
      throw error;
    }
  };
}

/**
 * Builds the `keyword-round` handler, run by its job scheduler every
 * `KEYWORD_ROUND_EVERY_MS` on the `scrape` queue (below audits): claims the due terms (at most
 * `KEYWORD_ROUND_MAX`) and queues one `keyword-read` each on the `keyword-search` queue, job id
 * from the term and its due time (never queued twice). While the empty-answer alarm is open
 * only one suspect term is queued each round, due or not, as a probe. Researched terms nobody tracked within a week
 * are deleted. Returns `{ queued, paused, pruned }`.
 */
export function createKeywordRoundHandler(deps: TWorkerDeps): TJobHandler<'keyword-round'> {
  return async () => {
    const paused = (await openKeywordAlarm(deps.db)) !== null;
    const due = paused
      ? await claimDueKeywordTerms(deps.db, 1, CLAIM_LEASE_S, 'probe')
      : await claimDueKeywordTerms(deps.db, deps.env.KEYWORD_ROUND_MAX, CLAIM_LEASE_S);
    await deps.producers.addMany(
      'keyword-read',
      due.map((t) => ({
        data: { termId: t.termId, term: t.term, storefront: t.storefront },
        opts: { jobId: keywordReadJobId(t.termId, String(t.dueAt.getTime())) },
      })),
    );
    const pruned = await pruneUntrackedKeywordTerms(deps.db, RESEARCH_KEEP_S);
    if (due.length > 0 || paused) {
      deps.log.info({ queued: due.length, paused }, 'keyword round queued reads');
    }
    return { queued: due.length, paused, pruned };
  };
}
