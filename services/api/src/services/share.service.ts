import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ZText } from '@aso/contracts';
import { findShareLink } from '@aso/db';
import { notFound } from '../lib/app-error';
import type { TCachedShareLink } from '../caches/read-caches';

/** A share token as links carry it (base64url); anything else is not one of ours. */
export const ZShareToken = ZText.regex(/^[A-Za-z0-9_-]{22,128}$/, 'not a share link token');

/** The message of every unknown, revoked or expired link (never saying which). */
export const SHARE_NOT_FOUND = 'This share link does not exist, was revoked or has expired';

/** Hex SHA-256 of a share token: the only form in which tokens are stored. */
export function hashShareToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Headers of shared answers: not to be indexed (`X-Robots-Tag`, Google's
 * https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag), and no
 * `Referer` carrying the token to other sites.
 */
export function markShared(reply: FastifyReply): void {
  void reply.header('x-robots-tag', 'noindex, nofollow');
  void reply.header('referrer-policy', 'no-referrer');
}

/**
 * The live link of `token`: what it opens. Kept per process by token hash; a revocation
 * drops it in every replica before its answer, and expiry is checked on every read.
 *
 * @throws AppError 404 ({@link SHARE_NOT_FOUND}) for an unknown, revoked or expired token.
 */
export async function liveShareLink(
  app: FastifyInstance,
  token: string,
): Promise<TCachedShareLink> {
  const tokenHash = hashShareToken(token);
  const link = await app.readCaches.shareLinks.read(tokenHash, async () => {
    const row = await findShareLink(app.db, tokenHash);
    return row
      ? { auditId: row.audit_id, userId: row.user_id, expiresAt: row.expires_at?.getTime() ?? null }
      : null;
  });
  if (!link || (link.expiresAt !== null && link.expiresAt <= Date.now()))
    throw notFound(SHARE_NOT_FOUND);
  return link;
}
