import { Redis, type RedisOptions } from 'ioredis';

/**
 * What a connection is for. BullMQ workers (and QueueEvents) need `maxRetriesPerRequest: null`
 * so blocking commands survive reconnects; producers fail fast when Redis is down so an HTTP
 * call answers 503 instead of hanging (BullMQ docs: "Going to production").
 */
export type RedisRole = 'worker' | 'producer' | 'subscriber';

/** Options of {@link createRedis}. */
export interface CreateRedisOptions {
  role: RedisRole;
  /** Connection name shown by `CLIENT LIST`, e.g. `api:producer`. */
  name?: string;
  /** Connect timeout in ms. Default 5 000. */
  connectTimeoutMs?: number;
}

/** Opens an ioredis connection to `url` (`redis://host:port[/db]`) tuned for `role`. */
export function createRedis(url: string, opts: CreateRedisOptions): Redis {
  const common: RedisOptions = {
    connectionName: opts.name,
    connectTimeout: opts.connectTimeoutMs ?? 5_000,
    // Keep retrying in the background with a capped backoff (ms).
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
  const byRole: Record<RedisRole, RedisOptions> = {
    worker: { maxRetriesPerRequest: null, enableReadyCheck: false },
    // No ready check: a SUBSCRIBE sent while the INFO ready check is in flight puts the
    // connection in subscriber mode, the check then fails ("only subscriber commands may be
    // used"), ioredis reconnects and the subscription is lost.
    subscriber: { maxRetriesPerRequest: null, enableReadyCheck: false },
    // Commands wait for the first connection, but while Redis is down they fail after one
    // reconnect attempt instead of queueing forever.
    producer: { maxRetriesPerRequest: 1 },
  };
  return new Redis(url, { ...common, ...byRole[opts.role] });
}

/** Minimal logger shape shared by pino and console. */
export interface WarnLogger {
  warn(obj: object | string, msg?: string): void;
}

/**
 * Reads Redis' `maxmemory-policy` and warns unless it is `noeviction`: with any eviction
 * policy Redis may drop BullMQ keys under memory pressure (BullMQ docs). Returns the policy,
 * or null when it cannot be read (e.g. CONFIG disabled by a managed Redis).
 */
export async function checkEvictionPolicy(redis: Redis, log: WarnLogger): Promise<string | null> {
  try {
    const reply: unknown = await redis.config('GET', 'maxmemory-policy');
    const policy = Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : null;
    if (policy !== 'noeviction') {
      log.warn(
        { policy },
        `Redis maxmemory-policy is "${policy}"; set it to "noeviction" so queued jobs are never evicted`,
      );
    }
    return policy;
  } catch (err) {
    log.warn({ err }, 'could not read Redis maxmemory-policy (CONFIG GET refused)');
    return null;
  }
}
