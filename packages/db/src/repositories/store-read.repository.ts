import { sql } from 'kysely';
import type { TDb } from '../client';

/**
 * `store_reads`: the drift alarm of the store reader. The scraper records every store read of
 * an app (layout read, how the page went, the page fields found and missing, the error); the
 * admin's "Store data health" card reads the recent ones.
 */

/** What {@link insertStoreRead} stores. */
export interface TNewStoreReadInput {
  appId: string;
  storefront: string;
  appName: string | null;
  /** `ember`, `2025`, `jsonld`, `none` (no page read) or `unknown` (no parser recognised it). */
  layout: string;
  /** How the product page went: `ok`, `not_found`, `failed`, `skipped`. */
  pageStatus: string;
  /** Fields the page's layout carries that the page gave. */
  foundFields: string[];
  /** Fields the page's layout carries that the page lacked. */
  missingFields: string[];
  /** Why the page, or the whole read, failed; null when it did not. */
  error: string | null;
}

/** How long store reads are kept (days); older rows are deleted as new ones arrive. */
export const STORE_READS_KEPT_DAYS = 30;

/**
 * Stores one store read, and deletes the reads older than {@link STORE_READS_KEPT_DAYS} days
 * (an index range on `read_at`: usually nothing), so the table stays bounded.
 */
export async function insertStoreRead(db: TDb, input: TNewStoreReadInput): Promise<void> {
  await db
    .insertInto('store_reads')
    .values({
      app_id: input.appId,
      storefront: input.storefront,
      app_name: input.appName,
      layout: input.layout,
      page_status: input.pageStatus,
      found_fields: input.foundFields,
      missing_fields: input.missingFields,
      error: input.error,
    })
    .execute();
  await db
    .deleteFrom('store_reads')
    .where('read_at', '<', sql<Date>`now() - make_interval(days => ${STORE_READS_KEPT_DAYS})`)
    .execute();
}

/** The store data health of a period (see {@link readStoreHealth}). */
export interface TStoreHealthRows {
  since: Date;
  reads: number;
  byLayout: Array<{ layout: string; reads: number }>;
  /** Per field: reads whose page layout carries it (`expected`) and of those, reads that gave it. */
  fields: Array<{ field: string; found: number; expected: number }>;
  failures: Array<{
    appId: string;
    storefront: string;
    appName: string | null;
    layout: string;
    pageStatus: string;
    error: string;
    missingFields: string[];
    readAt: Date;
  }>;
}

/**
 * Store data health of the last `hours` hours (default 24, by the database clock): reads per
 * layout (most first), per field the share of reads whose page gave it among the reads whose
 * layout carries it, and the latest `failures` (default 10) reads that failed, newest first.
 */
export async function readStoreHealth(
  db: TDb,
  opts: { hours?: number; failures?: number } = {},
): Promise<TStoreHealthRows> {
  const hours = opts.hours ?? 24;
  const since = sql<Date>`now() - make_interval(hours => ${hours})`;
  const [{ since: sinceAt } = { since: new Date() }] = (
    await sql<{ since: Date }>`select ${since} as since`.execute(db)
  ).rows;
  const byLayout = await db
    .selectFrom('store_reads')
    .select(['layout', (eb) => eb.fn.countAll<string>().as('reads')])
    .where('read_at', '>', sinceAt)
    .groupBy('layout')
    .orderBy('reads', 'desc')
    .orderBy('layout')
    .execute();
  const fields = await sql<{ field: string; found: string; expected: string }>`
    select field, count(*) filter (where found) as found, count(*) as expected
    from (
      select unnest(found_fields) as field, true as found from store_reads where read_at > ${sinceAt}
      union all
      select unnest(missing_fields) as field, false as found from store_reads where read_at > ${sinceAt}
    ) per_field
    group by field
    order by field`.execute(db);
  const failures = await db
    .selectFrom('store_reads')
    .select([
      'app_id',
      'storefront',
      'app_name',
      'layout',
      'page_status',
      'error',
      'missing_fields',
      'read_at',
    ])
    .where('read_at', '>', sinceAt)
    .where('error', 'is not', null)
    .orderBy('read_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.failures ?? 10)
    .execute();
  const layouts = byLayout.map((r) => ({ layout: r.layout, reads: Number(r.reads) }));
  return {
    since: sinceAt,
    reads: layouts.reduce((n, r) => n + r.reads, 0),
    byLayout: layouts,
    fields: fields.rows.map((r) => ({
      field: r.field,
      found: Number(r.found),
      expected: Number(r.expected),
    })),
    failures: failures.map((r) => ({
      appId: r.app_id,
      storefront: r.storefront,
      appName: r.app_name,
      layout: r.layout,
      pageStatus: r.page_status,
      error: r.error ?? '',
      missingFields: r.missing_fields,
      readAt: r.read_at,
    })),
  };
}
