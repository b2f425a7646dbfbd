import { sql } from 'kysely';
import { QUEUES } from '@aso/queue';
import type { BenchSystem } from '../harness/bench.system';
import { FOUR_APP_AUDIT, RECORDED_APPS } from '../harness/audit.runner';
import { prefixMemory } from '../probes/redis.probe';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { BenchFailure, type TBenchResult } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** Jobs of one audit of {@link FOUR_APP_AUDIT}: the `analysis` parent and one `scrape` per app. */
const JOBS_PER_AUDIT = 1 + RECORDED_APPS.length;

/** App ids a keyword read stores at most (`limit=200` of the search request). */
const READ_APP_IDS = 200;

/**
 * Redis memory of the run's keys, and of the progress streams (with their guards), the
 * `analysis` queue and the `scrape` queue among them (bytes).
 */
async function redisBytes(
  system: BenchSystem,
): Promise<{ all: number; progress: number; analysis: number; scrape: number }> {
  const [all, progress, analysis, scrape] = await Promise.all(
    ['', ':progress', `:${QUEUES.analysis}`, `:${QUEUES.scrape}`].map((part) =>
      prefixMemory(system.redis, `${system.prefix}${part}`),
    ),
  );
  return {
    all: all!.bytes,
    progress: progress!.bytes,
    analysis: analysis!.bytes,
    scrape: scrape!.bytes,
  };
}

