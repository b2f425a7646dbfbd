import { z } from 'zod';

/** Email as accepted by the API: trimmed, lower-cased, validated (issue: access point 2). */
export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.string().email('email must be a valid email address').max(254));

/** The signed-in user (spec section 3: User). */
export const ZUser = z.object({
  id: z.string(),
  email: z.string(),
  createdAt: z.string(),
});
export type TUser = z.infer<typeof ZUser>;

/** Body of `POST /api/login` and `POST /api/register` (spec section 7). */
export const ZCredentials = z.object({
  email: ZEmail,
  accessCode: z.string().trim().min(1, 'accessCode is required').max(64),
});
export type TCredentials = z.infer<typeof ZCredentials>;

/** Answer of login and register: the session token (256-bit, base64url) and the user. */
export const ZSessionAnswer = z.object({ sessionToken: z.string(), user: ZUser });
export type TSessionAnswer = z.infer<typeof ZSessionAnswer>;

/** `GET /api/check-access` with a bearer token. */
export const ZCheckUserAnswer = z.object({ isUser: z.boolean(), user: ZUser.nullable() });
export type TCheckUserAnswer = z.infer<typeof ZCheckUserAnswer>;

/** `GET /api/check-access` with an `x-access-code` header. */
export const ZCheckAdminAnswer = z.object({ isAdmin: z.boolean() });
export type TCheckAdminAnswer = z.infer<typeof ZCheckAdminAnswer>;
