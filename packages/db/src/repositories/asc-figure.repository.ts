import { sql, type Transaction } from 'kysely';
import type { TDb } from '../client';
import type { TDatabase } from '../schema';
import type { TDbOrTrx } from './expiry.sql';

/*
 * Figures imported from App Store Connect reports: the report instances stored per app and the
 * figures of each day (each Date owned by one instance), and the sums the dashboard reads.
 */

/** Ids of the instances of an app already stored. */
export async function storedAscInstanceIds(
  db: TDbOrTrx,
  connectionId: string,
  appId: string,
): Promise<Set<string>> {
  const rows = await db
    .selectFrom('asc_instances')
    .select('instance_id')
    .where('connection_id', '=', connectionId)
    .where('app_id', '=', appId)
    .execute();
  return new Set(rows.map((r) => r.instance_id));
}

/** A figure to store (see `asc_figures`). */
export interface TAscFigureRow {
  date: string;
  measure: string;
  sourceType: string;
  territory: string;
  device: string;
  counts: number;
}

/**
 * Stores one instance of an app's report in one transaction, under an advisory lock per
 * (connection, app, report): `choose(owners)` gets the processing date of each Date's
 * current owner and returns the Dates this instance takes over; those Dates' figures are
 * deleted and replaced by the instance's, as a whole; the instance is recorded as stored.
 * Returns how many figures were written.
 */
export async function storeAscInstance(
  db: TDb,
  input: {
    connectionId: string;
    appId: string;
    kind: string;
    instanceId: string;
    processingDate: string;
    figures: readonly TAscFigureRow[];
  },
  choose: (owners: Map<string, string>, dates: string[]) => string[],
): Promise<number> {
  return db.transaction().execute(async (trx: Transaction<TDatabase>) => {
    const { connectionId, appId, kind } = input;
    await sql`select pg_advisory_xact_lock(hashtextextended(${`asc|${connectionId}|${appId}|${kind}`}, 0))`.execute(
      trx,
    );
    const dates = [...new Set(input.figures.map((f) => f.date))];
    const owners = new Map<string, string>();
    if (dates.length > 0) {
      const rows = await trx
        .selectFrom('asc_day_owners')
        .select(['date', 'processing_date'])
        .where('connection_id', '=', connectionId)
        .where('app_id', '=', appId)
        .where('kind', '=', kind)
        .where('date', 'in', dates)
        .execute();
      for (const r of rows) owners.set(r.date, r.processing_date);
    }
    const take = new Set(choose(owners, dates));
    let written = 0;
    if (take.size > 0) {
      await trx
        .deleteFrom('asc_figures')
        .where('connection_id', '=', connectionId)
        .where('app_id', '=', appId)
        .where('kind', '=', kind)
        .where('date', 'in', [...take])
        .execute();
      const rows = input.figures
        .filter((f) => take.has(f.date))
        .map((f) => ({
          connection_id: connectionId,
          app_id: appId,
          kind,
          date: f.date,
          measure: f.measure,
          source_type: f.sourceType,
          territory: f.territory,
          device: f.device,
          counts: f.counts,
        }));
      for (let i = 0; i < rows.length; i += 1000) {
        await trx
          .insertInto('asc_figures')
          .values(rows.slice(i, i + 1000))
          .execute();
      }
      written = rows.length;
      await trx
        .insertInto('asc_day_owners')
        .values(
          [...take].map((date) => ({
            connection_id: connectionId,
            app_id: appId,
            kind,
            date,
            instance_id: input.instanceId,
            processing_date: input.processingDate,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['connection_id', 'app_id', 'kind', 'date']).doUpdateSet((eb) => ({
            instance_id: eb.ref('excluded.instance_id'),
            processing_date: eb.ref('excluded.processing_date'),
          })),
        )
        .execute();
    }
    await trx
      .insertInto('asc_instances')
      .values({
        connection_id: connectionId,
        instance_id: input.instanceId,
        app_id: appId,
        kind,
        processing_date: input.processingDate,
        rows: input.figures.length,
      })
      .onConflict((oc) => oc.columns(['connection_id', 'instance_id']).doNothing())
      .execute();
    return written;
  });
}

/** One summed row of {@link sumAscFigures}. */
export interface TAscSumRow {
  date: string;
  kind: string;
  measure: string;
  source_type: string;
  counts: string;
}

/**
 * Sums of Counts per Date, report, measure and source type of an app between `from` and `to`
 * (inclusive, YYYY-MM-DD), over every territory and device unless filtered; only the
 * measures listed per report.
 */
export async function sumAscFigures(
  db: TDbOrTrx,
  q: {
    connectionId: string;
    appId: string;
    from: string;
    to: string;
    territory?: string | undefined;
    device?: string | undefined;
    measures: Record<string, readonly string[]>;
  },
): Promise<TAscSumRow[]> {
  let query = db
    .selectFrom('asc_figures')
    .select((eb) => [
      'date',
      'kind',
      'measure',
      'source_type',
      eb.fn.sum<string>('counts').as('counts'),
    ])
    .where('connection_id', '=', q.connectionId)
    .where('app_id', '=', q.appId)
    .where('date', '>=', q.from)
    .where('date', '<=', q.to)
    .where((eb) =>
      eb.or(
        Object.entries(q.measures).map(([kind, measures]) =>
          eb.and([eb('kind', '=', kind), eb('measure', 'in', [...measures])]),
        ),
      ),
    );
  if (q.territory) query = query.where('territory', '=', q.territory);
  if (q.device) query = query.where('device', '=', q.device);
  return query
    .groupBy(['date', 'kind', 'measure', 'source_type'])
    .orderBy('date')
    .orderBy('source_type')
    .execute();
}

/** The owners (processing dates) of an app's Dates between `from` and `to`, per report. */
export async function ascDayOwners(
  db: TDbOrTrx,
  q: { connectionId: string; appId: string; from: string; to: string },
): Promise<Array<{ date: string; kind: string; processing_date: string }>> {
  return db
    .selectFrom('asc_day_owners')
    .select(['date', 'kind', 'processing_date'])
    .where('connection_id', '=', q.connectionId)
    .where('app_id', '=', q.appId)
    .where('date', '>=', q.from)
    .where('date', '<=', q.to)
    .execute();
}

/** The territories and devices an app's figures have (the dashboard's filters). */
export async function ascDimensions(
  db: TDbOrTrx,
  connectionId: string,
  appId: string,
): Promise<{ territories: string[]; devices: string[] }> {
  const rows = await db
    .selectFrom('asc_figures')
    .select(['territory', 'device'])
    .distinct()
    .where('connection_id', '=', connectionId)
    .where('app_id', '=', appId)
    .limit(5000)
    .execute();
  return {
    territories: [...new Set(rows.map((r) => r.territory))].sort(),
    devices: [...new Set(rows.map((r) => r.device))].sort(),
  };
}

/**
 * What an app's imported figures are as of now: how many report instances are stored and
 * when the last was (a new import changes it). Saved dashboards on imported data fingerprint
 * their PDFs with it.
 */
export async function ascFiguresStamp(
  db: TDbOrTrx,
  connectionId: string,
  appId: string,
): Promise<{ instances: number; lastStoredAt: string | null }> {
  const row = await db
    .selectFrom('asc_instances')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.max('stored_at').as('last')])
    .where('connection_id', '=', connectionId)
    .where('app_id', '=', appId)
    .executeTakeFirstOrThrow();
  const last = row.last as Date | string | null;
  return {
    instances: Number(row.n),
    lastStoredAt: last === null ? null : new Date(last).toISOString(),
  };
}