/** Waits until `ids` are all done (throws on a failed one or after `timeoutMs`). */
async function allDone(system: BenchSystem, ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await system.database.db
      .selectFrom('audits')
      .select(['id', 'status', 'error'])
      .where('id', 'in', ids)
      .execute();
    const failed = rows.find((r) => r.status === 'failed');
    if (failed) throw new BenchFailure(`audit ${failed.id} failed: ${failed.error}`);
    if (rows.filter((r) => r.status === 'done').length === ids.length) return;
    if (Date.now() > deadline)
      throw new BenchFailure(`${ids.length} audits were not done within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * `pnpm bench storage`: what one unit of work costs where it is kept, the figures of
 * docs/SCALING.md. Redis: `audits` audits of the 4 recorded apps submitted through the api while
 * the `scrape` and `analysis` queues are paused (MEMORY USAGE of the run's keys before and
 * after, per audit and per job), then run by one scraper and one analyzer to the end (the jobs
 * kept as completed, the progress streams and their guards). PostgreSQL: `keywordReads`
 * CONSTRUCTED keyword reads of 200 app ids each (the most a read stores), as bytes per row.
 */
export const storageBenchmark: TBenchmark = {
  name: 'storage',
  title: 'Storage per unit: Redis per queued and finished job, PostgreSQL per keyword read',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const { audits, keywordReads } = ctx.sizes.storage;
    const system = await ctx.system('storage', 0);
    await system.setStoreDelay(0);
    const figures = new FiguresBuilder();
    await system.ensureWorkers({ scraper: { count: 1 }, analyzer: { count: 1 } });
    const [user] = await system.users(1);
    // Redis: queued.
    await system.pauseQueue(QUEUES.scrape, true);
    await system.pauseQueue(QUEUES.analysis, true);
    const before = await redisBytes(system);
    const ids: string[] = [];
    try {
      for (let i = 0; i < audits; i++)
        ids.push((await system.api.analyze(user!.token, FOUR_APP_AUDIT)).id);
    } finally {
      await system.pauseQueue(QUEUES.scrape, false);
      await system.pauseQueue(QUEUES.analysis, false);
    }
    // Measured right after the resume: a job or two may have started, which changes little.
    const queued = await redisBytes(system);
    await allDone(system, ids, 20 * 60_000);
    // The terminal event is appended right after the result is written: give the last ones a moment.
    await new Promise((r) => setTimeout(r, 1_000));
    const done = await redisBytes(system);
    const perAudit = (bytes: number) => Math.max(0, bytes) / audits / 1000;
    figures.add(
      'queued.audit',
      `Redis per queued audit (${JOBS_PER_AUDIT} jobs: analysis parent + ${RECORDED_APPS.length} scrapes)`,
      'KB',
      perAudit(queued.all - before.all),
    );
    figures.add(
      'queued.job',
      'Redis per queued job',
      'KB',
      perAudit(queued.all - before.all) / JOBS_PER_AUDIT,
    );
    figures.add(
      'done.audit',
      'Redis per finished audit (its jobs kept as completed, its progress stream and guard)',
      'KB',
      perAudit(done.all - before.all),
    );
    figures.add(
      'done.jobs',
      'Redis per finished audit: its jobs kept as completed',
      'KB',
      perAudit(done.all - done.progress - (before.all - before.progress)),
    );
    figures.add(
      'done.job',
      'Redis per finished job (kept as completed)',
      'KB',
      perAudit(done.all - done.progress - (before.all - before.progress)) / JOBS_PER_AUDIT,
    );
    figures.add(
      'done.analysis',
      "Redis per finished analysis job (the parent, with its children's results)",
      'KB',
      perAudit(done.analysis - before.analysis),
    );
    figures.add(
      'done.scrape',
      "Redis per finished scrape job (its result is the app's listing)",
      'KB',
      perAudit(done.scrape - before.scrape) / RECORDED_APPS.length,
    );
    figures.add(
      'done.progress',
      'Redis per finished audit: its progress stream and terminal guard',
      'KB',
      perAudit(done.progress - before.progress),
    );

    // PostgreSQL: keyword reads of 200 ids (CONSTRUCTED: random ids of store-like magnitude).
    const db = system.database.db;
    const term = await db
      .insertInto('keyword_terms')
      .values({ term: `bench storage ${Date.now()}`, storefront: 'us' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sizeOf = async () =>
      Number(
        (
          await sql<{
            total: string;
          }>`select pg_total_relation_size('keyword_reads') as total`.execute(db)
        ).rows[0]!.total,
      );
    const tableBefore = await sizeOf();
    for (let done = 0; done < keywordReads; done += 500) {
      const n = Math.min(500, keywordReads - done);
      await sql`
        insert into keyword_reads (term_id, source, result_count, app_ids)
        select ${term.id}, 'itunes-search', ${READ_APP_IDS},
               -- "where g > 0" ties the ids to the outer row: new random ids for every read.
               array(select (300000000 + floor(random() * 1500000000))::bigint
                     from generate_series(1, ${READ_APP_IDS}) where g > 0)
        from generate_series(1, ${n}) as g`.execute(db);
    }
    const tuple = await sql<{ bytes: number }>`
      select avg(pg_column_size(r.*))::float8 as bytes from keyword_reads r
      where term_id = ${term.id}`.execute(db);
    figures.add(
      'keyword.tuple',
      `PostgreSQL per keyword read of ${READ_APP_IDS} app ids: row data (pg_column_size)`,
      'KB',
      tuple.rows[0]!.bytes / 1000,
    );
    figures.add(
      'keyword.total',
      `PostgreSQL per keyword read of ${READ_APP_IDS} app ids: table and index growth / rows`,
      'KB',
      Math.max(0, (await sizeOf()) - tableBefore) / keywordReads / 1000,
    );
    await db.deleteFrom('keyword_terms').where('id', '=', term.id).execute();

    return {
      name: 'storage',
      title: this.title,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      runs: 1,
      setup: [
        `Redis: ${audits} audits of the 4 recorded apps (${JOBS_PER_AUDIT} jobs each) submitted through the api while the scrape and analysis queues were paused, then run by 1 scraper and 1 heuristic analyzer (store delay 0) until all were done; MEMORY USAGE (SAMPLES 0) of every key of the run's prefix before, queued and finished, divided by the audits. Completed jobs are kept an hour, at most 1,000 per queue; progress streams 24 h.`,
        `PostgreSQL: ${keywordReads} CONSTRUCTED keyword reads of ${READ_APP_IDS} app ids (random bigints) inserted into keyword_reads; pg_column_size of the rows, and pg_total_relation_size (table, its index and TOAST) growth divided by the rows.`,
      ],
      figures: figures.build(),
      tables: [],
      targets: [],
      findings: [
        `A queued audit holds ${formatValue(figures.median('queued.audit'), 'KB')} of Redis; finished, ${formatValue(figures.median('done.audit'), 'KB')} while its jobs are kept, of which ${formatValue(figures.median('done.progress'), 'KB')} is its progress stream.`,
      ],
    };
  },
};
