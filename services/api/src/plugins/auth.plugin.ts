import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { findLiveSession, type SessionIdentity } from '@aso/db';
import { unauthorized } from '../lib/app-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.requireUser`; null before it runs. */
    identity: SessionIdentity | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a live bearer session (DESIGN section 5). */
    requireUser: (req: FastifyRequest) => Promise<void>;
  }
}

/** Hex SHA-256 of a session token: the only form in which tokens are stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The bearer token of a request, or null. */
export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/** Resolves the request's session identity (null when missing, unknown, expired or revoked). */
export async function identify(req: FastifyRequest): Promise<SessionIdentity | null> {
  const token = bearerToken(req);
  if (!token || token.length > 200) return null;
  return findLiveSession(req.server.db, hashToken(token));
}

/** Decorates `requireUser` and `request.identity`. */
export const authPlugin = fp(async (app) => {
  app.decorateRequest('identity', null);
  app.decorate('requireUser', async (req: FastifyRequest) => {
    const identity = await identify(req);
    if (!identity) throw unauthorized('Your session has expired or is invalid. Please sign in again.');
    req.identity = identity;
  });
});

/** The identity set by `requireUser` (throws 401 if the route forgot the preHandler). */
export function currentUser(req: FastifyRequest): SessionIdentity {
  if (!req.identity) throw unauthorized();
  return req.identity;
}
