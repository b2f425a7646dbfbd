import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startReplayServer } from '@aso/appstore/node';
import { Producers, QUEUES } from '@aso/queue';
import { REPO_ROOT } from '../harness/service.process';
import type { BenchSystem } from '../harness/bench.system';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { BenchFailure, type TBenchResult } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** The project's constructed recordings of one invented app (packages/appstore/test/recordings). */
const CONSTRUCTED_DIR = join(REPO_ROOT, 'packages/appstore/test/recordings');
const CONSTRUCTED_ID = '6450000001';
const CONSTRUCTED_DAY = '2026-05-01';
/** First id of the invented apps the benchmark watches (CONSTRUCTED copies of that app). */
const FIRST_ID = 6_460_000_000;

/** Target: one round of 1,000 watched listings is read well within the watch interval. */
const ROUND_TARGET_S = 600;

/**
 * Writes `count` CONSTRUCTED apps into `dir`: the invented app's lookup and product page of one
 * day, with the app id replaced, so every watched listing is a store read of its own.
 */
function writeApps(dir: string, count: number): string[] {
  mkdirSync(dir, { recursive: true });
  const sources = readdirSync(CONSTRUCTED_DIR).filter(
    (f) => f.startsWith('constructed-') && f.includes(`_id${CONSTRUCTED_ID}_${CONSTRUCTED_DAY}`),
  );
  if (sources.length === 0)
    throw new BenchFailure(`no constructed recordings in ${CONSTRUCTED_DIR}`);
  const texts = sources.map((f) => [f, readFileSync(join(CONSTRUCTED_DIR, f), 'utf8')] as const);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = String(FIRST_ID + i);
    ids.push(id);
    for (const [file, text] of texts) {
      writeFileSync(
        join(dir, file.replaceAll(CONSTRUCTED_ID, id)),
        text.replaceAll(CONSTRUCTED_ID, id),
      );
    }
  }
  return ids;
}

async function readsDone(system: BenchSystem, since: Date): Promise<number> {
  const { n } = await system.database.db
    .selectFrom('watch_targets')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('last_checked_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Resolves once the scrape queue holds no waiting, prioritized or active job. */
async function scrapeQueueIdle(producers: Producers): Promise<void> {
  const queue = producers.queue(QUEUES.scrape);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'active');
    if (Object.values(counts).every((n) => n === 0)) return;
    if (Date.now() > deadline)
      throw new BenchFailure(`the scrape queue stayed busy: ${JSON.stringify(counts)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs one round over every target due now and waits until each was read (ms). */
async function round(system: BenchSystem, producers: Producers, count: number): Promise<number> {
  const t0 = new Date();
  await system.database.db.updateTable('watch_targets').set({ next_check_at: t0 }).execute();
  const started = performance.now();
  await producers.add('watch-round', {}, { jobId: `bench-round-${t0.getTime()}` });
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const done = await readsDone(system, t0);
    if (done >= count) return performance.now() - started;
    if (Date.now() > deadline)
      throw new BenchFailure(`only ${done} of ${count} listings were read`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `pnpm bench watch`: one scheduler round of `sizes.watch.apps` watched listings (distinct
 * CONSTRUCTED apps, one store read each) against the replay server, with one scraper process
 * at its default concurrency and rate limit; the baseline is a round of one listing in the
 * same run. Also measures the stored bytes per snapshot and per watched listing.
 */
export const watchBenchmark: TBenchmark = {
  name: 'watch',
  title: 'Watched listings: one scheduler round',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const { apps, runs } = ctx.sizes.watch;
    const system = await ctx.system('watch', 0);
    const replayDir = join(ctx.workDir, 'watch-recordings');
    const ids = writeApps(replayDir, apps);
    const replay = await startReplayServer({ port: 0, fixturesDir: replayDir });
    const producers = new Producers(system.redis, system.prefix);
    try {
      await system.ensureWorkers({
        scraper: {
          count: 1,
          env: {
            ITUNES_ORIGIN: replay.url,
            APP_STORE_ORIGIN: replay.url,
            // Rounds are started by the benchmark, not the scheduler.
            WATCH_ROUND_EVERY_MS: '86400000',
          },
        },
      });
      // The scheduler's first watch and keyword rounds run as the scraper starts: let them
      // finish before the targets are set up, so no read but the benchmark's own is counted.
      await scrapeQueueIdle(producers);
      const db = system.database.db;
      await db.deleteFrom('watch_targets').execute();
      const insert = (list: string[]) =>
        db
          .insertInto('watch_targets')
          .values(
            list.map((id) => ({
              app_id: id,
              storefront: 'us',
              language: null,
              app_store_url: `https://apps.apple.com/us/app/calm-notes-journal-mood/id${id}`,
            })),
          )
          .execute();
      const figures = new FiguresBuilder();
      const baseline: number[] = [];
      await insert(ids.slice(0, 1));
      for (let r = 0; r < runs; r++) baseline.push(await round(system, producers, 1));
      await db.deleteFrom('watch_targets').execute();
      await insert(ids);
      const storeRequests = replay.requestCount;
      for (let r = 0; r < runs; r++) {
        figures.add(
          'round',
          `round of ${apps} listings`,
          's',
          (await round(system, producers, apps)) / 1000,
        );
      }
      figures.baseline(
        'round',
        'round of 1 listing',
        baseline.map((ms) => ms / 1000),
      );
      const roundS = figures.median('round');
      figures.add('rate', 'listings read per second', 'count', apps / roundS);
      const snap = await db
        .selectFrom('app_snapshots')
        .select((eb) => [
          eb.fn.avg<string>(eb.fn<number>('pg_column_size', [eb.ref('listing')])).as('bytes'),
          eb
            .selectFrom('store_reads')
            .select((e) => e.fn.countAll<string>().as('n'))
            .where('app_id', 'in', ids)
            .as('reads'),
        ])
        .where('app_id', 'in', ids)
        .executeTakeFirstOrThrow();
      // One read per listing per round: apps x runs, plus the baseline's rounds of one.
      if (Number(snap.reads) !== apps * runs + runs) {
        throw new BenchFailure(`expected ${apps * runs + runs} store reads, found ${snap.reads}`);
      }
      figures.add(
        'snapshot',
        'bytes per stored snapshot listing (constructed app)',
        'KB',
        Number(snap.bytes) / 1000,
      );
      return {
        name: 'watch',
        title: this.title,
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        runs,
        setup: [
          `${apps} watched listings: CONSTRUCTED copies of the invented app of packages/appstore/test/recordings (one lookup and one product page each, distinct ids), so each is a store read of its own.`,
          'Processes: api (idle), 1 scraper at its defaults (CONCURRENCY 8, SCRAPE_RATE_LIMIT 50/s), replay server in the benchmark process without delay.',
          `A round: all targets due, one watch-round job added; timed until every target's last read is recorded. ${replay.requestCount - storeRequests} store requests for the measured rounds.`,
        ],
        figures: figures.build(),
        tables: [],
        targets: [
          {
            target: `a round of ${apps} listings under ${ROUND_TARGET_S} s`,
            measured: `median ${formatValue(roundS, 's')}`,
            met: roundS < ROUND_TARGET_S,
          },
        ],
        findings: [
          `Each round read every listing once (${snap.reads} store reads recorded for ${apps} listings over ${runs} round(s) and the baseline).`,
        ],
      };
    } finally {
      await system.stopWorkers();
      await replay.close();
      await producers.close();
    }
  },
};
