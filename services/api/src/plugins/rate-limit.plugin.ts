import { recordLockout } from '@aso/db';
import type { TRedisClient } from '@aso/queue';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error';
import { UserSlots } from '../lib/user-slots';
import { AttemptLimiter, type TAttemptCounter } from '../services/attempt.limiter';
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
export interface TRateLimitRule {
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
export type TRateLimitHook = (req: FastifyRequest) => Promise<void>;

/** A built rule: `hit` counts the request, `check` only reads the counter. */
export interface TRateLimiter {
  /** Counts this request; throws 429 when it is over the limit. */
  hit: TRateLimitHook;
  /** Throws 429 when the limit is already reached, without counting (for failure-only rules). */
  check: TRateLimitHook;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Builds a Redis-backed limiter from a rule (see {@link RateLimitRule}). Use `hit` as an
     * `onRequest` hook for per-IP keys (counted before the body is parsed) or a `preHandler`
     * for keys taken from the validated body or the signed-in user.
     */
    createLimiter: (rule: TRateLimitRule) => TRateLimiter;
    /**
     * A `preHandler` limiting each signed-in user to `maxPerMinute` requests a minute in
     * bucket `name` (e.g. `'analyze'` with `config.ANALYZE_RATE_LIMIT_PER_MIN`). Must come
     * after `app.requireUser` in the route's `preHandler` list.
     */
    perUserRateLimit: (name: string, maxPerMinute: number) => TRateLimitHook;
    /**
     * A `preHandler` of list reads, after `app.requireUser` or `app.requireAdmin`: at most
     * `LIST_READS_PER_USER` list reads of one user (or admin code) are worked on at once in
     * this process; the next wait their turn, and past {@link LIST_READS_WAITING_MAX} waiting
     * a read answers 429 with `Retry-After: 1`. One user reading large pages in parallel then
     * cannot queue everyone else's requests behind theirs.
     */
    listReadSlot: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * The access limits (docs/product.md#roles-and-permissions): `authByIp` (onRequest) and
     * `authByEmail` (preHandler, reads `body.email`) for register, each `AUTH_RATE_LIMIT_PER_MIN` a
     * minute; `guardSecret` around every comparison of a sign-in or admin code.
     */
    accessLimits: {
      authByIp: TRateLimiter;
      authByEmail: TRateLimiter;
      /**
       * Counts the attempt (see {@link AttemptLimiter}) in the counters of `kind`, then runs
       * `compare`; a compare that resolves is a right guess and gives its count back, one
       * that throws is a failure and stays counted. Refused attempts answer 429 with
       * `Retry-After` without comparing (`isRight`, default always, tells a resolved failure
       * such as a null lookup). The first refusal of a counter's window or of a backoff
       * slot's period, and the start of an email's backoff, are logged as lock-outs
       * (`event: 'lockout'`, the counter, the address and a digest of the email; never the
       * email itself); the start of an email's backoff is also counted on the user's row
       * for the admin (`users.lockouts`).
       * `sign-in`: per (email, address) `AUTH_RATE_LIMIT_PER_MIN`, per address
       * `SIGNIN_ADDRESS_FAILURES_PER_MIN` a minute, per email `SIGNIN_EMAIL_FAILURES_PER_HOUR`
       * then one attempt per `SIGNIN_EMAIL_BACKOFF_S` per (email, address): each address has
       * a backoff slot of its own, so attempts from other addresses never take it and the
       * right code from a new address waits at most one backoff. `admin`: per address
       * `AUTH_RATE_LIMIT_PER_MIN` a minute.
       */
      guardSecret: <T>(
        req: FastifyRequest,
        kind: { type: 'sign-in'; email: string } | { type: 'admin' },
        compare: () => Promise<T>,
        isRight?: (answer: T) => boolean,
      ) => Promise<T>;
    };
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

/** An email as accounts store it (the contracts' `ZEmail`: trimmed, lower case). */
const normalEmail = (email: string) => email.trim().toLowerCase();

/** List reads of one user that may wait for a slot before a read is refused with 429. */
export const LIST_READS_WAITING_MAX = 50;

/** A short stable digest of a key part (emails are personal data: never written to Redis plain). */
export function digestKey(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url').slice(0, 22);
}

/** Resolves once `redis` is ready, or rejects after `ms`. */
async function redisReady(redis: TRedisClient, ms: number): Promise<void> {
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
 * Redis-backed fixed-window rate limits shared by all gateway processes (docs/product.md#storage
 * and #access-and-sessions), on top of `@fastify/rate-limit`'s Redis store (an atomic INCR +
 * PEXPIRE script). The library's own route hooks are off (`global: false`): its "one limit per
 * request" guard would skip a second limit (per IP, then per email), so rules are built with
 * `createRateLimit` and composed here. Keys live under `{QUEUE_PREFIX}:ratelimit:`; the library's
 * store names child limiters after their route, and these have none, hence keys like
 * `aso:ratelimit:undefinedundefined-auth:ip:203.0.113.7`.
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

    const createLimiter = (rule: TRateLimitRule): TRateLimiter => {
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
    };
    const attempts = new AttemptLimiter(app.redis);
    const prefix = `${app.config.QUEUE_PREFIX}:ratelimit:attempts:`;
    const HOUR_MS = 60 * RATE_LIMIT_WINDOW_MS;
    const countersOf = (
      req: FastifyRequest,
      kind: { type: 'sign-in'; email: string } | { type: 'admin' },
    ): TAttemptCounter[] => {
      const ip = digestKey(clientIp(req));
      if (kind.type === 'admin') {
        return [
          {
            name: 'admin:address',
            key: `${prefix}admin:ip:${ip}`,
            max: perMinute,
            windowMs: RATE_LIMIT_WINDOW_MS,
            onSuccess: 'return',
          },
        ];
      }
      const email = digestKey(normalEmail(kind.email));
      return [
        {
          name: 'sign-in:email+address',
          key: `${prefix}signin:pair:${email}:${ip}`,
          max: perMinute,
          windowMs: RATE_LIMIT_WINDOW_MS,
          onSuccess: 'return',
        },
        {
          name: 'sign-in:address',
          key: `${prefix}signin:ip:${ip}`,
          max: app.config.SIGNIN_ADDRESS_FAILURES_PER_MIN,
          windowMs: RATE_LIMIT_WINDOW_MS,
          onSuccess: 'return',
        },
        {
          name: 'sign-in:email',
          key: `${prefix}signin:email:${email}`,
          max: app.config.SIGNIN_EMAIL_FAILURES_PER_HOUR,
          windowMs: HOUR_MS,
          gateMs: app.config.SIGNIN_EMAIL_BACKOFF_S * 1000,
          gateKey: `${prefix}signin:email:${email}:gate:${ip}`,
          onSuccess: 'reset',
        },
      ];
    };
    const storeDown = (req: FastifyRequest, err: unknown) => {
      req.log.warn({ err, limit: 'attempts' }, 'rate limit store unavailable');
      return new AppError(
        'SERVICE_UNAVAILABLE',
        'The service is temporarily unavailable. Please try again shortly.',
        { cause: err },
      );
    };
    const guardSecret: FastifyInstance['accessLimits']['guardSecret'] = async (
      req,
      kind,
      compare,
      isRight = () => true,
    ) => {
      const counters = countersOf(req, kind);
      let decision;
      try {
        await redisReady(app.redis, REDIS_WAIT_MS);
        decision = await attempts.attempt(counters);
      } catch (err) {
        throw storeDown(req, err);
      }
      const lockout = (limit: string, message: string) =>
        req.log.warn(
          {
            event: 'lockout',
            limit,
            address: clientIp(req),
            ...(kind.type === 'sign-in' ? { emailKey: digestKey(normalEmail(kind.email)) } : {}),
          },
          message,
        );
      if (!decision.allowed) {
        if (decision.lockoutBegins) lockout(decision.counter, `${kind.type} attempts locked out`);
        throw rateLimited(decision.retryAfterMs / 1000);
      }
      if (decision.backoffBegins && kind.type === 'sign-in') {
        lockout(decision.backoffBegins, 'sign-in attempts slowed to one per backoff');
        await recordLockout(app.db, normalEmail(kind.email)).catch((err: unknown) =>
          req.log.warn({ err }, 'could not count a sign-in lock-out'),
        );
      }
      const answer = await compare();
      if (!isRight(answer)) return answer;
      try {
        await attempts.succeeded(counters);
      } catch (err) {
        // The attempt stays counted: harmless for a right code.
        req.log.warn({ err, limit: 'attempts' }, 'could not give back a right attempt');
      }
      return answer;
    };
    const accessLimitsWithGuard = { ...accessLimits, guardSecret };

    const perUser = new Map<string, TRateLimitHook>();
    const perUserRateLimit = (name: string, maxPerMinute: number): TRateLimitHook => {
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

    const listSlots = new UserSlots(app.config.LIST_READS_PER_USER, LIST_READS_WAITING_MAX);
    const listReadSlot = async (req: FastifyRequest, reply: FastifyReply) => {
      const key = req.identity
        ? `user:${req.identity.userId}`
        : req.adminCode
          ? `admin:${req.adminCode.id}`
          : null;
      if (!key) return;
      let release = listSlots.tryTake(key);
      if (!release) {
        // Only a request that must wait watches for its client going away: an abort signal
        // per request (and the DOMException its abort builds) was a twentieth of a list read.
        const gone = new AbortController();
        const abort = () => gone.abort();
        reply.raw.once('close', abort);
        release = await listSlots.take(key, gone.signal);
        reply.raw.off('close', abort);
      }
      if (!release) {
        throw new AppError(
          'RATE_LIMITED',
          'Too many list reads at once. Please try again in 1 second.',
          { retryAfter: 1 },
        );
      }
      // A response emits 'close' after 'finish', and also when its client goes away first.
      reply.raw.once('close', release);
    };

    app.decorate('createLimiter', createLimiter);
    app.decorate('listReadSlot', listReadSlot);
    app.decorate('perUserRateLimit', perUserRateLimit);
    app.decorate('accessLimits', accessLimitsWithGuard);
  },
  { name: 'rate-limit' },
);
