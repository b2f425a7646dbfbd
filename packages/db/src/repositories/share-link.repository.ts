import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TShareLinkRow } from '../schema';
import { afterKey, pageAt, toPage, type TPage, type TPageRequest } from './page.sql';

/** A share link as its owner lists it, with the audited app's name. */
export type TShareLinkListed = TShareLinkRow & { app_name: string | null };

/**
 * Stores a new share link of `userId`'s audit unless the user already holds `maxPerUser` live
 * links. The user's expired links are deleted first (they answer 404 anyway), and the count
 * and insert run under a lock on the user's row, so concurrent creations cannot pass the
 * limit together.
 *
 * @returns the new row, or `'limit'` when the user holds `maxPerUser` live links.
 */
export async function insertShareLink(
  db: TDb,
  values: {
    userId: string;
    auditId: string;
    tokenHash: string;
    tokenPrefix: string;
    expiresAt: Date | null;
  },
  maxPerUser: number,
): Promise<TShareLinkRow | 'limit'> {
  return db.transaction().execute(async (trx) => {
    await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', values.userId)
      .forUpdate()
      .execute();
    await trx
      .deleteFrom('share_links')
      .where('user_id', '=', values.userId)
      .where('expires_at', '<=', sql<Date>`now()`)
      .execute();
    const { n } = await trx
      .selectFrom('share_links')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', values.userId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= maxPerUser) return 'limit';
    return trx
      .insertInto('share_links')
      .values({
        user_id: values.userId,
        audit_id: values.auditId,
        token_hash: values.tokenHash,
        token_prefix: values.tokenPrefix,
        expires_at: values.expiresAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** The link whose token hashes to `tokenHash`, expired or not (the caller judges expiry). */
export async function findShareLink(
  db: TDb,
  tokenHash: string,
): Promise<TShareLinkRow | undefined> {
  return db
    .selectFrom('share_links')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * One page of `userId`'s live (unexpired) links, newest first, with the audited app's name
 * (only the links to audit `auditId` when given), and how many live links the user has in all.
 */
export async function listShareLinks(
  db: TDb,
  userId: string,
  page: TPageRequest,
  auditId?: string,
): Promise<{ page: TPage<TShareLinkListed>; total: number }> {
  const live = db
    .selectFrom('share_links')
    .where('share_links.user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb('share_links.expires_at', 'is', null),
        eb('share_links.expires_at', '>', sql<Date>`now()`),
      ]),
    );
  const [rows, count] = await Promise.all([
    live
      .innerJoin('audits', 'audits.id', 'share_links.audit_id')
      .selectAll('share_links')
      .select('audits.app_name')
      .select(pageAt('share_links'))
      .$if(auditId !== undefined, (q) => q.where('share_links.audit_id', '=', auditId!))
      .where(afterKey('share_links', page.after, 'desc'))
      .orderBy('share_links.created_at', 'desc')
      .orderBy('share_links.id', 'desc')
      .limit(page.limit + 1)
      .execute(),
    live.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { page: toPage(rows, page.limit), total: Number(count.n) };
}

/**
 * Deletes `userId`'s link identified by its token's hash or by its id.
 *
 * @returns the deleted link's token hash (to drop it from caches), or undefined when the user
 *   has no such link.
 */
export async function deleteShareLink(
  db: TDb,
  userId: string,
  by: { tokenHash: string } | { id: string },
): Promise<string | undefined> {
  let query = db.deleteFrom('share_links').where('user_id', '=', userId);
  query =
    'tokenHash' in by
      ? query.where('token_hash', '=', by.tokenHash)
      : query.where('id', '=', by.id);
  const row = await query.returning('token_hash').executeTakeFirst();
  return row?.token_hash;
}
