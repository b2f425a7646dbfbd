import { type Selectable } from 'kysely';
import type { TDb } from '../client';
import type { TAscConnectionTable } from '../schema';
import type { TDbOrTrx } from './expiry.sql';
import { afterKey, pageAt, toPage, type TPage, type TPageRequest } from './page.sql';

/**
 * App Store Connect connections (imports: asc-import.repository.ts; imported figures:
 * asc-figure.repository.ts). A connection's columns other
 * than `private_key_sealed` are what answers may show; the sealed key is read only by
 * {@link findAscConnectionSecret} (the importer's).
 */

/** A connection as answers show it (no key material). */
export type TAscConnectionRow = Omit<Selectable<TAscConnectionTable>, 'private_key_sealed'>;

const PUBLIC_COLUMNS = [
  'id',
  'user_id',
  'name',
  'issuer_id',
  'key_id',
  'apps',
  'created_at',
] as const;

/**
 * Inserts a connection whose sealed key is made by `seal(id)` (the id is the seal's AAD, so
 * the id is chosen first). Returns the row without key material.
 */
export async function insertAscConnection(
  db: TDbOrTrx,
  input: {
    id: string;
    userId: string;
    name: string;
    issuerId: string;
    keyId: string;
    privateKeySealed: string;
    apps: Array<{ appId: string; name: string; bundleId: string }>;
  },
): Promise<TAscConnectionRow> {
  return db
    .insertInto('asc_connections')
    .values({
      id: input.id,
      user_id: input.userId,
      name: input.name,
      issuer_id: input.issuerId,
      key_id: input.keyId,
      private_key_sealed: input.privateKeySealed,
      apps: JSON.stringify(input.apps),
    })
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** One page of the user's connections, newest first (no key material). */
export async function listAscConnections(
  db: TDbOrTrx,
  userId: string,
  page: TPageRequest,
): Promise<TPage<TAscConnectionRow>> {
  const rows = await db
    .selectFrom('asc_connections')
    .select(PUBLIC_COLUMNS)
    .select(pageAt('asc_connections'))
    .where('user_id', '=', userId)
    .where(afterKey('asc_connections', page.after, 'desc'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit);
}

/** The user's connection `id`, or null (another user's answers null too). */
export async function findAscConnection(
  db: TDbOrTrx,
  userId: string,
  id: string,
): Promise<TAscConnectionRow | null> {
  return (
    (await db
      .selectFrom('asc_connections')
      .select(PUBLIC_COLUMNS)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst()) ?? null
  );
}

/**
 * The connection with its sealed key, for the importer only (it opens the seal in memory).
 * Null when the connection was deleted.
 */
export async function findAscConnectionSecret(
  db: TDbOrTrx,
  id: string,
): Promise<Selectable<TAscConnectionTable> | null> {
  return (
    (await db.selectFrom('asc_connections').selectAll().where('id', '=', id).executeTakeFirst()) ??
    null
  );
}

/**
 * Deletes the user's connection: its sealed key, imports and figures go with it (cascade).
 * False when it is not the user's.
 */
export async function deleteAscConnection(db: TDb, userId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('asc_connections')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** Every connection's sealed key (the re-encrypt command). */
export async function listAscSealedKeys(
  db: TDbOrTrx,
): Promise<Array<{ id: string; private_key_sealed: string }>> {
  return db.selectFrom('asc_connections').select(['id', 'private_key_sealed']).execute();
}

/** Replaces a connection's sealed key (the re-encrypt command). */
export async function updateAscSealedKey(db: TDbOrTrx, id: string, sealed: string): Promise<void> {
  await db
    .updateTable('asc_connections')
    .set({ private_key_sealed: sealed })
    .where('id', '=', id)
    .execute();
}
