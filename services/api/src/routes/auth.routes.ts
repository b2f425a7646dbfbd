import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCheckAccessAnswer,
  ZCredentials,
  ZMeAnswer,
  ZOk,
  ZRegisterAnswer,
  ZSessionAnswer,
  type TCheckAccessAnswer,
} from '@aso/contracts';
import { bearerToken, currentUser, identify, presentedAdminCode } from '../plugins/auth.plugin';
import { findAdminCode } from '../services/admin-code.service';
import { registerUser } from '../services/registration.service';
import { logoutSession } from '../services/session.service';
import { loginUser } from '../services/sign-in.service';
import { identityUser } from '../services/user.mappers';
import { hashToken } from '../services/credentials.service';

/**
 * Sign-up, sign-in and session calls (docs/product.md#api-calls,
 * docs/product.md#access-and-sessions), under `/api`:
 *
 * - `POST /register` `{ email, accessCode }` -> `{ sessionToken, user, signInCode }`: the
 *   user's personal sign-in code, given once. `POST /login` `{ email, accessCode }` with that
 *   personal code -> `{ sessionToken, user }`; an access code others may hold never signs in.
 *   Refusals: 400 naming the bad field, 401 'Invalid email or access code', 403 for a
 *   deactivated, expired or (register only) used-up code, or (login) an account that has no
 *   personal code yet, 409 for a taken email (register),
 *   429 (register) past `AUTH_RATE_LIMIT_PER_MIN` per IP (counted before the body is read) or
 *   per email; (login) past the sign-in attempt limits of `accessLimits.guardSecret`.
 * - `POST /logout`: revokes the bearer session; `{ success: true }` even when the token is
 *   missing or already dead, since the client clears its session whatever the answer.
 * - `GET /check-access`: with `x-access-code` -> `{ isAdmin }` (rate limited per IP); otherwise
 *   `{ isUser, user }`, 200 with `isUser: false, user: null` for a missing or dead token so the
 *   client drops it (docs/product.md#states-and-transitions).
 * - `GET /me`: `{ user }` for a live session, 401 otherwise.
 */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const settings = { ttlDays: app.config.SESSION_TTL_DAYS };
  const { authByIp, authByEmail, guardSecret } = app.accessLimits;

  app.post(
    '/register',
    {
      schema: { body: ZCredentials, response: { 200: ZRegisterAnswer } },
      onRequest: authByIp.hit,
      preHandler: authByEmail.hit,
    },
    async (req) => registerUser(app.db, req.body, settings),
  );

  // The code is counted before it is compared (see guardSecret): failures per (email,
  // address), per address, and a slower per-email backoff.
  app.post(
    '/login',
    { schema: { body: ZCredentials, response: { 200: ZSessionAnswer } } },
    async (req) =>
      guardSecret(req, { type: 'sign-in', email: req.body.email }, () =>
        loginUser(app.db, req.body, settings),
      ),
  );

  app.post('/logout', { schema: { response: { 200: ZOk } } }, async (req) => {
    const token = bearerToken(req);
    await logoutSession(app.db, token);
    // Every replica forgets the session before the answer: the token stops working at once.
    if (token) await app.readCaches.sessions.drop(hashToken(token));
    return { success: true as const };
  });

  app.get(
    '/check-access',
    { schema: { response: { 200: ZCheckAccessAnswer } } },
    async (req): Promise<TCheckAccessAnswer> => {
      const presented = presentedAdminCode(req);
      if (presented) {
        const admin = await guardSecret(
          req,
          { type: 'admin' },
          () => findAdminCode(app.db, presented),
          (found) => found !== null,
        );
        return { isAdmin: admin !== null };
      }
      const identity = await identify(req);
      return identity
        ? { isUser: true, user: identityUser(identity) }
        : { isUser: false, user: null };
    },
  );

  app.get(
    '/me',
    { schema: { response: { 200: ZMeAnswer } }, preHandler: app.requireUser },
    async (req) => ({ user: identityUser(currentUser(req)) }),
  );
};
