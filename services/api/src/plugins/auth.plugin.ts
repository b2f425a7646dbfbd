import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { findLiveSession, type TSessionIdentity } from '@aso/db';
import { forbidden, unauthorized } from '../lib/app-error';
import { ensureAdminAccessCode, findAdminCode } from '../services/admin-code.service';
import { canonicalAccessCode, hashToken } from '../services/credentials.service';

/** How often the admin code bootstrap is retried while PostgreSQL is unreachable at start (ms). */
const BOOTSTRAP_RETRY_MS = 5_000;

/** Longest bearer token looked at; a longer one is refused unread. */
const MAX_TOKEN_CHARS = 200;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.requireUser`; null before it runs. */
    identity: TSessionIdentity | null;
    /** Set by `app.requireAdmin`: the live admin code of the request; null before it runs. */
    adminCode: { id: string } | null;
  }
  interface FastifyInstance {
    /**
     * preHandler: 401 unless the request carries a live bearer session
     * (docs/product.md#access-and-sessions).
     */
    requireUser: (req: FastifyRequest) => Promise<void>;
    /**
     * preHandler of every admin route: 403 unless `x-access-code` holds a live admin code
     * (active, unexpired, `is_admin`), compared in constant time. Every code is counted
     * towards the admin limit per address before it is compared (a right one is given back);
     * past the limit the answer is 429 without a comparison.
     * A missing header is 403 too, whatever the bearer token: the admin credential is the
     * code, and 401 is kept for dead sessions (on 401 the client drops its session token).
     */
    requireAdmin: (req: FastifyRequest) => Promise<void>;
  }
}

/** The bearer token of a request, or null. */
export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/** The `x-access-code` header of a request (trimmed), or null when absent or blank. */
export function presentedAdminCode(req: FastifyRequest): string | null {
  const h = req.headers['x-access-code'];
  const v = (Array.isArray(h) ? h[0] : h)?.trim();
  return v ? v : null;
}

/**
 * Resolves the request's session identity (null when missing, unknown, expired or revoked),
 * through the session cache (`app.readCaches.sessions`: logout and code deactivation drop its
 * entries in every replica; an entry is not used past the session's expiry).
 */
export async function identify(req: FastifyRequest): Promise<TSessionIdentity | null> {
  const token = bearerToken(req);
  if (!token || token.length > MAX_TOKEN_CHARS) return null;
  const hash = hashToken(token);
  const sessions = req.server.readCaches.sessions;
  const identity = await sessions.read(hash, () => findLiveSession(req.server.db, hash));
  if (identity && identity.expiresAt.getTime() <= Date.now()) {
    sessions.forget(hash);
    return null;
  }
  return identity;
}

/**
 * Decorates `requireUser`, `requireAdmin`, `request.identity` and `request.adminCode`, and
 * creates the first admin code from `ADMIN_ACCESS_CODE` when the server is ready (retried in
 * the background while PostgreSQL is down, so the gateway still starts). Needs the
 * rate-limit plugin (for `app.accessLimits`) registered before the first request.
 */
export const authPlugin = fp(async (app) => {
  app.decorateRequest('identity', null);
  app.decorateRequest('adminCode', null);

  app.decorate('requireUser', async (req: FastifyRequest) => {
    const identity = await identify(req);
    if (!identity)
      throw unauthorized('Your session has expired or is invalid. Please sign in again.');
    req.identity = identity;
  });

  app.decorate('requireAdmin', async (req: FastifyRequest) => {
    const presented = presentedAdminCode(req);
    if (!presented) throw forbidden('Admin access code required');
    const admin = await app.accessLimits.guardSecret(
      req,
      { type: 'admin' },
      () => findAdminCode(app.db, presented),
      (found) => found !== null,
    );
    if (!admin) throw forbidden('Invalid admin code');
    req.adminCode = admin;
  });

  const adminCode = app.config.ADMIN_ACCESS_CODE;
  if (adminCode) {
    // A configuration mistake: fail the start rather than retry forever.
    if (!/[0-9A-Z]/.test(canonicalAccessCode(adminCode))) {
      throw new Error('ADMIN_ACCESS_CODE must contain letters or digits');
    }
    let retry: NodeJS.Timeout | undefined;
    let closed = false;
    const bootstrap = async (): Promise<void> => {
      try {
        await ensureAdminAccessCode(app.db, adminCode, app.log);
      } catch (err) {
        if (closed) return;
        app.log.error({ err }, 'could not create the ADMIN_ACCESS_CODE admin code; retrying');
        retry = setTimeout(() => void bootstrap(), BOOTSTRAP_RETRY_MS);
        retry.unref();
      }
    };
    app.addHook('onReady', bootstrap);
    app.addHook('onClose', async () => {
      closed = true;
      clearTimeout(retry);
    });
  }
});

/** The identity set by `requireUser` (throws 401 if the route forgot the preHandler). */
export function currentUser(req: FastifyRequest): TSessionIdentity {
  if (!req.identity) throw unauthorized();
  return req.identity;
}
