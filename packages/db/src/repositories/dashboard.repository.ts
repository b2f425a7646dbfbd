import type { DashboardRow } from '../schema';
import { isUuid } from './audit.repository';
import { type DbOrTrx } from './expiry.sql';

/**
 * `dashboards` (DESIGN section 4): a user's saved dashboards, each pointing at a dataset.
 */

/** What {@link insertDashboard} stores. */
export interface NewDashboardInput {
  userId: string;
  name: string;
  appName: string;
  territory: string;
  sessionId: string | null;
  /** contracts `TDashboardConfig`. */
  config: Record<string, unknown>;
}

/** Inserts a saved dashboard and returns the row. */
export async function insertDashboard(
  db: DbOrTrx,
  input: NewDashboardInput,
): Promise<DashboardRow> {
  return db
    .insertInto('dashboards')
    .values({
      user_id: input.userId,
      name: input.name,
      app_name: input.appName,
      territory: input.territory,
      session_id: input.sessionId,
      config_json: JSON.stringify(input.config),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `userId`'s dashboards, newest first. */
export async function listDashboards(db: DbOrTrx, userId: string): Promise<DashboardRow[]> {
  return db
    .selectFrom('dashboards')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** `userId`'s dashboard `id`, or undefined when there is none of theirs. */
export async function findDashboard(
  db: DbOrTrx,
  id: string,
  userId: string,
): Promise<DashboardRow | undefined> {
  if (!isUuid(id)) return undefined;
  return db
    .selectFrom('dashboards')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Deletes `userId`'s dashboard `id`. Returns false when there is none (or it is someone else's). */
export async function deleteDashboard(db: DbOrTrx, id: string, userId: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db
    .deleteFrom('dashboards')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
