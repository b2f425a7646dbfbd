import { type Selectable, type Updateable } from 'kysely';
import type { TAscImportTable } from '../schema';
import type { TDbOrTrx } from './expiry.sql';

/*
 * App Store Connect imports: one row per import of an app through a connection, queued,
 * running, done or failed, with its progress.
 */

/** An import as stored. */
export type TAscImportRow = Selectable<TAscImportTable>;

/** A new queued import of `appId`; returns its id. */
export async function insertAscImport(
  db: TDbOrTrx,
  connectionId: string,
  appId: string,
): Promise<string> {
  const row = await db
    .insertInto('asc_imports')
    .values({ connection_id: connectionId, app_id: appId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The import `id` if its connection is the user's, else null. */
export async function findAscImportForUser(
  db: TDbOrTrx,
  userId: string,
  id: string,
): Promise<TAscImportRow | null> {
  return (
    (await db
      .selectFrom('asc_imports as i')
      .innerJoin('asc_connections as c', 'c.id', 'i.connection_id')
      .selectAll('i')
      .where('i.id', '=', id)
      .where('c.user_id', '=', userId)
      .executeTakeFirst()) ?? null
  );
}

/** The import `id` (the importer's read). */
export async function findAscImport(db: TDbOrTrx, id: string): Promise<TAscImportRow | null> {
  return (
    (await db.selectFrom('asc_imports').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
  );
}

/** Updates an import's state and counts. */
export async function updateAscImport(
  db: TDbOrTrx,
  id: string,
  patch: Updateable<TAscImportTable>,
): Promise<void> {
  await db.updateTable('asc_imports').set(patch).where('id', '=', id).execute();
}

/** The newest import of each app of a connection. */
export async function latestAscImports(
  db: TDbOrTrx,
  connectionId: string,
): Promise<TAscImportRow[]> {
  return db
    .selectFrom('asc_imports')
    .selectAll()
    .distinctOn('app_id')
    .where('connection_id', '=', connectionId)
    .orderBy('app_id')
    .orderBy('created_at', 'desc')
    .execute();
}

/** An import of the app still queued or running, if any (one at a time per app). */
export async function findOpenAscImport(
  db: TDbOrTrx,
  connectionId: string,
  appId: string,
): Promise<TAscImportRow | null> {
  return (
    (await db
      .selectFrom('asc_imports')
      .selectAll()
      .where('connection_id', '=', connectionId)
      .where('app_id', '=', appId)
      .where('state', 'in', ['queued', 'running'])
      .orderBy('created_at', 'desc')
      .executeTakeFirst()) ?? null
  );
}

/** Every (connection, app) imported at least once: what the daily round imports again. */
export async function listImportedAscApps(
  db: TDbOrTrx,
  limit: number,
): Promise<Array<{ connection_id: string; app_id: string }>> {
  return db
    .selectFrom('asc_imports')
    .select(['connection_id', 'app_id'])
    .distinct()
    .orderBy('connection_id')
    .orderBy('app_id')
    .limit(limit)
    .execute();
}
