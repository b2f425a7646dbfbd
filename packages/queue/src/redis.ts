import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { TRedisClusterNodes } from '@aso/contracts';

/**
 * Where Redis is: a `redis://host:port[/db]` URL (one Redis), or the seed nodes of a Redis
 * Cluster (`REDIS_CLUSTER_NODES`, parsed by `redisEnvFields` of `@aso/contracts`).
 */
export type TRedisTarget = string | { cluster: TRedisClusterNodes };

/** A connection made by {@link createRedis}: one Redis, or ioredis' Cluster client. */
export type TRedisClient = Redis | Cluster;

/**
 * The {@link TRedisTarget} of a parsed environment: the cluster when `REDIS_CLUSTER_NODES` is
 * set, else `REDIS_URL`.
 */
export function redisTarget(env: {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: TRedisClusterNodes | undefined;
}): TRedisTarget {
  return env.REDIS_CLUSTER_NODES ? { cluster: env.REDIS_CLUSTER_NODES } : env.REDIS_URL;
}

/** A readable name of a target for logs and messages (`redis://…` or `cluster host:port,…`). */
export function describeRedisTarget(target: TRedisTarget): string {
  return typeof target === 'string'
    ? target
    : `cluster ${target.cluster.map((n) => `${n.host}:${n.port}`).join(',')}`;
}

/**
 * What a connection is for. BullMQ workers (and QueueEvents) need `maxRetriesPerRequest: null`
 * so blocking commands survive reconnects; producers fail fast when Redis is down so an HTTP
 * call answers 503 instead of hanging (BullMQ docs: "Going to production").
 */
export type TRedisRole = 'worker' | 'producer' | 'subscriber';

/** Options of {@link createRedis}. */
export interface TCreateRedisOptions {
  role: TRedisRole;
  /** Connection name shown by `CLIENT LIST`, e.g. `api:producer`. */
  name?: string;
  /** Connect timeout in ms. Default 5 000. */
  connectTimeoutMs?: number;
}

/**
 * Opens an ioredis connection tuned for `role`: to `target` when it is a URL
 * (`redis://host:port[/db]`), or an ioredis Cluster client on its seed nodes. Every node
 * connection of a cluster gets the role's options; the client follows MOVED/ASK redirections
 * and, when a master fails, refreshes the slot map and sends the commands it holds to the
 * promoted replica.
 */
export function createRedis(target: string, opts: TCreateRedisOptions): Redis;
export function createRedis(target: TRedisTarget, opts: TCreateRedisOptions): TRedisClient;
export function createRedis(target: TRedisTarget, opts: TCreateRedisOptions): TRedisClient {
  const common: RedisOptions = {
    connectionName: opts.name,
    connectTimeout: opts.connectTimeoutMs ?? 5_000,
    // Keep retrying in the background with a capped backoff (ms).
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
  const byRole: Record<TRedisRole, RedisOptions> = {
    worker: { maxRetriesPerRequest: null, enableReadyCheck: false },
    // No ready check: a SUBSCRIBE sent while the INFO ready check is in flight puts the
    // connection in subscriber mode, the check then fails ("only subscriber commands may be
    // used"), ioredis reconnects and the subscription is lost.
    subscriber: { maxRetriesPerRequest: null, enableReadyCheck: false },
    // Commands wait for the first connection, but while Redis is down they fail after one
    // reconnect attempt instead of queueing forever.
    producer: { maxRetriesPerRequest: 1 },
  };
  if (typeof target === 'string') return new Redis(target, { ...common, ...byRole[opts.role] });
  const cluster: ClusterOptions = {
    redisOptions: { ...common, ...byRole[opts.role] },
    // The same capped backoff while no node of the cluster answers.
    clusterRetryStrategy: (times) => Math.min(times * 200, 2_000),
    // While a failover is in progress (CLUSTERDOWN, TRYAGAIN, a node gone), commands are
    // retried after this delay (ms) once the slot map is refreshed.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    // BullMQ's Lua scripts write: every command goes to the master of its slot.
    scaleReads: 'master',
    maxRedirections: 16,
    // No cluster ready check but for producers. A subscriber: the single subscriber's reason.
    // A worker: its blocking BZPOPMIN / XREAD holds the node connection, the CLUSTER INFO check
    // of a reconnect after a failover waits behind it and times out, and the client ends in
    // a reconnect loop without ever taking jobs again (ioredis issue #709).
    enableReadyCheck: opts.role === 'producer',
    slotsRefreshTimeout: opts.connectTimeoutMs ?? 5_000,
  };
  return new Cluster([...target.cluster], cluster);
}

/** Minimal logger shape shared by pino and console. */
export interface TWarnLogger {
  warn(obj: object | string, msg?: string): void;
}

/**
 * Reads Redis' `maxmemory-policy` (on a cluster, every master's) and warns unless it is `noeviction`: with any eviction
 * policy Redis may drop BullMQ keys under memory pressure (BullMQ docs). Returns the policy,
 * or null when it cannot be read (e.g. CONFIG disabled by a managed Redis).
 */
export async function checkEvictionPolicy(
  redis: TRedisClient,
  log: TWarnLogger,
): Promise<string | null> {
  try {
    // On a cluster every master holds keys of its own: each one is asked.
    const nodes: Redis[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
    let first: string | null = null;
    for (const node of nodes) {
      const reply: unknown = await node.config('GET', 'maxmemory-policy');
      const policy = Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : null;
      first ??= policy;
      if (policy !== 'noeviction') {
        log.warn(
          { policy, node: `${node.options.host}:${node.options.port}` },
          `Redis maxmemory-policy is "${policy}"; set it to "noeviction" so queued jobs are never evicted`,
        );
        return policy;
      }
    }
    return first;
  } catch (err) {
    log.warn({ err }, 'could not read Redis maxmemory-policy (CONFIG GET refused)');
    return null;
  }
}
