/**
 * Api replicas for tests: real Fastify apps listening on their own ports over one database and
 * one Redis prefix, as `docker compose --scale api=2` runs them.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { vi } from 'vitest';
import { app } from '../src/app';
import { parseApiEnv } from '../src/env';
import { ADMIN_CODE } from './access.fixtures';

const HOUR_MS = '3600000';
/** Pub/sub delivery between two processes on one machine: well under this (ms). */
export const DELIVERY_MS = 2_000;

/** One replica: its origin and its own scope (where the gateway's decorators live). */
export interface TReplica {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * Starts one api replica on the test file's database and Redis prefix (port 0), with its read
 * caches kept an hour (so only an invalidation explains a changed answer) and `env` on top.
 */
async function startReplica(
  database: { url: string },
  redis: { url: string; prefix: string },
  env: Record<string, string> = {},
): Promise<TReplica> {
  const config = parseApiEnv({
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: redis.prefix,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '',
    ADMIN_ACCESS_CODE: ADMIN_CODE,
    READ_CACHE_TTL_MS: HOUR_MS,
    ...env,
  });
  let scope: FastifyInstance | undefined;
  // Closing drops every connection: fetch keeps spare sockets open.
  const server = Fastify({ forceCloseConnections: true });
  await server.register(async (s) => {
    await app(s, { config });
    scope = s;
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = server.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, app: scope!, close: () => server.close() };
}

/** Two replicas ({@link startReplica}) once both listen to cache invalidations. */
export async function twoReplicas(
  database: { url: string },
  redis: { url: string; prefix: string },
  env: Record<string, string> = {},
): Promise<[TReplica, TReplica]> {
  const a = await startReplica(database, redis, env);
  const b = await startReplica(database, redis, env);
  await vi.waitUntil(() => a.app.cacheBus.live && b.app.cacheBus.live, { timeout: 10_000 });
  return [a, b];
}
