import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TAppSnapshotRow, TListingChangeRow } from '../schema';
import type { TDbOrTrx } from './expiry.sql';

/**
 * `listing_changes`: the history of a listing as the fields that differ between each snapshot
 * and the one before it of the same app, storefront and page language (detected by
 * `detectListingChanges` of @aso/appstore). A snapshot's changes are stored once (unique per
 * snapshot and field), so a retried job stores nothing twice.
 */

/** One detected change of a snapshot, for {@link insertListingChanges}. */
export interface TNewListingChange {
  field: string;
  before: unknown;
  after: unknown;
  detail: Record<string, unknown> | null;
}

/**
 * Takes the per-listing lock of app `appId` in `storefront` and page language `language` for
 * the rest of transaction `trx` (a PostgreSQL advisory lock), so two snapshots of one listing
 * stored at once (an audit's scrape and a scheduled read) are compared one after the other,
 * each with the one before it.
 */
export async function lockListing(
  trx: TDbOrTrx,
  appId: string,
  storefront: string,
  language: string | null,
): Promise<void> {
  const key = `listing:${appId}:${storefront}:${language ?? ''}`;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

/**
 * The snapshot stored before `snapshot` of the same app, storefront and page language (by
 * `(fetched_at, id)`), or null when it is the first.
 */
export async function findPreviousSnapshot(
  db: TDbOrTrx,
  snapshot: Pick<TAppSnapshotRow, 'id' | 'app_id' | 'storefront' | 'language' | 'fetched_at'>,
): Promise<TAppSnapshotRow | null> {
  return (
    (await db
      .selectFrom('app_snapshots')
      .selectAll()
      .where('app_id', '=', snapshot.app_id)
      .where('storefront', '=', snapshot.storefront)
      .where(sql<boolean>`language is not distinct from ${snapshot.language}`)
      .where(sql<boolean>`(fetched_at, id) < (${snapshot.fetched_at}, ${snapshot.id}::bigint)`)
      .orderBy('fetched_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Stores the changes found between `previous` and `snapshot` (nothing for an empty list; a
 * change already stored for the snapshot and field is kept). Returns the rows inserted.
 */
export async function insertListingChanges(
  db: TDbOrTrx,
  snapshot: Pick<TAppSnapshotRow, 'id' | 'app_id' | 'storefront' | 'language' | 'fetched_at'>,
  previous: Pick<TAppSnapshotRow, 'id' | 'fetched_at'>,
  changes: readonly TNewListingChange[],
): Promise<TListingChangeRow[]> {
  if (changes.length === 0) return [];
  return db
    .insertInto('listing_changes')
    .values(
      changes.map((c) => ({
        app_id: snapshot.app_id,
        storefront: snapshot.storefront,
        language: snapshot.language,
        snapshot_id: snapshot.id,
        previous_snapshot_id: previous.id,
        detected_at: snapshot.fetched_at,
        previous_at: previous.fetched_at,
        field: c.field,
        before: JSON.stringify(c.before ?? null),
        after: JSON.stringify(c.after ?? null),
        detail: c.detail === null ? null : JSON.stringify(c.detail),
      })),
    )
    .onConflict((oc) => oc.columns(['snapshot_id', 'field']).doNothing())
    .returningAll()
    .execute();
}

/**
 * The stored changes of app `appId` in `storefront` and page language `language`, newest
 * snapshot first (then by id, the detection order), at most `limit` (default 1,000).
 */
export async function listListingChanges(
  db: TDb,
  appId: string,
  storefront: string,
  language: string | null,
  limit = 1_000,
): Promise<TListingChangeRow[]> {
  return db
    .selectFrom('listing_changes')
    .selectAll()
    .where('app_id', '=', appId)
    .where('storefront', '=', storefront)
    .where(sql<boolean>`language is not distinct from ${language}`)
    .orderBy('detected_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** What a history shows of a snapshot: its columns and the listing fields charted over time. */
export interface TSnapshotSummaryRow {
  id: string;
  fetchedAt: Date;
  appName: string | null;
  sourceLayout: string;
  /**
   * The listing's `appName`, `iconUrl`, `rating`, `reviewCount`, `chartPosition`,
   * `categoryRank`, `version`, `unknownFields` and `storeData.fields` (what tells a field
   * unread from empty), as stored.
   */
  fields: Record<string, unknown>;
}

/**
 * The snapshots of app `appId` in `storefront` and page language `language`, oldest first, the
 * latest `limit` (default 400, more than a year of daily reads), without their full listings.
 */
export async function listSnapshotSummaries(
  db: TDb,
  appId: string,
  storefront: string,
  language: string | null,
  limit = 400,
): Promise<TSnapshotSummaryRow[]> {
  const rows = await db
    .selectFrom('app_snapshots')
    .select([
      'id',
      'fetched_at as fetchedAt',
      'app_name as appName',
      'source_layout as sourceLayout',
      sql<Record<string, unknown>>`jsonb_build_object(
        'appName', listing->'appName', 'iconUrl', listing->'iconUrl',
        'rating', listing->'rating', 'reviewCount', listing->'reviewCount',
        'chartPosition', listing->'chartPosition', 'categoryRank', listing->'categoryRank',
        'version', listing->'version', 'unknownFields', coalesce(listing->'unknownFields', '[]'),
        'storeData', case when listing->'storeData' is null then null
          else jsonb_build_object('fields', listing->'storeData'->'fields') end
      )`.as('fields'),
    ])
    .where('app_id', '=', appId)
    .where('storefront', '=', storefront)
    .where(sql<boolean>`language is not distinct from ${language}`)
    .orderBy('fetched_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}
