import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ASC_DEFAULT_ORIGIN } from '@aso/asc';
import { DEFAULT_SEARCH_HINTS_ORIGIN, DEFAULT_SEARCH_HINTS_TIMEOUT_MS } from '@aso/appstore/node';
import {
  FEEDBACK_MAX_CHARS,
  KEYWORDS_MAX_PER_APP_DEFAULT,
  KEYWORDS_MAX_PER_USER_DEFAULT,
  LIST_PAGE_DEFAULT_SIZE,
  LIST_PAGE_MAX_SIZE,
  LOG_LEVELS,
  TEXT_BOUND_CHARS,
  URL_BOUND_CHARS,
  parseEnv,
  redisEnvFields,
  ZEnvFlag,
} from '@aso/contracts';

/** `apps/web/dist` of this checkout, found from this file's place (services/api/src). */
const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../../apps/web/dist', import.meta.url));

/** Names proxy-addr (Fastify's `trustProxy`) accepts for address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** True for an IP address, an address/prefix CIDR, or one of {@link PROXY_RANGE_NAMES}. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`, as Fastify's `trustProxy` option takes it (https://fastify.dev/docs/latest/Reference/Server/#trustproxy):
 * - `false` (default): `X-Forwarded-For` is ignored; the client IP is the socket's;
 * - a comma-separated list of the proxies' addresses, CIDR ranges or `loopback` /
 *   `linklocal` / `uniquelocal`: hops from those addresses are trusted, so the client IP is
 *   the first address from the right of `X-Forwarded-For` that is not a listed proxy; what a
 *   client writes to the left of it cannot spoof it (the recommended form);
 * - `true`: trust every hop, i.e. take the leftmost address, which the client itself can
 *   write: only behind a proxy that overwrites the header.
 * A hop count is refused: Fastify 5 treats a number as "trust nothing" (it cannot check
 * the immediate peer), which would silently ignore the header.
 */
const ZTrustProxy = z.string().transform((raw, ctx): boolean | string => {
  const value = raw.trim();
  if (value === '' || value === 'false' || value === '0' || value === 'no') return false;
  if (value === 'true' || value === 'yes') return true;
  if (/^\d+$/.test(value)) {
    ctx.addIssue({
      code: 'custom',
      message: 'a hop count is not supported; list the proxy addresses or CIDR ranges instead',
    });
    return z.NEVER;
  }
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isProxyAddress(e));
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `expected true, false or a list of proxy addresses / CIDR ranges; not an address: ${bad.join(', ')}`,
    });
    return z.NEVER;
  }
  return entries.join(',');
});

/**
 * The api's environment (docs/product.md#configuration). Parsed once at start; a bad value fails
 * fast with a message naming the variable. Defaults suit one machine.
 */
