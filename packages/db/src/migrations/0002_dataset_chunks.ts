/* eslint-disable @typescript-eslint/no-explicit-any -- migrations work on an untyped Kysely<any> (kysely docs) */
import { stringify } from 'csv-stringify/sync';
import { sql, type Kysely } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
//
// CSV merge in bounded memory: a dataset's rows move from one JSONB array of keyed objects
// (`datasets.rows`, 8x the size of the data, beyond PostgreSQL's JSONB limit for two 20 MB
// exports) to `dataset_chunks`: slices of the rows, in order, each a JSON array of rows, each
// row an array of values aligned with `datasets.headers`. The processed CSV is no longer
// stored (`datasets.processed_csv`): the download renders it from the chunks. `merge_key`
// names the uploads a dataset was merged from (unique), so a merge job that runs twice stores
// one dataset.
//
// Datasets stored in the old layout become one chunk each (seq 0, bounded by the dataset's
// own date_start/date_end), holding the same values in the same order.
//
// Uploads are stored uncompressed from now on (`storage external`; rows stored before keep
// theirs): compressing two 20 MB uploads with pglz took most of a second of the upload's
// 5 s, and the merge worker reads an upload in 1 MB slices, each of which PostgreSQL can only
// cut from a compressed value by decompressing everything before it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dataset_chunks')
    .addColumn('dataset_id', 'uuid', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer', (c) => c.notNull().check(sql`seq >= 0`))
    .addColumn('first_day', 'date')
    .addColumn('last_day', 'date')
    .addColumn('row_count', 'integer', (c) => c.notNull().check(sql`row_count >= 0`))
    // json, not jsonb: stored and returned as written (no re-encoding on write or read), and
    // compressed with lz4, much faster than the default pglz for tens of MB per dataset.
    .addColumn('rows', sql`json compression lz4`, (c) => c.notNull())
    .addPrimaryKeyConstraint('dataset_chunks_pkey', ['dataset_id', 'seq'])
    .execute();

  await sql`
    insert into dataset_chunks (dataset_id, seq, first_day, last_day, row_count, rows)
    select d.id, 0, d.date_start, d.date_end, jsonb_array_length(d.rows),
      (select json_agg(
                (select coalesce(json_agg(coalesce(r.value -> h.name, 'null'::jsonb) order by h.ord),
                                 '[]'::json)
                   from jsonb_array_elements_text(d.headers) with ordinality as h(name, ord))
                order by r.ord)
         from jsonb_array_elements(d.rows) with ordinality as r(value, ord))
    from datasets d
    where jsonb_typeof(d.rows) = 'array' and jsonb_array_length(d.rows) > 0
  `.execute(db);

  await db.schema
    .alterTable('datasets')
    .addColumn('merge_key', 'text', (c) => c.unique())
    .execute();
  await db.schema.alterTable('datasets').dropColumn('rows').dropColumn('processed_csv').execute();
  await sql`alter table uploads alter column content set storage external`.execute(db);
}

/** The formula escape of the processed CSV as of this migration (spec section 5). */
function escapeFormulaText(text: string): string {
  if (!/^[=+\-@\t\r]/.test(text) || /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) {
    return text;
  }
  return `'${text}`;
}

function cellText(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return typeof value === 'string' ? escapeFormulaText(value) : '';
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table uploads alter column content set storage extended`.execute(db);
  await db.schema
    .alterTable('datasets')
    .addColumn('rows', 'jsonb')
    .addColumn('processed_csv', 'text')
    .execute();

  // Rows back to objects keyed by header (PostgreSQL fails the migration when a dataset is
  // beyond JSONB's size limit: such a dataset cannot be stored in the old layout).
  await sql`
    update datasets d set rows = coalesce(
      (select jsonb_agg(
                (select coalesce(jsonb_object_agg(h.name, coalesce((e.value -> (h.ord::int - 1))::jsonb,
                                                                   'null'::jsonb)),
                                 '{}'::jsonb)
                   from jsonb_array_elements_text(d.headers) with ordinality as h(name, ord))
                order by c.seq, e.ord)
         from dataset_chunks c, json_array_elements(c.rows) with ordinality as e(value, ord)
        where c.dataset_id = d.id),
      '[]'::jsonb)
  `.execute(db);

  // The processed CSV, as the merge worker wrote it before this migration.
  const datasets = await db.selectFrom('datasets').select(['id', 'headers']).execute();
  for (const dataset of datasets) {
    const headers = dataset.headers as string[];
    const records: string[][] = [headers.map(escapeFormulaText)];
    const chunks = await db
      .selectFrom('dataset_chunks')
      .select('rows')
      .where('dataset_id', '=', dataset.id)
      .orderBy('seq')
      .execute();
    for (const chunk of chunks) {
      for (const row of chunk.rows as unknown[][]) {
        records.push(headers.map((_, i) => cellText(row[i])));
      }
    }
    await db
      .updateTable('datasets')
      .set({ processed_csv: stringify(records) })
      .where('id', '=', dataset.id)
      .execute();
  }

  await db.schema.alterTable('datasets').dropColumn('merge_key').execute();
  await sql`alter table datasets alter column rows set not null, alter column processed_csv set not null`.execute(
    db,
  );
  await db.schema.dropTable('dataset_chunks').execute();
}
