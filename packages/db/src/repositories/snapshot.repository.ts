import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TDbOrTrx } from './expiry.sql';
import type { TAppSnapshotRow } from '../schema';

/**
 * `app_snapshots` (docs/product.md#scrape-steps and #storage): every successful scrape of one app
 * in one storefront is a new row, so the table is both the scraper's cache (the latest reusable row
 * younger than the cache TTL is reused) and the app's history (consecutive rows of one page
 * language are compared field by field with `detectListingChanges` of @aso/appstore, see
 * listing-change.repository). Rows are read newest first by `(fetched_at desc, id desc)`, the order
 * of the `app_snapshots_lookup_idx` index; the id breaks ties between scrapes stored within the
 * same microsecond.
 */

/** What {@link insertSnapshot} stores. */
export interface TNewSnapshotInput {
  /** App id (digits). */
  appId: string;
  /** Two-letter storefront, lower case. */
  storefront: string;
  /** The listing's app name, kept in its own column for the admin cache list; null when unknown. */
  appName: string | null;
  /** When the store was read (ISO 8601 or Date): the listing's `fetchedAt`. */
  fetchedAt: string | Date;
  /** Product page layout the listing was read from (`ember`, `2025`, `jsonld`, `none`). */
  sourceLayout: string;
  /** The normalised listing (contracts `TAppListing`), stored as JSONB. */
  listing: Record<string, unknown>;
  /** The `?l=` page language the listing was read in; null or absent for the default. */
  language?: string | null;
}

/** Inserts one snapshot (a new history row; nothing is overwritten) and returns the row. */
export async function insertSnapshot(
  db: TDbOrTrx,
  input: TNewSnapshotInput,
): Promise<TAppSnapshotRow> {
  return db
    .insertInto('app_snapshots')
    .values({
      app_id: input.appId,
      storefront: input.storefront,
      app_name: input.appName,
      fetched_at: input.fetchedAt,
      source_layout: input.sourceLayout,
      listing: JSON.stringify(input.listing),
      language: input.language ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The latest reusable snapshot of app `appId` in `storefront` fetched less than
 * `maxAgeSeconds` ago (by the database clock), or null. `maxAgeSeconds` 0 never finds one (the
 * cache is off); a snapshot the admin's cache clear retired is never found. This is the
 * scraper's `cache_check` (`APP_CACHE_TTL`, default 24 h).
 */
export async function findFreshSnapshot(
  db: TDb,
  appId: string,
  storefront: string,
  maxAgeSeconds: number,
): Promise<TAppSnapshotRow | null> {
  if (!(maxAgeSeconds > 0)) return null;
  return (
    (await db
      .selectFrom('app_snapshots')
      .selectAll()
      .where('app_id', '=', appId)
      .where('storefront', '=', storefront)
      .where('reusable', '=', true)
      .where('fetched_at', '>', sql<Date>`now() - make_interval(secs => ${maxAgeSeconds})`)
      .orderBy('fetched_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

/**
 * The stored snapshots of app `appId` in `storefront`, newest first, at most `limit` (default
 * 50): the app's listing history.
 */
export async function listSnapshotHistory(
  db: TDb,
  appId: string,
  storefront: string,
  limit = 50,
): Promise<TAppSnapshotRow[]> {
  return db
    .selectFrom('app_snapshots')
    .selectAll()
    .where('app_id', '=', appId)
    .where('storefront', '=', storefront)
    .orderBy('fetched_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The latest two snapshots of an app, for `diffListings(previous.listing, latest.listing)`. */
export interface TSnapshotPair {
  latest: TAppSnapshotRow;
  /** The snapshot before `latest`; null when only one is stored. */
  previous: TAppSnapshotRow | null;
}

/**
 * The latest two snapshots of app `appId` in `storefront` (what changed
 * between the last two scrapes), or null when none is stored.
 */
export async function findLatestSnapshotPair(
  db: TDb,
  appId: string,
  storefront: string,
): Promise<TSnapshotPair | null> {
  const [latest, previous] = await listSnapshotHistory(db, appId, storefront, 2);
  return latest ? { latest, previous: previous ?? null } : null;
}

/**
 * The admin's "Clear Cache" (`DELETE /api/admin/cache/app/{appId}`): retires every stored
 * snapshot of app `appId` in every storefront from the cache, so the next audit of the app
 * reads the store again. The snapshots stay as the app's history (watched listings' timelines
 * and changes are never deleted by a cache clear). Returns how many cached snapshots were
 * retired (0 when none was reusable).
 */
export async function retireSnapshotsForApp(db: TDb, appId: string): Promise<number> {
  const res = await db
    .updateTable('app_snapshots')
    .set({ reusable: false })
    .where('app_id', '=', appId)
    .where('reusable', '=', true)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Snapshot `id` of app `appId` (any storefront), or null. */
export async function findSnapshot(
  db: TDb,
  appId: string,
  id: string,
): Promise<TAppSnapshotRow | null> {
  return (
    (await db
      .selectFrom('app_snapshots')
      .selectAll()
      .where('id', '=', id)
      .where('app_id', '=', appId)
      .executeTakeFirst()) ?? null
  );
}
