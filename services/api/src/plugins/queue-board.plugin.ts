import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import fastifyCookie from '@fastify/cookie';
import { listLiveAdminCodes } from '@aso/db';
import { QUEUES } from '@aso/queue';
import { AppError, forbidden } from '../lib/app-error';
import { findAdminCode } from '../services/admin-code.service';
import { presentedAdminCode } from './auth.plugin';

/** Where the queue monitor is mounted. */
export const QUEUE_BOARD_PREFIX = '/admin/queues';

/** Name of the cookie that keeps a browser signed in to the queue monitor. */
export const QUEUE_BOARD_COOKIE = 'aso_queue_board';

/** Lifetime of the cookie's token (ms): idle time after which the code must be given again. */
export const QUEUE_BOARD_TOKEN_TTL_MS = 30 * 60_000;

/** Longest `?code=` or form value looked at (the admin check refuses longer ones too). */
const MAX_CODE_CHARS = 200;

/** Token format version; bump to invalidate every token at once. */
const TOKEN_VERSION = 'v1';

/** What a token signs: version, admin code row id, expiry (ms since the epoch). */
const TOKEN_VALUE = /^v1\.([0-9a-f-]{36})\.(\d{13})$/;

/**
 * The signing key of the monitor's tokens: 32 random bytes kept in Redis (created once with
 * SET NX), so every gateway process accepts the tokens of the others and restarts keep
 * browsers signed in. Read lazily: the gateway starts while Redis is down.
 */
function tokenKeyLoader(app: FastifyInstance): () => Promise<Buffer> {
  const name = `${app.config.QUEUE_PREFIX}:queue-board:token-key`;
  let loading: Promise<Buffer> | null = null;
  return () =>
    (loading ??= (async () => {
      await app.redis.set(name, randomBytes(32).toString('base64'), 'NX');
      const stored = await app.redis.get(name);
      if (!stored) throw new Error('queue monitor token key missing in Redis');
      return Buffer.from(stored, 'base64');
    })().catch((err: unknown) => {
      loading = null;
      throw err;
    }));
}

/**
 * A monitor token for the admin code `codeId`: `v1.<codeId>.<expiresAtMs>` signed with
 * HMAC-SHA256 by @fastify/cookie's signer (the signature appended after a '.'). It holds no
 * part of the code itself, only its row id, and is worth nothing once expired or once that
 * code is no longer a live admin code.
 */
export function issueBoardToken(key: Buffer, codeId: string, now = Date.now()): string {
  const expiresAt = now + QUEUE_BOARD_TOKEN_TTL_MS;
  return fastifyCookie.sign(`${TOKEN_VERSION}.${codeId}.${expiresAt}`, key);
}

/**
 * Checks a token's signature (constant-time, by @fastify/cookie), form and expiry. Returns the
 * admin code id it was issued for and its expiry (ms), or null. The caller must still check
 * that the code is live.
 */
export function readBoardToken(
  key: Buffer,
  token: string,
  now = Date.now(),
): { codeId: string; expiresAt: number } | null {
  const unsigned = fastifyCookie.unsign(token, key);
  const m = unsigned.valid && unsigned.value !== null ? TOKEN_VALUE.exec(unsigned.value) : null;
  if (!m) return null;
  const [, codeId = '', exp = ''] = m;
  const expiresAt = Number(exp);
  return expiresAt > now ? { codeId, expiresAt } : null;
}

/** The URL without its `code` query parameter (the answer to `?code=` redirects there). */
export function withoutCode(url: string): string {
  const u = new URL(url, 'http://localhost');
  u.searchParams.delete('code');
  return `${u.pathname}${u.search}`;
}

