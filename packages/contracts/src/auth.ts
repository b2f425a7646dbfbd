import { z } from 'zod';
import { text, ZIsoDateTime } from './common';

/** `'<field> is required'` when absent, `'<field> must be text'` for any other non-string. */
const requiredString = (field: string) =>
  text({
    error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be text`),
  });

/**
 * Email as accepted by the API: trimmed, lower-cased, validated (docs/product.md#validation-rules).
 */
export const ZEmail = requiredString('email')
  .trim()
  .toLowerCase()
  .pipe(
    z
      .string()
      .min(1, 'email is required')
      .max(254, 'email must be at most 254 characters')
      .email('email must be a valid email address'),
  );

/**
 * An access code as typed by a person: trimmed, 1-64 characters. Case, dashes and spaces are
 * ignored by the server (it compares canonical forms), so `abcd efgh-jkmn-pqrs` matches
 * `ABCD-EFGH-JKMN-PQRS`.
 */
export const ZAccessCodeInput = requiredString('accessCode')
  .trim()
  .min(1, 'accessCode is required')
  .max(64, 'accessCode must be at most 64 characters');

/** The signed-in user (docs/product.md#entities: User). `createdAt` is ISO 8601 UTC. */
export const ZUser = z.object({
  id: z.string(),
  email: z.string(),
  createdAt: ZIsoDateTime,
});
export type TUser = z.infer<typeof ZUser>;

/**
 * Body of `POST /api/login` and `POST /api/register` (docs/product.md#api-calls). `accessCode` is
 * the access code for register and the personal sign-in code for login.
 */
export const ZCredentials = z.object(
  { email: ZEmail, accessCode: ZAccessCodeInput },
  { error: 'body must be a JSON object with email and accessCode' },
);
export type TCredentials = z.infer<typeof ZCredentials>;

/**
 * Answer of login and register: the session token (32 random bytes, base64url, 43
 * characters; the client keeps it in local storage as `sessionToken`) and the user.
 */
export const ZSessionAnswer = z.object({ sessionToken: z.string(), user: ZUser });
export type TSessionAnswer = z.infer<typeof ZSessionAnswer>;

/**
 * Answer of `POST /api/register`: the session, and the user's personal sign-in code (grouped
 * Crockford base32, e.g. `7K3M-Q9XA-R2T8-VB4N`), given this once: `POST /api/login` takes it
 * from then on instead of the (possibly shared) access code, which only registers.
 */
export const ZRegisterAnswer = ZSessionAnswer.extend({ signInCode: z.string() });
export type TRegisterAnswer = z.infer<typeof ZRegisterAnswer>;

/**
 * `GET /api/check-access` with a bearer token (or none): `isUser` false and `user` null for a
 * missing, unknown, expired or revoked token, so the client can drop it
 * (docs/product.md#states-and-transitions).
 */
export const ZCheckUserAnswer = z.object({ isUser: z.boolean(), user: ZUser.nullable() });
export type TCheckUserAnswer = z.infer<typeof ZCheckUserAnswer>;

/** `GET /api/check-access` with an `x-access-code` header: is it a live admin code. */
export const ZCheckAdminAnswer = z.object({ isAdmin: z.boolean() });
export type TCheckAdminAnswer = z.infer<typeof ZCheckAdminAnswer>;

/** Any answer of `GET /api/check-access` (admin form when `x-access-code` was sent). */
export const ZCheckAccessAnswer = z.union([ZCheckAdminAnswer, ZCheckUserAnswer]);
export type TCheckAccessAnswer = z.infer<typeof ZCheckAccessAnswer>;

/** `GET /api/me`: the user behind the bearer token (401 when it is missing or dead). */
export const ZMeAnswer = z.object({ user: ZUser });
export type TMeAnswer = z.infer<typeof ZMeAnswer>;
