import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Fields that tie a request's log lines to an audit or an upload (docs/OPERATIONS.md). */
export const LOG_CONTEXT_KEYS = ['auditId', 'downloadId'] as const;
export type TLogContextKey = (typeof LOG_CONTEXT_KEYS)[number];

/**
 * Routes whose `:id` parameter names an audit, so their lines carry it as `auditId` like the
 * routes that call it `auditId`.
 */
export const ID_PARAM_MEANS: Record<string, TLogContextKey> = {
  '/api/audit/:id': 'auditId',
  '/api/admin/audits/:id': 'auditId',
  '/api/chart-data/:id': 'downloadId',
  '/api/download-merged/:id': 'downloadId',
};

/** What an id looks like (uuid, cuid, nanoid...); anything else is not logged (log injection, size). */
const ID_SHAPE = /^[\w:.-]{1,64}$/;

/** The context fields found in `source` (params, query or body) that look like ids. */
function pick(source: unknown, out: Partial<Record<TLogContextKey, string>>): void {
  if (!source || typeof source !== 'object') return;
  for (const key of LOG_CONTEXT_KEYS) {
    const v = (source as Record<string, unknown>)[key];
    if (out[key] === undefined && typeof v === 'string' && ID_SHAPE.test(v)) out[key] = v;
  }
}

/** `ID_PARAM_MEANS` as path patterns: the route's `:id` segment, read from the raw URL. */
const ID_PATHS = Object.entries(ID_PARAM_MEANS).map(([route, key]) => ({
  pattern: new RegExp(`^${route.replace(':id', '([^/?#]+)')}(?:[?#]|$)`),
  key,
}));

/** The context fields bound into a request's logger so far, on the raw request. */
const BOUND = Symbol('log-context fields bound');
type TMarkedRequest = { [BOUND]?: Partial<Record<TLogContextKey, string>> };

/**
 * The context fields a request's logger carries (`auditId`, `downloadId`), as bound by this
 * plugin: for a line written by another logger that must read like the request's own.
 */
export function boundLogContext(req: FastifyRequest): Partial<Record<TLogContextKey, string>> {
  return (req.raw as TMarkedRequest)[BOUND] ?? {};
}

/**
 * The context fields a request's URL gives before routing: an id path segment of the routes in
 * {@link ID_PARAM_MEANS}, and `auditId` / `downloadId` query parameters. The same values
 * `onRequest` would find in the route's params and query.
 */
export function contextOfUrl(url: string): Partial<Record<TLogContextKey, string>> {
  const fields: Partial<Record<TLogContextKey, string>> = {};
  const q = url.indexOf('?');
  if (q >= 0) {
    const query = new URLSearchParams(url.slice(q + 1));
    pick(Object.fromEntries(LOG_CONTEXT_KEYS.map((k) => [k, query.get(k) ?? undefined])), fields);
  }
  for (const { pattern, key } of ID_PATHS) {
    const match = pattern.exec(url);
    if (!match || fields[key] !== undefined) continue;
    let id: string;
    try {
      id = decodeURIComponent(match[1]!);
    } catch {
      continue;
    }
    if (ID_SHAPE.test(id)) fields[key] = id;
  }
  return fields;
}

/** Rebinds the request's and reply's logger to a child carrying the fields not bound yet. */
function bind(
  req: FastifyRequest,
  reply: FastifyReply,
  fields: Partial<Record<TLogContextKey, string>>,
): void {
  const raw = req.raw as TMarkedRequest;
  const done = raw[BOUND] ?? {};
  const fresh = Object.entries(fields).filter(([k]) => !(k in done));
  if (fresh.length === 0) return;
  raw[BOUND] = { ...done, ...Object.fromEntries(fresh) };
  const child = req.log.child(Object.fromEntries(fresh));
  req.log = child;
  reply.log = child;
}

/**
 * Correlated request logs: every line a request logs after routing (handlers, errors,
 * "request completed") carries the `auditId` or `downloadId` it concerns, taken from the route
 * parameters and query (`onRequest`) and from the JSON body (`preValidation`), so one audit
 * can be followed from the api into the scraper and analyzer logs (whose job loggers bind the
 * same `auditId`, see `jobLogger` in @aso/queue). Values that do not look like ids are
 * ignored. Secrets never come from here: only these two fields are read.
 */
export const logContextPlugin = fp(async (app) => {
  // The fields the URL gives go into the request's logger as Fastify creates it: a second
  // child logger per request (pino copies its bindings and settings) was a tenth of the CPU of
  // a cached audit read.
  app.setChildLoggerFactory((logger, bindings, opts, rawReq) => {
    const fields = contextOfUrl(rawReq.url ?? '');
    if (Object.keys(fields).length === 0) return logger.child(bindings, opts);
    (rawReq as TMarkedRequest)[BOUND] = fields;
    return logger.child({ ...bindings, ...fields }, opts);
  });
  // Callback hooks: these do no I/O, and an async hook costs a promise per request.
  app.addHook('onRequest', (req, reply, done) => {
    const fields: Partial<Record<TLogContextKey, string>> = {};
    pick(req.params, fields);
    pick(req.query, fields);
    const alias = req.routeOptions.url ? ID_PARAM_MEANS[req.routeOptions.url] : undefined;
    const id = (req.params as Record<string, unknown> | undefined)?.id;
    if (alias && fields[alias] === undefined && typeof id === 'string' && ID_SHAPE.test(id)) {
      fields[alias] = id;
    }
    bind(req, reply, fields);
    done();
  });

  app.addHook('preValidation', (req, reply, done) => {
    const fields: Partial<Record<TLogContextKey, string>> = {};
    pick(req.body, fields);
    bind(req, reply, fields);
    done();
  });
});
