import { z } from 'zod';

/** Longest expiry a share link may be given (days): this product's rule, a quarter's work. */
export const SHARE_EXPIRY_MAX_DAYS = 365;
/** Characters of a link's token kept and listed to tell links apart (never enough to open one). */
export const SHARE_TOKEN_PREFIX_CHARS = 6;

/**
 * Body of `POST /api/audit/{id}/shares`: `expiresInDays` (whole days, 1-365) makes the link
 * stop working that many days from now; absent or null, it works until revoked.
 */
export const ZShareCreateBody = z
  .object({
    expiresInDays: z
      .number()
      .int('expiresInDays must be a whole number of days')
      .min(1, 'expiresInDays must be at least 1')
      .max(SHARE_EXPIRY_MAX_DAYS, `expiresInDays must be at most ${SHARE_EXPIRY_MAX_DAYS}`)
      .nullish(),
  })
  .default({});
export type TShareCreateBody = z.infer<typeof ZShareCreateBody>;

/** A share link as its owner lists it (the token itself is only shown once, at creation). */
export const ZShareLink = z.object({
  /** The link's id: `DELETE /api/shares/{id}` revokes it as the token does. */
  id: z.string(),
  /** The token's first characters, to tell links apart (`/s/AbC123…`). */
  prefix: z.string(),
  auditId: z.string(),
  /** The audited app's name (null while the audit had none). */
  appName: z.string().nullable(),
  createdAt: z.string(),
  /** When the link stops working; null: until revoked. */
  expiresAt: z.string().nullable(),
});
export type TShareLink = z.infer<typeof ZShareLink>;

/**
 * Answer of `POST /api/audit/{id}/shares` (201): the token (at least 128 random bits,
 * base64url; only its SHA-256 is stored, so this is the one time it is shown) and the full
 * address of the shared page, `<origin>/s/<token>`.
 */
export const ZShareCreated = z.object({
  token: z.string(),
  url: z.string(),
  link: ZShareLink,
});
export type TShareCreated = z.infer<typeof ZShareCreated>;

/**
 * Answer of `GET /api/shares?limit=&cursor=`: one page of the caller's live links, newest first
 * (the next page in the `Link` header, docs/product.md#lists-and-pages), and how many there are.
 */
export const ZShareList = z.object({
  items: z.array(ZShareLink),
  total: z.number().int(),
  /** Links a user may hold at once (`SHARE_LINKS_MAX_PER_USER`). */
  max: z.number().int(),
});
export type TShareList = z.infer<typeof ZShareList>;