/** The page a browser gets instead of the monitor: one field that posts the admin code. */
function signInPage(message: string): string {
  const text = message.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Queue monitor</title>
<style>body{font:16px system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem}
input,button{font:inherit;padding:.4rem .6rem}input{width:100%;box-sizing:border-box;margin:.5rem 0}</style></head>
<body><h1>Queue monitor</h1><p>${text}</p>
<form method="post" action="${QUEUE_BOARD_PREFIX}/login">
<label for="code">Admin access code</label>
<input id="code" name="code" type="password" autocomplete="off" required autofocus>
<button type="submit">Open</button></form></body></html>`;
}

/** Only the request line's path is logged for monitor routes: `?code=` must never reach a log. */
function redactedRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: withoutCode(req.url),
    host: req.host,
    remoteAddress: req.ip,
  };
}

/**
 * The queue monitor (docs/OPERATIONS.md): bull-board at `/admin/queues`, showing every queue of
 * the catalog (scrape, analysis, csv-merge, maintenance) read-only, for admins only.
 *
 * Every request needs a live admin code (docs/product.md#access-and-sessions), given in one of
 * three ways:
 * - the `x-access-code` header (scripts, `curl`): checked like every admin call
 *   (`app.requireAdmin`);
 * - once, from a browser, as `?code=` on any monitor URL or through the sign-in form that a
 *   refused browser gets (`POST /admin/queues/login`): the code is checked the same way (same
 *   constant-time comparison and per-IP limit on wrong codes), then the answer sets a cookie
 *   and redirects to the URL without the code, so it leaves the address bar and history;
 * - the cookie `aso_queue_board`: `HttpOnly` (no script reads it), `SameSite=Strict` (never
 *   sent from another site, so no cross-site request can act with it), `Path=/admin/queues`
 *   (sent nowhere else), `Secure` over HTTPS, holding a token `v1.<code id>.<expiry>.<HMAC>`
 *   (see {@link issueBoardToken}) signed with a random key kept in Redis. It never contains
 *   the code; it expires after {@link QUEUE_BOARD_TOKEN_TTL_MS} without use (renewed while in
 *   use), and stops working at once when its admin code is deactivated or expires.
 * Anything else answers 403 (`{ message, code }`, or the sign-in form for a browser page).
 * Monitor request logs omit the query string, so `?code=` is never logged.
 */
export async function queueBoardPlugin(app: FastifyInstance): Promise<void> {
  const tokenKey = tokenKeyLoader(app);
  // Cookies are parsed and set by @fastify/cookie, in this plugin's scope only; tokens are
  // signed with its signer under the key from Redis (see issueBoardToken).
  await app.register(fastifyCookie);

  app.addHook('onRoute', (route) => {
    route.logSerializers = { ...route.logSerializers, req: redactedRequest };
  });

  // The sign-in form posts `code=...`; parsed here only (this plugin's scope).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  /** True when a browser is opening a page (not bull-board's API calls or assets). */
  const wantsPage = (req: FastifyRequest) =>
    req.method === 'GET' && /text\/html/.test(req.headers.accept ?? '');

  /** Answers a refusal: the sign-in form for a page on 403, else `{ message, code }`. */
  const refuse = (reply: FastifyReply, e: AppError, asPage: boolean) => {
    if (e.extra.retryAfter !== undefined)
      void reply.header('retry-after', String(e.extra.retryAfter));
    if (asPage && e.statusCode === 403) {
      return reply
        .code(403)
        .header('cache-control', 'no-store')
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
        )
        .type('text/html; charset=utf-8')
        .send(signInPage(e.message));
    }
    return reply
      .code(e.statusCode)
      .header('cache-control', 'no-store')
      .send({ message: e.message, code: e.code });
  };

  const setTokenCookie = async (req: FastifyRequest, reply: FastifyReply, codeId: string) => {
    void reply.setCookie(QUEUE_BOARD_COOKIE, issueBoardToken(await tokenKey(), codeId), {
      httpOnly: true,
      sameSite: 'strict',
      path: QUEUE_BOARD_PREFIX,
      secure: req.protocol === 'https',
      maxAge: QUEUE_BOARD_TOKEN_TTL_MS / 1000,
    });
  };

  /** The live admin code `raw` names, or throws 403 (429 after too many wrong codes per IP). */
  const checkCode = async (req: FastifyRequest, raw: string) => {
    const admin = await app.accessLimits.guardSecret(
      req,
      { type: 'admin' },
      async () => (raw.length <= MAX_CODE_CHARS ? findAdminCode(app.db, raw) : null),
      (found) => found !== null,
    );
    if (!admin) throw forbidden('Invalid admin code');
    return admin;
  };

  app.addHook('onRequest', async (req, reply) => {
    try {
      if (req.routeOptions.url === `${QUEUE_BOARD_PREFIX}/login`) return;
      const code = (req.query as Record<string, unknown>).code;
      if (typeof code === 'string') {
        const admin = await checkCode(req, code);
        await setTokenCookie(req, reply, admin.id);
        if (req.method === 'GET') return reply.redirect(withoutCode(req.url), 303);
        return;
      }
      if (presentedAdminCode(req)) {
        await app.requireAdmin(req);
        return;
      }
      const token = req.cookies[QUEUE_BOARD_COOKIE];
      const read = token ? readBoardToken(await tokenKey(), token) : null;
      if (read) {
        const live = await listLiveAdminCodes(app.db, new Date());
        if (live.some((c) => c.id === read.codeId)) {
          // Sliding expiry: renewed once half of the lifetime has passed.
          if (read.expiresAt - Date.now() < QUEUE_BOARD_TOKEN_TTL_MS / 2)
            await setTokenCookie(req, reply, read.codeId);
          return;
        }
      }
      return refuse(reply, forbidden('Admin access code required'), wantsPage(req));
    } catch (err) {
      if (err instanceof AppError) return refuse(reply, err, wantsPage(req));
      req.log.error({ err }, 'queue monitor access check failed');
      return reply
        .code(503)
        .send({ message: 'The queue monitor is unavailable', code: 'SERVICE_UNAVAILABLE' });
    }
  });

  app.post(`${QUEUE_BOARD_PREFIX}/login`, { schema: { hide: true } }, async (req, reply) => {
    const code = (req.body as Record<string, unknown> | undefined)?.code;
    try {
      if (typeof code !== 'string' || !code.trim()) throw forbidden('Admin access code required');
      const admin = await checkCode(req, code);
      await setTokenCookie(req, reply, admin.id);
      return reply.redirect(`${QUEUE_BOARD_PREFIX}/`, 303);
    } catch (err) {
      // The form shows again, with the reason.
      if (err instanceof AppError) return refuse(reply, err, true);
      throw err;
    }
  });

  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PREFIX);
  createBullBoard({
    queues: Object.values(QUEUES).map(
      (name) => new BullMQAdapter(app.producers.queue(name), { readOnlyMode: true }),
    ),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'ASO queues' } },
  });
  await app.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PREFIX });
}
