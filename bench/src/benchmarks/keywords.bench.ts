import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { startReplayServer, type TReplayServer } from '@aso/appstore/node';
import { Producers } from '@aso/queue';
import type { BenchSystem } from '../harness/bench.system';
import { createUsers } from '../harness/bench.users';
import { BackendCpu } from '../probes/backend-cpu';
import { ProcessSampler } from '../probes/process.sampler';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { BenchFailure, type TBenchResult } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** Storefronts the pairs are spread over. */
const STOREFRONTS = ['us', 'gb', 'de', 'jp'] as const;
/** First id of the invented apps of the CONSTRUCTED answers. */
const FIRST_ID = 6_470_000_000;
/** Search reads per window the scrapers are allowed (`ITUNES_SEARCH_RATE_PER_MIN`, the default). */
const RATE = 20;
/** Apple's window, ms: the scale the shortened run stands for. */
const REAL_WINDOW_MS = 60_000;
/** Reads a tracked pair gets a year at the default `KEYWORD_INTERVAL` (a day). */
const READS_PER_YEAR = 365;

/** The spacing of two reads the limiter enforces (ms): the scraper's `searchLimiter`. */
const spacingMs = (windowMs: number) => Math.ceil((windowMs / RATE) * 1.05);

/** The tracked app of pair `i` and its rank in the answer (null: not in the 200). */
function placement(i: number): { appId: string; rank: number | null } {
  const rank = i % 10 === 9 ? null : ((i * 37) % 200) + 1;
  return { appId: String(FIRST_ID + i), rank };
}

/**
 * A CONSTRUCTED iTunes Search API answer of 200 iOS apps (three leading blank lines, Apple's
 * shape) in which the tracked app of pair `i` sits at its rank; the other results are invented
 * apps with invented figures.
 */
function constructedAnswer(i: number, term: string): string {
  const { appId, rank } = placement(i);
  const results = Array.from({ length: 200 }, (_, p) => {
    const id = rank === p + 1 ? appId : String(6_480_000_000 + ((i * 200 + p) % 50_000));
    return {
      wrapperType: 'software',
      kind: 'software',
      trackId: Number(id),
      trackName: rank === p + 1 ? `Tracked app ${i}` : `Constructed ${term} app ${p + 1}`,
      artistName: `Constructed Dev ${p % 17}`,
      artworkUrl100: `https://is1-ssl.mzstatic.com/image/thumb/constructed/${id}/100x100bb.jpg`,
      averageUserRating: 3 + ((p * 7) % 20) / 10,
      userRatingCount: Math.round(500_000 / (p + 1)),
      releaseDate: `20${String(12 + (p % 12)).padStart(2, '0')}-03-15T07:00:00Z`,
      currentVersionReleaseDate: `2026-0${1 + (p % 5)}-10T07:00:00Z`,
      primaryGenreName: 'Utilities',
    };
  });
  return `\n\n\n${JSON.stringify({ resultCount: results.length, results })}\n`;
}

/** The (term, storefront) pairs of the round. */
function pairs(count: number): Array<{ term: string; storefront: string }> {
  return Array.from({ length: count }, (_, i) => ({
    term: `bench term ${Math.floor(i / STOREFRONTS.length)}`,
    storefront: STOREFRONTS[i % STOREFRONTS.length]!,
  }));
}

/** Writes the CONSTRUCTED answers of every pair into `dir` (file names the replay server matches). */
function writeAnswers(dir: string, list: ReturnType<typeof pairs>): void {
  mkdirSync(dir, { recursive: true });
  list.forEach(({ term, storefront }, i) => {
    const slug = term.replace(/\s+/g, '-');
    writeFileSync(
      join(dir, `constructed-itunes-search_${storefront}_term-${slug}_2026-06-01.json`),
      constructedAnswer(i, term),
    );
  });
}

/** Most requests of `times` (epoch ms, sorted) inside any window of `windowMs`. */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

async function tableBytes(system: BenchSystem, table: string): Promise<number> {
  const row = await sql<{
    n: string;
  }>`select pg_total_relation_size(${table}::regclass) as n`.execute(system.database.db);
  return Number(row.rows[0]!.n);
}

