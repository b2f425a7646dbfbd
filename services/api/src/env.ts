import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LOG_LEVELS, parseEnv, ZEnvFlag } from '@aso/contracts';

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
 * The api's environment (DESIGN section 7). Parsed once at start; a bad value fails fast with
 * a message naming the variable. Defaults suit one machine.
 */
export const ZApiEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/aso'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Prefix of every BullMQ and progress key in Redis. */
  QUEUE_PREFIX: z.string().min(1).default('aso'),
  /** Creates (idempotently) this admin access code at start. */
  ADMIN_ACCESS_CODE: z.string().min(8).optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  /** Which proxies' `X-Forwarded-For` to believe for the client IP: see {@link ZTrustProxy}. */
  TRUST_PROXY: ZTrustProxy.default(false),
  /** Requests per minute per IP and per email on login, register and the admin check. */
  AUTH_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(10),
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
  /** Listings a user may watch (`mine` and `competitor` together). */
  WATCHLIST_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(20),
  /**
   * TEST ONLY: accept webhook URLs on loopback addresses (127/8, ::1), so tests can deliver to
   * a receiver on this machine. Every other private range stays refused. Never set it in
   * production: it lets users make the server call itself.
   */
  WEBHOOK_ALLOW_LOOPBACK: ZEnvFlag,
  /** Heartbeat comment interval on SSE streams (ms). */
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(1000).default(15_000),
});
export type TApiEnv = z.infer<typeof ZApiEnv>;

/** Parses `source` (normally `process.env`); throws an Error naming each bad variable. */
export const parseApiEnv = (source: Record<string, string | undefined>): TApiEnv =>
  parseEnv(ZApiEnv, source);

/** Reads the process environment. */
export const loadApiEnv = (): TApiEnv => parseApiEnv(process.env);
