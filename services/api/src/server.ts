import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { TErrorBody } from '@aso/contracts';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { app } from './app';
import type { TApiEnv } from './env';
import { boundLogContext } from './plugins/log-context.plugin';

/** Paths and fields never written to logs. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers["x-access-code"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-access-code"]',
  '*.sessionToken',
  '*.accessCode',
  '*.token',
  '*.privateKey',
  '*.private_key_sealed',
  'req.body',
];

/** A URL that may carry an access code ({@link redactUrl}'s two places). */
const MAY_HOLD_CODE = /\/api\/admin\/codes\/|[?&]code=/i;

/**
 * The request URL as logged: access codes in a path (`/api/admin/codes/{code}`) or a `code`
 * query parameter are replaced by `[redacted]`, so no credential reaches a log line.
 */
export function redactUrl(url: string): string {
  // Most URLs hold neither: two regular expression replaces per logged request were a fiftieth
  // of a cached read's CPU.
  if (!MAY_HOLD_CODE.test(url)) return url;
  return url
    .replace(/(\/api\/admin\/codes\/)[^/?#]+/i, '$1[redacted]')
    .replace(/([?&]code=)[^&#]*/gi, '$1[redacted]');
}

/** pino serializers of the gateway: request lines carry a credential-free URL. */
export const LOG_SERIALIZERS = {
  req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
  }),
};

/**
 * One log line per request instead of Fastify's two ('incoming request', then 'request
 * completed'): the completed line carries the request it answered (method, credential-free
 * URL, client address), its status and time, and the request's bindings (id, audit or upload,
 * see the log-context plugin). Serialising and redacting the second line was a tenth of the
 * CPU of a cached read. Error lines are Fastify's, through the request's logger.
 *
 * A success line is written by a child of the root logger made once, without redaction: its
 * fields are only these (`reqId`, checked by `genReqId`; the bound context, id-shaped values;
 * `req` and `res` as {@link LOG_SERIALIZERS} and Fastify's reply serializer build them: method,
 * credential-free URL, host, client address, status), so no header, body or `*.token` can
 * be in it, and walking it for the redaction paths was a third of the line's cost (the
 * wildcard paths alone 14 of its 19 µs). Every other line keeps every path.
 */
export class OneLineRequestLog extends LogController {
  /** The success-line logger of each root logger (one per server). */
  readonly #lineLoggers = new WeakMap<object, Logger>();

  override incomingRequest(): void {
    // Logged with the answer, in requestCompleted.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) {
      reply.log.error({ ...line, err: error }, 'request errored');
      return;
    }
    // The route's own level (e.g. `warn` for /healthz) decides, as for its other lines.
    if (!(reply.log as Logger).isLevelEnabled('info')) return;
    this.#lineLogger(request.server.log as Logger).info(
      { reqId: request.id, ...boundLogContext(request), ...line },
      'request completed',
    );
  }

  #lineLogger(root: Logger): Logger {
    let logger = this.#lineLoggers.get(root);
    if (!logger) {
      logger = root.child({}, { redact: { paths: [] } });
      this.#lineLoggers.set(root, logger);
    }
    return logger;
  }
}

/**
 * Builds the gateway with logging (pino, request ids), timeouts and trust-proxy settings.
 * Not listening yet.
 */
export async function buildServer(config: TApiEnv): Promise<FastifyInstance> {
  const server = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: { paths: LOG_REDACT, censor: '[redacted]' },
      serializers: LOG_SERIALIZERS,
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    logController: new OneLineRequestLog(),
    trustProxy: config.TRUST_PROXY,
    // Receiving a request (not answering it: SSE streams and job waits last longer) is bounded,
    // so drip-fed bodies cannot hold connections; idle connections are closed.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    keepAliveTimeout: 72_000,
    http: {
      headersTimeout: Math.min(config.HEADERS_TIMEOUT_MS, config.REQUEST_TIMEOUT_MS),
      // How often Node checks the two timeouts above (its default, 30 s, would let a slow
      // request overrun them by that much).
      connectionsCheckingInterval: 1_000,
    },
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    // A URL whose percent-encoding is not UTF-8 (e.g. a lone surrogate) is refused before
    // routing: answer it in the API's `{ message, code }` shape too.
    frameworkErrors: (err, _req, reply) => {
      const body: TErrorBody = { message: err.message, code: 'BAD_REQUEST' };
      void (reply as FastifyReply).code(400).type('application/json').send(body);
    },
  });
  if (config.TRUST_PROXY === false)
    capConnectionsPerAddress(server, config.CONNECTIONS_PER_ADDRESS_MAX);
  await server.register(app, { config });
  return server;
}

/**
 * Closes at once every connection past `max` open ones from one address (the socket's peer):
 * one client cannot take all of the server's sockets.
 */
function capConnectionsPerAddress(server: FastifyInstance, max: number): void {
  const open = new Map<string, number>();
  server.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * Starts listening and installs graceful shutdown: on SIGTERM/SIGINT stop accepting, let
 * in-flight requests finish (open SSE streams are ended), close pools, exit.
 */
export async function startServer(config: TApiEnv): Promise<FastifyInstance> {
  const server = await buildServer(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      server.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  await server.listen({ host: config.HOST, port: config.PORT });
  return server;
}