/** Runs one keyword round over every tracked pair and waits until each was read (ms). */
async function round(system: BenchSystem, producers: Producers, count: number): Promise<number> {
  const db = system.database.db;
  const t0 = new Date();
  await db.updateTable('keyword_terms').set({ next_check_at: t0 }).execute();
  const started = performance.now();
  await producers.add('keyword-round', {}, { jobId: `bench-keyword-round-${t0.getTime()}` });
  const deadline = Date.now() + 60 * 60_000;
  for (;;) {
    const { n } = await db
      .selectFrom('keyword_terms')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('last_checked_at', '>=', t0)
      .executeTakeFirstOrThrow();
    if (Number(n) >= count) return performance.now() - started;
    if (Date.now() > deadline) throw new BenchFailure(`only ${n} of ${count} pairs were read`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Tracks every pair for its app (one user), due now, as a user's POST /api/keywords would. */
async function track(
  system: BenchSystem,
  list: ReturnType<typeof pairs>,
  userId: string,
): Promise<void> {
  const db = system.database.db;
  await db.deleteFrom('keyword_terms').execute();
  const terms = await db
    .insertInto('keyword_terms')
    .values(list.map((p) => ({ term: p.term, storefront: p.storefront })))
    .returning(['id', 'term', 'storefront'])
    .execute();
  const index = new Map(list.map((p, i) => [`${p.storefront}:${p.term}`, i]));
  await db
    .insertInto('keyword_tracks')
    .values(
      terms.map((t) => ({
        user_id: userId,
        term_id: t.id,
        app_id: placement(index.get(`${t.storefront}:${t.term}`)!).appId,
        storefront: t.storefront,
      })),
    )
    .execute();
}

/**
 * `pnpm bench keywords`: one keyword round of `sizes.keywords.pairs` tracked (term,
 * storefront) pairs against the replay server (CONSTRUCTED answers of 200 apps each), with two
 * scraper processes sharing the search limiter at its default rate (20 reads per window) over
 * a window shortened to `sizes.keywords.windowMs` so the round takes minutes; the baseline is
 * the time the limiter allows for the round (pairs x its spacing). Measures the most search
 * requests the server saw in any window, the scrapers' and PostgreSQL's CPU per read, the bytes
 * stored per read and the growth of PostgreSQL per 1,000 tracked pairs a year.
 */
export const keywordsBenchmark: TBenchmark = {
  name: 'keywords',
  title: 'Keyword ranks: one search round under the rate limit',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const { pairs: count, windowMs } = ctx.sizes.keywords;
    const system = await ctx.system('keywords', 0);
    const list = pairs(count);
    const replayDir = join(ctx.workDir, 'keyword-recordings');
    writeAnswers(replayDir, list);
    let replay: TReplayServer | null = null;
    const producers = new Producers(system.redis, system.prefix);
    try {
      replay = await startReplayServer({
        port: 0,
        fixturesDir: replayDir,
        keepRequests: count * 2 + 100,
      });
      const scrapers = await system.ensureWorkers({
        scraper: {
          count: 2,
          env: {
            ITUNES_ORIGIN: replay.url,
            APP_STORE_ORIGIN: replay.url,
            ITUNES_SEARCH_RATE_PER_MIN: String(RATE),
            ITUNES_SEARCH_WINDOW_MS: String(windowMs),
            // Rounds are started by the benchmark, not the schedulers.
            KEYWORD_ROUND_EVERY_MS: '86400000',
            WATCH_ROUND_EVERY_MS: '86400000',
          },
        },
      });
      const [user] = await createUsers(system.api, system.adminCode, 1);
      const { id: userId } = await system.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', user!.email)
        .executeTakeFirstOrThrow();
      await track(system, list, userId);
      const readsBytes0 = await tableBytes(system, 'keyword_reads');
      const before = replay.requestCount;
      const sampler = new ProcessSampler(
        scrapers.map((s, i) => ({ name: `scraper-${i + 1}`, pid: s.pid })),
      ).start();
      const backends = await new BackendCpu(system).start();
      const roundMs = await round(system, producers, count);
      const usage = sampler.stop();
      const pgCpuS = await backends.stop();
      const searches = replay.requests
        .slice(-(replay.requestCount - before))
        .filter((r) => r.path === '/search')
        .map((r) => r.at)
        .sort((a, b) => a - b);
      if (searches.length !== count) {
        throw new BenchFailure(
          `expected ${count} search requests, the server saw ${searches.length}`,
        );
      }
      const db = system.database.db;
      const stored = await db
        .selectFrom('keyword_reads')
        .select((eb) => [
          eb.fn.countAll<string>().as('reads'),
          eb.fn.avg<string>(sql<number>`pg_column_size(keyword_reads.*)`).as('rowBytes'),
        ])
        .executeTakeFirstOrThrow();
      if (Number(stored.reads) !== count) {
        throw new BenchFailure(`expected ${count} stored reads, found ${stored.reads}`);
      }
      // Every rank as constructed: the tracked app at its place, or absent.
      const wrong = await sql<{ n: string }>`
        select count(*) as n from keyword_tracks k
        join keyword_reads r on r.term_id = k.term_id
        join keyword_terms t on t.id = k.term_id
        where coalesce(array_position(r.app_ids, k.app_id::bigint), 0) <>
          coalesce(case when (k.app_id::bigint - ${FIRST_ID}) % 10 = 9 then 0
                   else ((k.app_id::bigint - ${FIRST_ID}) * 37) % 200 + 1 end, 0)
      `.execute(db);
      if (Number(wrong.rows[0]!.n) !== 0) {
        throw new BenchFailure(`${wrong.rows[0]!.n} ranks differ from the constructed answers`);
      }
      const readsBytes = (await tableBytes(system, 'keyword_reads')) - readsBytes0;

      const limitS = (count * spacingMs(windowMs)) / 1000;
      const figures = new FiguresBuilder();
      figures.add('round', `round of ${count} pairs, 2 scrapers`, 's', roundMs / 1000);
      figures.baseline(
        'round',
        `the limiter's time for ${count} reads (${spacingMs(windowMs)} ms apart)`,
        [limitS],
      );
      const most = maxInWindow(searches, windowMs);
      figures.add(
        'window',
        `most search requests the server saw in any ${windowMs} ms`,
        'count',
        most,
      );
      figures.baseline('window', `the limit (ITUNES_SEARCH_RATE_PER_MIN) per window`, [RATE]);
      const scraperCpuS = usage.reduce((sum, u) => sum + u.cpuSeconds, 0);
      const scraperMsPerRead = (scraperCpuS * 1000) / count;
      const pgMsPerRead = pgCpuS === null ? null : (pgCpuS * 1000) / count;
      figures.add('cpu', 'scraper CPU per read (2 processes)', 'ms', scraperMsPerRead);
      if (pgMsPerRead !== null) {
        figures.add('pgcpu', 'PostgreSQL backend CPU per read', 'ms', pgMsPerRead);
      }
      figures.add(
        'row',
        'bytes per stored read (row, 200 ids)',
        'KB',
        Number(stored.rowBytes) / 1000,
      );
      figures.add(
        'bytes',
        'keyword_reads growth per read (table and indexes)',
        'KB',
        readsBytes / count / 1000,
      );
      const growthMb = ((readsBytes / count) * 1000 * READS_PER_YEAR) / 1e6;
      figures.add(
        'growth',
        'PostgreSQL growth per 1,000 tracked pairs per year (daily reads)',
        'MB',
        growthMb,
      );
      const realRoundMin = (count * spacingMs(REAL_WINDOW_MS)) / 60_000;
      const cpuMsPerRead = scraperMsPerRead + (pgMsPerRead ?? 0);
      const roundS = figures.median('round');
      return {
        name: 'keywords',
        title: this.title,
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        runs: 1,
        setup: [
          `${count} tracked (term, storefront) pairs (${count / STOREFRONTS.length} terms x ${STOREFRONTS.join(', ')}), one user's app each; CONSTRUCTED search answers of 200 invented apps with the tracked app at a known rank (every tenth absent), served by the replay server in the benchmark process without delay.`,
          `Processes: api (idle), 2 scrapers sharing the keyword-search limiter (BullMQ, in Redis): ITUNES_SEARCH_RATE_PER_MIN ${RATE} over ITUNES_SEARCH_WINDOW_MS ${windowMs} (shortened from ${REAL_WINDOW_MS} so the round takes minutes), i.e. one read every ${spacingMs(windowMs)} ms.`,
          `A round: every pair due, one keyword-round job added; timed until every term's last read is recorded. Every rank was checked against the constructed answers.`,
          `CPU from /proc: the two scraper processes, and the PostgreSQL backends serving this benchmark's database (the server is shared with other work).`,
        ],
        figures: figures.build(),
        tables: [],
        targets: [
          {
            target: `search requests in any window never above the limit (${RATE} per window)`,
            measured: `at most ${most} in any ${windowMs} ms (${formatValue((most * REAL_WINDOW_MS) / windowMs, 'count')} a minute at that scale)`,
            met: most <= RATE,
          },
          {
            target: `scraper and PostgreSQL CPU per keyword read under the limiter's interval between reads, so the rate limit, not the CPU, bounds a round`,
            measured: `${formatValue(cpuMsPerRead, 'ms')} per read (scrapers ${formatValue(scraperMsPerRead, 'ms')}${pgMsPerRead === null ? '' : `, PostgreSQL ${formatValue(pgMsPerRead, 'ms')}`}) against ${formatValue(spacingMs(windowMs), 'ms')} at this run's window (${formatValue((100 * cpuMsPerRead) / spacingMs(windowMs), '%')}), ${formatValue(spacingMs(REAL_WINDOW_MS) / 1000, 's')} at Apple's`,
            met: cpuMsPerRead < spacingMs(windowMs),
          },
        ],
        findings: [
          `The round's time is the limit's: ${formatValue(roundS, 's')} for ${count} reads against ${formatValue(limitS, 's')} the limiter allows (${formatValue(roundS / limitS, 'x')}); two scrapers do not read faster, the shared limiter spaces them.`,
          `At Apple's window (${REAL_WINDOW_MS / 1000} s) the same round takes ${formatValue(realRoundMin, 'count')} minutes (${count} x ${spacingMs(REAL_WINDOW_MS) / 1000} s): time grows linearly with the pairs, so a daily round holds about ${Math.floor((24 * 60 * 60_000) / spacingMs(REAL_WINDOW_MS)).toLocaleString('en-US')} pairs a day at the default rate; more replicas add no reads, only a higher ITUNES_SEARCH_RATE_PER_MIN would.`,
          `Storage: each read keeps its ordered ids (bigint[] of 200) and the row: ${formatValue(readsBytes / count / 1000, 'KB')} per read with its index, so 1,000 pairs read daily add ${formatValue(growthMb, 'MB')} a year (reads are kept while the term is tracked).`,
        ],
      };
    } finally {
      await system.stopWorkers();
      await replay?.close();
      await producers.close();
    }
  },
};
