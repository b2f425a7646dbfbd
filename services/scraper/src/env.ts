import { z } from 'zod';
import { KEYWORD_ALERT_DELTA_DEFAULT, parseEnv, ZEnvFlag } from '@aso/contracts';
import { lockEnv, ZWorkerBaseEnv } from '@aso/queue';

/**
 * Environment of the scraper worker (docs/product.md#configuration), parsed once at start. The lock
 * duration and stall interval (`LOCK_DURATION_MS`, `STALLED_INTERVAL_MS`) come from the shared
 * worker base.
 */
export const ZWorkerEnv = ZWorkerBaseEnv.extend({
  /**
   * A scrape waits on the network, never holds the event loop for long: a short lock lets a
   * killed scraper's job run again within about 11 s.
   */
  ...lockEnv({ lockDurationMs: 8_000, stalledIntervalMs: 3_000 }),
  /** Jobs processed at once by this process. */
  CONCURRENCY: z.coerce.number().int().min(1).max(200).default(8),
  /** Port of /healthz and /metrics; 0 picks a free port. */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9101),
  /** Origin of the iTunes Lookup and Search APIs (the replay server offline). */
  ITUNES_ORIGIN: z.string().url().default('https://itunes.apple.com'),
  /** Origin of the App Store's product pages (the replay server offline). */
  APP_STORE_ORIGIN: z.string().url().default('https://apps.apple.com'),
  /** A snapshot younger than this is reused (seconds; default 24 h; 0 turns the cache off). */
  APP_CACHE_TTL: z.coerce.number().int().min(0).default(86_400),
  /** Timeout of one store request, body included (ms). */
  STORE_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Largest store response accepted (bytes; default 8 MiB, a product page is about 1 MB). */
  STORE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(8 * 1024 * 1024),
  /**
   * Tries per store request within one job attempt, the first included (429/5xx, timeouts and
   * cut-off bodies are retried with exponential backoff and jitter).
   */
  STORE_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  /** First backoff delay between those tries (ms); doubles per try. */
  STORE_RETRY_BASE_DELAY_MS: z.coerce.number().int().min(1).default(500),
  /**
   * Longest Retry-After a request waits for by itself (ms). A 429 asking for more, or one
   * that outlasts the tries, pauses the whole `scrape` queue instead (BullMQ rate limiter).
   */
  STORE_MAX_RETRY_AFTER_MS: z.coerce.number().int().min(0).default(30_000),
  /**
   * How long a scrape job may keep being put back because the store rate-limits us, counted
   * from when it was queued (ms); past it the job fails with a "try again later" message.
   */
  STORE_RATE_LIMIT_MAX_WAIT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(10 * 60_000),
  /**
   * Steady cap of the `scrape` queue shared by every scraper process: at most
   * `SCRAPE_RATE_LIMIT_MAX` jobs per `SCRAPE_RATE_LIMIT_DURATION_MS`. BullMQ only honours a
   * manual rate limit (the pause after a 429) when a limiter is configured.
   */
  SCRAPE_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(50),
  /** The window of `SCRAPE_RATE_LIMIT_MAX` (ms). */
  SCRAPE_RATE_LIMIT_DURATION_MS: z.coerce.number().int().min(10).default(1_000),
  /**
   * How often each watched listing is read from the store (seconds; default 24 h), once
   * however many users watch it.
   */
  WATCH_INTERVAL: z.coerce.number().int().min(60).default(86_400),
  /**
   * Spread of the next read around `WATCH_INTERVAL` (ratio 0-1; default 0.1: each next read
   * is due 95 % to 105 % of the interval after the last), so listings watched at one moment
   * drift apart instead of being read in one burst every day.
   */
  WATCH_JITTER: z.coerce.number().min(0).max(1).default(0.1),
  /** How often the scheduler round looks for watched listings that are due (ms; default 5 min). */
  WATCH_ROUND_EVERY_MS: z.coerce.number().int().min(1_000).default(300_000),
  /** Most reads one round queues (the rest are due at the next round). */
  WATCH_ROUND_MAX: z.coerce.number().int().min(1).default(10_000),
  /**
   * How often each tracked (term, storefront) is read from the store's search (seconds;
   * default 24 h), once however many users and apps track it.
   */
  KEYWORD_INTERVAL: z.coerce.number().int().min(60).default(86_400),
  /** Spread of the next keyword read around `KEYWORD_INTERVAL` (ratio 0-1; default 0.1). */
  KEYWORD_JITTER: z.coerce.number().min(0).max(1).default(0.1),
  /** How often the keyword round looks for terms that are due (ms; default 5 min). */
  KEYWORD_ROUND_EVERY_MS: z.coerce.number().int().min(1_000).default(300_000),
  /** Most keyword reads one round queues (the rest are due at the next round). */
  KEYWORD_ROUND_MAX: z.coerce.number().int().min(1).default(5_000),
  /**
   * Search reads per minute across every scraper replica (default 20: Apple documents the
   * Search API as "limited to approximately 20 calls per minute",
   * https://performance-partners.apple.com/search-api).
   */
  ITUNES_SEARCH_RATE_PER_MIN: z.coerce.number().int().min(1).max(600).default(20),
  /**
   * The window the search rate is counted over (ms; default 60 000, a minute). Benchmarks and
   * tests shorten it so a round of many reads finishes; production keeps the minute.
   */
  ITUNES_SEARCH_WINDOW_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * Terms that had results and then answered none, within `KEYWORD_EMPTY_ALARM_WINDOW_S`,
   * that raise the empty-answer alarm and pause the keyword round (default 3).
   */
  KEYWORD_EMPTY_ALARM_AFTER: z.coerce.number().int().min(1).default(3),
  /** The window of `KEYWORD_EMPTY_ALARM_AFTER` (seconds). */
  KEYWORD_EMPTY_ALARM_WINDOW_S: z.coerce.number().int().min(60).default(3_600),
  /**
   * First pause of the `keyword-search` queue after a throttled search read without
   * Retry-After (ms; default 30 s); it doubles with each throttled answer of the read, with
   * jitter, up to 15 minutes.
   */
  KEYWORD_THROTTLE_BACKOFF_MS: z.coerce.number().int().min(10).default(30_000),
  /**
   * Rank moves of this many places or more between two reads of a term notify the users
   * tracking it (default 5; entering or leaving the top 10 always does;
   * docs/product.md#keyword-ranks).
   */
  KEYWORD_ALERT_DELTA: z.coerce.number().int().min(1).max(200).default(KEYWORD_ALERT_DELTA_DEFAULT),
  /** Timeout of one webhook POST, connection to the end of the answer (ms). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Webhook POSTs at once per scraper process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  /**
   * TEST ONLY: deliver webhooks to loopback addresses (127/8, ::1), so tests can use a
   * receiver on this machine. Every other private range stays refused.
   */
  WEBHOOK_ALLOW_LOOPBACK: ZEnvFlag,
});
export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;

/** Parses `source`; throws an Error naming each bad variable. */
export const parseWorkerEnv = (source: Record<string, string | undefined>): TWorkerEnv =>
  parseEnv(ZWorkerEnv, source);

/** Reads the process environment. */
export const loadWorkerEnv = (): TWorkerEnv => parseWorkerEnv(process.env);
