import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { app } from '../src/app';
import { parseApiEnv } from '../src/env';
import { LOG_REDACT, LOG_SERIALIZERS, OneLineRequestLog } from '../src/server';

// Shared by the ops-*.int.test.ts files: real pino loggers whose lines the test can read, and
// the real gateway built on one (what buildServer does, with a readable log).

/** A pino logger (with the gateway's redaction) and the JSON lines it wrote. */
export function capturedLogger(level = 'info'): {
  log: Logger;
  lines: Record<string, unknown>[];
  text: () => string;
} {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      raw.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      cb();
    },
  });
  const log = pino(
    { level, redact: { paths: LOG_REDACT, censor: '[redacted]' }, serializers: LOG_SERIALIZERS },
    stream,
  );
  return {
    log,
    get lines() {
      return raw.map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    text: () => raw.join('\n'),
  };
}

/**
 * The gateway on the test file's database and Redis prefix, logging to `log` one line per
 * request as buildServer does. Ready, not
 * listening. `inside` runs in the gateway's own scope after its routes (it sees `app.metrics`
 * and the other decorators), e.g. to add a test route.
 */
export async function buildLoggedApi(
  database: { url: string },
  redis: { url: string; prefix: string },
  log: Logger,
  env: Record<string, string> = {},
  inside?: (scope: FastifyInstance) => void,
): Promise<FastifyInstance> {
  const config = parseApiEnv({
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: redis.prefix,
    WEB_DIST_DIR: '',
    AUTH_RATE_LIMIT_PER_MIN: '10000',
    ...env,
  });
  // Closing drops every connection: fetch keeps spare sockets open that never send a request,
  // and the server would wait for them. Request lines as buildServer writes them.
  const server = Fastify({
    loggerInstance: log,
    logController: new OneLineRequestLog(),
    forceCloseConnections: true,
  });
  await server.register(async (scope) => {
    await app(scope, { config });
    inside?.(scope);
  });
  await server.ready();
  return server as unknown as FastifyInstance;
}
