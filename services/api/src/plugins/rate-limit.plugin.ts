import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../lib/app-error';
import { currentUser } from './auth.plugin';

/** Default window of a rule (ms): the env's limits are "per minute". */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** How long a counted request waits for a (re)connecting Redis before answering 503 (ms). */
const REDIS_WAIT_MS = 2_000;

/**
 * One rate-limit rule: at most `max` counted requests per key in a fixed window of
 * `windowMs` that starts at the key's first counted request. Counters live in Redis, so
 * every gateway process shares them.
 */
export interface RateLimitRule {
  /** Bucket name, part of the Redis key: rules with the same name share counters. */
  name: string;
  /** Requests allowed per window and key (>= 1). */
  max: number;
  /** Window length in ms. Default {@link RATE_LIMIT_WINDOW_MS}. */
  windowMs?: number;
  /** The caller's key in this bucket, or null to not count this request. */
  key: (req: FastifyRequest) => string | null;
}

/** A request hook: resolves, or throws a 429 `AppError` (or 503 when Redis is unreachable). */
export type RateLimitHook = (req: FastifyRequest) => Promise<void>;

/** A built rule: `hit` counts the request, `check` only reads the counter. */
export interface RateLimiter {
  /** Counts this request; throws 429 when it is over the limit. */
  hit: RateLimitHook;
  /** Throws 429 when the limit is already reached, without counting (for failure-only rules). */
  check: RateLimitHook;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Builds a Redis-backed limiter from a rule (see {@link RateLimitRule}). Use `hit` as an
     * `onRequest` hook for per-IP keys (counted before the body is parsed) or a `preHandler`
     * for keys taken from the validated body or the signed-in user.
     */
    createLimiter: (rule: RateLimitRule) => RateLimiter;
    /**
     * A `preHandler` limiting each signed-in user to `maxPerMinute` requests a minute in
     * bucket `name` (e.g. `'analyze'` with `config.ANALYZE_RATE_LIMIT_PER_MIN`). Must come
     * after `app.requireUser` in the route's `preHandler` list.
     */
    perUserRateLimit: (name: string, maxPerMinute: number) => RateLimitHook;
    /**
     * The access limits (spec section 6), each `config.AUTH_RATE_LIMIT_PER_MIN` a minute:
     * `authByIp` (onRequest) and `authByEmail` (preHandler, reads `body.email`) for login
     * and register; `adminByIp` for the admin code check and failed admin codes.
     */
    accessLimits: { authByIp: RateLimiter; authByEmail: RateLimiter; adminByIp: RateLimiter };
  }
}

/**
 * The client's IP as rate limits see it: `req.ip`, which Fastify takes from
 * `X-Forwarded-For` only when the server was built with `trustProxy` (`TRUST_PROXY`).
 * IPv6 addresses are reduced to their /64 network, one customer's usual allocation.
 */
export function clientIp(req: FastifyRequest): string {
  return normalizeIP(req.ip);
}

/** A short stable digest of a key part (emails are personal data: never written to Redis plain). */
export function digestKey(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url').slice(0, 22);
}

/** Resolves once `redis` is ready, or rejects after `ms`. */
async function redisReady(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return;
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), ms);
  try {
    await once(redis, 'ready', { signal: ac.signal });
  } finally {
    clearTimeout(timer);
  }
}

/** 429 with the seconds to wait (>= 1), in the body as `retryAfter` and in `Retry-After`. */
export function rateLimited(retryAfterSeconds: number): AppError {
  const s = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError(
    'RATE_LIMITED',
    `Too many attempts. Please try again in ${s} second${s === 1 ? '' : 's'}.`,
    { retryAfter: s },
  );
}

/**
 * Redis-backed fixed-window rate limits shared by all gateway processes (DESIGN sections 4
 * and 5), on top of `@fastify/rate-limit`'s Redis store (an atomic INCR + PEXPIRE script).
 * The library's own route hooks are off (`global: false`): its "one limit per request"
 * guard would skip a second limit (per IP, then per email), so rules are built with
 * `createRateLimit` and composed here. Keys live under `{QUEUE_PREFIX}:ratelimit:`; the
 * library's store names child limiters after their route, and these have none, hence keys
 * like `aso:ratelimit:undefinedundefined-auth:ip:203.0.113.7`.
 *
 * When Redis cannot be reached within 2 s a counted request answers 503 rather than going
 * unlimited: access codes are the only credential, so sign-in fails closed.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifyRateLimit, {
      global: false,
      redis: app.redis,
      nameSpace: `${app.config.QUEUE_PREFIX}:ratelimit:`,
      skipOnError: false,
    });

    const createLimiter = (rule: RateLimitRule): RateLimiter => {
      if (!Number.isInteger(rule.max) || rule.max < 1) {
        throw new Error(`rate limit "${rule.name}": max must be a whole number >= 1`);
      }
      const windowMs = rule.windowMs ?? RATE_LIMIT_WINDOW_MS;
      const keyOf = (req: FastifyRequest) => {
        const k = rule.key(req);
        return k === null ? null : `${rule.name}:${k}`;
      };
      const limit = app.createRateLimit({
        max: rule.max,
        timeWindow: windowMs,
        // keyOf already returned non-null when this runs (see run below).
        keyGenerator: (req) => keyOf(req) ?? '',
      });

      const run = async (req: FastifyRequest, increment: boolean) => {
        if (keyOf(req) === null) return;
        let state;
        try {
          await redisReady(app.redis, REDIS_WAIT_MS);
          state = await limit(req, { increment });
        } catch (err) {
          req.log.warn({ err, limit: rule.name }, 'rate limit store unavailable');
          throw new AppError(
            'SERVICE_UNAVAILABLE',
            'The service is temporarily unavailable. Please try again shortly.',
            { cause: err },
          );
        }
        if (state.isAllowed) return;
        const blocked = increment ? state.isExceeded : state.remaining === 0 && state.ttl > 0;
        if (blocked) throw rateLimited(state.ttl / 1000);
      };

      return { hit: (req) => run(req, true), check: (req) => run(req, false) };
    };

    const perMinute = app.config.AUTH_RATE_LIMIT_PER_MIN;
    const accessLimits = {
      authByIp: createLimiter({ name: 'auth:ip', max: perMinute, key: clientIp }),
      authByEmail: createLimiter({
        name: 'auth:email',
        max: perMinute,
        key: (req) => {
          const email = (req.body as { email?: unknown } | undefined)?.email;
          return typeof email === 'string' && email ? digestKey(email) : null;
        },
      }),
      adminByIp: createLimiter({ name: 'admin:ip', max: perMinute, key: clientIp }),
    };

    const perUser = new Map<string, RateLimitHook>();
    const perUserRateLimit = (name: string, maxPerMinute: number): RateLimitHook => {
      const id = `${name}:${maxPerMinute}`;
      let hook = perUser.get(id);
      if (!hook) {
        hook = createLimiter({
          name: `user:${name}`,
          max: maxPerMinute,
          key: (req) => currentUser(req).userId,
        }).hit;
        perUser.set(id, hook);
      }
      return hook;
    };

    app.decorate('createLimiter', createLimiter);
    app.decorate('perUserRateLimit', perUserRateLimit);
    app.decorate('accessLimits', accessLimits);
  },
  { name: 'rate-limit' },
);
