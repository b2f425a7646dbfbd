import type { TDashboardRow } from '../schema';
import { isUuid } from './audit.repository';
import { type TDbOrTrx } from './expiry.sql';
import { afterKey, pageAt, toPage, type TPage, type TPageRequest } from './page.sql';

/**
 * `dashboards` (docs/product.md#storage): a user's saved dashboards, each pointing at a dataset.
 */

/** What {@link insertDashboard} stores. */
export interface TNewDashboardInput {
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
  db: TDbOrTrx,
  input: TNewDashboardInput,
): Promise<TDashboardRow> {
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

/** One page of `userId`'s dashboards, newest first. */
export async function listDashboards(
  db: TDbOrTrx,
  userId: string,
  page: TPageRequest,
): Promise<TPage<TDashboardRow>> {
  const rows = await db
    .selectFrom('dashboards')
    .selectAll()
    .select(pageAt('dashboards'))
    .where('user_id', '=', userId)
    .where(afterKey('dashboards', page.after, 'desc'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit);
}

/** `userId`'s dashboard `id`, or undefined when there is none of theirs. */
export async function findDashboard(
  db: TDbOrTrx,
  id: string,
  userId: string,
): Promise<TDashboardRow | undefined> {
  if (!isUuid(id)) return undefined;
  return db
    .selectFrom('dashboards')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Deletes `userId`'s dashboard `id`. Returns false when there is none (or it is someone else's). */
export async function deleteDashboard(db: TDbOrTrx, id: string, userId: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db
    .deleteFrom('dashboards')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