export const ZApiEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Address the api listens on. */
  HOST: z.string().default('0.0.0.0'),
  /** Port the api listens on (the web app is served from it too); 0 picks a free port. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/aso'),
  /** Most PostgreSQL connections of one api process. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
  ...redisEnvFields,
  /** Creates (idempotently) this admin access code at start. */
  ADMIN_ACCESS_CODE: z.string().min(8).optional(),
  /** A session expires this many days after sign-in. */
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  /** Which proxies' `X-Forwarded-For` to believe for the client IP: see {@link ZTrustProxy}. */
  TRUST_PROXY: ZTrustProxy.default(false),
  /**
   * Per minute: register requests per IP and per email; failed sign-ins per (email, address);
   * failed admin codes per address. Sign-in and admin codes are counted before they are
   * compared, and a right one gives its count back.
   */
  AUTH_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(10),
  /** Failed sign-ins per minute from one address, whatever the email. */
  SIGNIN_ADDRESS_FAILURES_PER_MIN: z.coerce.number().int().min(1).default(30),
  /**
   * Failed sign-ins per hour for one email from all addresses together; past it, one attempt
   * per `SIGNIN_EMAIL_BACKOFF_S` for that email (so a third party cannot lock the user out for
   * longer than the backoff). A right code empties the count.
   */
  SIGNIN_EMAIL_FAILURES_PER_HOUR: z.coerce.number().int().min(1).default(50),
  /** Seconds between two sign-in attempts for an email past `SIGNIN_EMAIL_FAILURES_PER_HOUR`. */
  SIGNIN_EMAIL_BACKOFF_S: z.coerce.number().int().min(1).max(3600).default(30),
  /** Audits a user may start per minute. */
  ANALYZE_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(10),
  /** Uploads a user may send per minute. */
  UPLOAD_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(10),
  /**
   * How long `POST /api/uploads` waits for the merge (ms) before answering 504. The default
   * covers a merge whose worker died: the merge's own budget (20 s), its lock expiring and the
   * stall check (15 s + 5 s), a restart, and the merge run again (20 s).
   */
  UPLOAD_WAIT_MS: z.coerce.number().int().min(1000).default(90_000),
  /** Days a merged dataset (and its uploads) is kept. */
  DATASET_TTL_DAYS: z.coerce.number().min(0).default(30),
  /**
   * Memory (MiB, estimated) of the per-process cache of datasets prepared for chart-data and
   * reports; least recently read datasets go first; 0 disables it. Default 128 (a 5-year daily
   * dataset of 34 columns takes about 5 MiB, 6 with its compressed answers and kept reports).
   */
  DATASET_CACHE_MB: z.coerce.number().min(0).default(128),
  /**
   * Lifetime (ms) of the per-process caches of sessions, finished audits and the saved-audit
   * and dashboard lists; 0 disables them. Writes through the api drop entries at once in every
   * replica (Redis pub/sub); the lifetime bounds only what workers change (expired dashboards).
   */
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  /** Folder of the built web app to serve; empty disables. Default: the repo's `apps/web/dist`. */
  WEB_DIST_DIR: z.string().default(DEFAULT_WEB_DIST_DIR),
  /**
   * The creator's site offering a human ASO audit (http or https). The web app shows its
   * consulting link and promo block only when this is set; read at run time (`GET
   * /api/web-config`).
   */
  CONSULTING_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  /** How long a PDF report request waits for its render (ms) before answering 504. */
  RENDER_WAIT_MS: z.coerce.number().int().min(1000).default(90_000),
  /**
   * PDF renders one user may have asked for at once: the one rendering and those waiting in
   * the user's line behind it (docs/product.md#pdf-reports). Past it a new one answers 429.
   */
  RENDER_QUEUE_MAX_PER_USER: z.coerce.number().int().min(1).max(100).default(20),
  /**
   * Share links a user may hold at once (live ones: expired links stop counting). Default 50:
   * a link per client report for a busy consultant, while one account cannot fill the table.
   */
  SHARE_LINKS_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(50),
  /** Tracked search terms a user may have per app and storefront. */
  KEYWORDS_MAX_PER_APP: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(KEYWORDS_MAX_PER_APP_DEFAULT),
  /**
   * Tracked search terms a user may have in all, every app and storefront together (409 past
   * it). Each is read once a day under the store's search rate (`ITUNES_SEARCH_RATE_PER_MIN`,
   * 28,800 reads a day at 20 a minute for every user), so one account keeps a small share.
   */
  KEYWORDS_MAX_PER_USER: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(KEYWORDS_MAX_PER_USER_DEFAULT),
  /**
   * Search reads per minute the scrapers make (theirs is the limit; the gateway uses it only to
   * say when a refresh's reads can be done).
   */
  ITUNES_SEARCH_RATE_PER_MIN: z.coerce.number().int().min(1).max(600).default(20),
  /**
   * Origin of the store's search hints, read best effort by keyword research for suggestions
   * (`{origin}/WebObjects/MZSearchHints.woa/wa/hints`; the replay server offline).
   */
  SEARCH_HINTS_ORIGIN: z.string().url().default(DEFAULT_SEARCH_HINTS_ORIGIN),
  /** Timeout of one search hints request (ms): past it research answers without hints. */
  SEARCH_HINTS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(30_000)
    .default(DEFAULT_SEARCH_HINTS_TIMEOUT_MS),
  /** Listings a user may watch (`mine` and `competitor` together). */
  WATCHLIST_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(20),
  /**
   * TEST ONLY: accept webhook URLs on loopback addresses (127/8, ::1), so tests can deliver to
   * a receiver on this machine. Every other private range stays refused. Never set it in
   * production: it lets users make the server call itself.
   */
  WEBHOOK_ALLOW_LOOPBACK: ZEnvFlag,
  /**
   * Base64 of the 32-byte key that seals App Store Connect private keys (AES-256-GCM). The
   * gateway only seals (when a key is added); the importer opens. Unset: adding a key answers
   * 503 saying so. `pnpm start` writes a random one into `.env` when none is set.
   */
  SECRETS_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be the base64 of 32 bytes')
    .optional(),
  /** Origin of the App Store Connect API (the key's test call lists its apps there). */
  ASC_API_ORIGIN: z.url({ protocol: /^https?$/ }).default(ASC_DEFAULT_ORIGIN),
  /** Timeout of the test call made when a key is added (ms). */
  ASC_CHECK_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(20_000),
  /** App Store Connect connections a user may have. */
  ASC_CONNECTIONS_MAX_PER_USER: z.coerce.number().int().min(1).max(1_000).default(10),
  /**
   * Offer the offline demo's App Store Connect key (accepted by the stand-in only) as a
   * one-click connection (`POST /api/asc/connections/demo`); `pnpm start --offline` sets it.
   */
  ASC_DEMO: ZEnvFlag,
  /**
   * Per-user count limits of user-created collections (this product's rule: one account must
   * not fill the database or the api's memory). Over a limit, a create answers 409 naming it.
   */
  DASHBOARDS_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(50),
  /** Saved audits a user may keep (409 past it; delete one to save another). */
  SAVED_AUDITS_MAX_PER_USER: z.coerce.number().int().min(1).max(100_000).default(200),
  /** Feedback entries a user may leave in all (409 past it). */
  FEEDBACK_MAX_PER_USER: z.coerce.number().int().min(1).max(100_000).default(500),
  /** Longest feedback text, in characters after trimming (413 past it). */
  FEEDBACK_MAX_CHARS: z.coerce
    .number()
    .int()
    .min(100)
    .max(TEXT_BOUND_CHARS)
    .default(FEEDBACK_MAX_CHARS),
  /**
   * Longest address a user stores (a webhook URL, a watched or keyword app's App Store URL), in
   * characters (413 past it). Store addresses are about 80; browsers take about 2,000.
   */
  URL_MAX_CHARS: z.coerce.number().int().min(100).max(URL_BOUND_CHARS).default(2048),
  /**
   * Bytes (MiB) a user may store: uploaded exports, merged datasets and PDFs together. An upload
   * that would pass it is refused (413 naming the quota and the usage) before it is stored.
   * Stored exports expire after `DATASET_TTL_DAYS`. Default 256: about a hundred real export pairs
   * with their datasets and PDFs.
   */
  USER_STORAGE_QUOTA_MB: z.coerce.number().min(1).max(1_048_576).default(256),
  /**
   * Largest `configJson` of a dashboard, in bytes of its JSON (413 past it). A dashboard of a
   * 34-column export takes about 2 KiB.
   */
  DASHBOARD_CONFIG_MAX_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(16_384),
  /**
   * Longest short text a user stores (dashboard app name, territory, session id, ...), in
   * characters (413 past it).
   */
  TEXT_FIELD_MAX_CHARS: z.coerce.number().int().min(16).max(10_000).default(300),
  /** Default page size of every list answer (`?limit=` absent). */
  LIST_PAGE_DEFAULT: z.coerce.number().int().min(1).max(1000).default(LIST_PAGE_DEFAULT_SIZE),
  /** Largest `?limit=` of a list answer (a larger one answers 400 naming it). */
  LIST_PAGE_MAX: z.coerce.number().int().min(1).max(1000).default(LIST_PAGE_MAX_SIZE),
  /**
   * List reads of one user (or admin code) an api process works on at once; the next wait
   * their turn (docs/product.md#lists-and-pages), so one user's parallel reads of large pages
   * do not queue other users' requests behind them.
   */
  LIST_READS_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  /**
   * Memory (MiB, estimated from the JSON's length) of the per-process cache of list answers
   * (saved audits, dashboards); least recently read go first.
   */
  LIST_CACHE_MB: z.coerce.number().min(1).default(32),
  /**
   * Per-user writes a minute, one budget for feedback, dashboards, saved audits, share links,
   * keyword adds, watchlist adds and webhook changes (429 with Retry-After; counted in Redis, so
   * every api replica shares it).
   */
  WRITE_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(30),
  /**
   * Longest time to receive one request, headers and body (ms): a body drip-fed slower than
   * that is cut with 408. Uploads (two files of up to 20 MB) must arrive within it. SSE streams
   * and long waits are not affected (their request is received at once).
   */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Longest time to receive a request's headers (ms); at most `REQUEST_TIMEOUT_MS`. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  /**
   * A connection with no byte in either direction for this long is closed (ms). Longer than
   * the longest wait for a job (`UPLOAD_WAIT_MS`, `RENDER_WAIT_MS`: 90 s) and than the SSE
   * heartbeat.
   */
  CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
  /**
   * Open connections one client address may hold; more are closed at once. Not applied with
   * `TRUST_PROXY` (every connection then comes from the proxy, which must cap them itself).
   */
  CONNECTIONS_PER_ADDRESS_MAX: z.coerce.number().int().min(1).default(64),
  /** Heartbeat comment interval on SSE streams (ms). */
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(1000).default(15_000),
});
export type TApiEnv = z.infer<typeof ZApiEnv>;

/** Parses `source` (normally `process.env`); throws an Error naming each bad variable. */
export const parseApiEnv = (source: Record<string, string | undefined>): TApiEnv =>
  parseEnv(ZApiEnv, source);

/** Reads the process environment. */
export const loadApiEnv = (): TApiEnv => parseApiEnv(process.env);
