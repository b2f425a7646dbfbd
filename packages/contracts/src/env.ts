import { z } from 'zod';

/** Fields shared by the api's and workers' environments (docs/product.md#configuration). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Parses an environment (normally `process.env`) with `schema`. Throws an Error whose message
 * lists each bad variable as `NAME: problem`, so a service fails fast naming what to fix.
 * The result goes through {@link withClusterKeyPrefix} (the key prefix of a Redis Cluster).
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  source: Record<string, string | undefined>,
): z.infer<S> {
  const res = schema.safeParse(source);
  if (!res.success) {
    const lines = res.error.issues.map(
      (i) => `${i.path.join('.') || '(environment)'}: ${i.message}`,
    );
    throw new Error(`invalid environment:\n  ${lines.join('\n  ')}`);
  }
  return withClusterKeyPrefix(res.data);
}

/**
 * `REDIS_CLUSTER_NODES`: the seed nodes of a Redis Cluster as `host:port,host:port,...`
 * (IPv6 hosts in brackets, `[::1]:7000`), parsed to `{ host, port }` pairs. Set instead of
 * `REDIS_URL`, it makes every process connect through ioredis' Cluster client; one reachable
 * node is enough, the client learns the rest of the topology from it.
 */
export const ZRedisClusterNodes = z
  .string()
  .trim()
  .transform((raw, ctx): Array<{ host: string; port: number }> | undefined => {
    if (raw === '') return undefined;
    const nodes: Array<{ host: string; port: number }> = [];
    for (const entry of raw.split(',').map((e) => e.trim())) {
      const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(entry);
      const port = m ? Number(m[3]) : 0;
      if (!m || port < 1 || port > 65535) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not host:port (expected host:port,host:port,...)`,
        });
        return z.NEVER;
      }
      nodes.push({ host: (m[1] ?? m[2])!, port });
    }
    return nodes;
  })
  .optional();
/**
 * The Redis fields of every service's environment, one definition for the api and the
 * workers: `REDIS_URL` (one Redis), `REDIS_CLUSTER_NODES` (a Redis Cluster; wins over
 * `REDIS_URL` when set) and `QUEUE_PREFIX` (the prefix of every key; hash-tagged on a
 * cluster, see {@link withClusterKeyPrefix}).
 */
export const redisEnvFields = {
  /** The one Redis of a single-Redis deployment (ignored when `REDIS_CLUSTER_NODES` is set). */
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Seed nodes of a Redis Cluster, `host:port,host:port,...`; set instead of `REDIS_URL`. */
  REDIS_CLUSTER_NODES: ZRedisClusterNodes,
  /** Prefix of every BullMQ and progress key in Redis. */
  QUEUE_PREFIX: z.string().min(1).default('aso'),
};

export type TRedisClusterNodes = NonNullable<z.infer<typeof ZRedisClusterNodes>>;

/**
 * True when `key` carries a Redis Cluster hash tag: a `{` followed later by a `}` with at least
 * one character between them; only that part is hashed, so every key with the same tag is in
 * one slot (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#hash-tags).
 */
export function hasHashTag(key: string): boolean {
  const open = key.indexOf('{');
  if (open < 0) return false;
  const close = key.indexOf('}', open + 1);
  return close > open + 1;
}

/**
 * The key prefix rule of a cluster, applied by {@link parseEnv} to every environment: when
 * `REDIS_CLUSTER_NODES` is set, `QUEUE_PREFIX` becomes a hash tag (`aso` -> `{aso}`) unless it
 * already carries one. Every key the system writes starts with that prefix (BullMQ's queues,
 * flows and schedulers, progress streams, locks, counters), so all of them hash to one slot and
 * every multi-key command and Lua script stays in it; BullMQ requires the prefix of queues on a
 * cluster to be a hash tag (https://docs.bullmq.io/bull/patterns/redis-cluster), and a flow's
 * parent and children must share a slot. Other values pass unchanged.
 */
export function withClusterKeyPrefix<T>(env: T): T {
  if (typeof env !== 'object' || env === null) return env;
  const e = env as { REDIS_CLUSTER_NODES?: unknown; QUEUE_PREFIX?: unknown };
  if (!e.REDIS_CLUSTER_NODES || typeof e.QUEUE_PREFIX !== 'string') return env;
  if (hasHashTag(e.QUEUE_PREFIX)) return env;
  return { ...env, QUEUE_PREFIX: `{${e.QUEUE_PREFIX}}` };
}

/** A yes/no environment variable: `true`/`1` or `false`/`0` (default false). */
export const ZEnvFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'expected true, false, 1 or 0' })
  .default('false')
  .transform((v) => v === 'true' || v === '1');
