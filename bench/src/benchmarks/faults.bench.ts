import {
  completedOnce,
  FaultSystem,
  killApiMidAudit,
  killApiMidUpload,
  killMergeMidUpload,
  killWorkerMidAudit,
  normalAudit,
  restartPostgresMidAudit,
  restartPostgresMidMerge,
  restartRedisMidAudit,
  restartRedisMidMerge,
  type TAuditEnd,
  type TMergeFaultOutcome,
} from '@aso/testkit/system';
import { generateExport } from '../data/asc-export.generator';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { median } from '../stats/stats.helpers';
import { BenchFailure, type TBenchResult } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

/** Store delay per answer (ms), as in the fault suite: a scrape lasts long enough to be killed. */
const FAULT_STORE_DELAY_MS = 1_500;
/** Days of each CONSTRUCTED export uploaded by the csv-merge scenario and its baseline. */
const EXPORT_DAYS = 90;

/** Throws a {@link BenchFailure} naming `what` unless every audit ended done with one `complete`. */
function requireCompletedOnce(what: string, audits: readonly TAuditEnd[]): void {
  if (!completedOnce(audits))
    throw new BenchFailure(
      `${what}: not every audit completed once: ${audits.map((a) => `${a.id} ${a.status} [${a.terminal.join(', ')}]`).join('; ')}`,
    );
}

/** Throws a {@link BenchFailure} naming `what` unless the upload got its rows and one dataset. */
function requireOneDataset(what: string, outcome: TMergeFaultOutcome): void {
  const { mergedData } = outcome.answer;
  if (
    mergedData.totalRows !== EXPORT_DAYS ||
    outcome.datasetIds.length !== 1 ||
    outcome.datasetIds[0] !== mergedData.downloadId
  )
    throw new BenchFailure(
      `${what}: ${mergedData.totalRows} rows, datasets ${outcome.datasetIds.join(', ')}`,
    );
}

/**
 * Benchmark 8 (docs/BENCHMARKS.md): how long the system takes to recover from what production
 * does to it. The whole system runs as `pnpm start` runs it (the supervisor and its processes,
 * from `dist/`) on a Redis server and a PostgreSQL server of its own (`FaultSystem` of
 * `@aso/testkit/system`), and goes through the fault suite's own scenarios, each repeated
 * `runs` times, round robin so that no service is killed twice in a row: kill -9 of the
 * scraper, of the analyzer and of csv-merge mid-job, a Redis restart (empty) and a PostgreSQL
 * restart (`pg_ctl stop -m fast`) mid-audit and during an upload's merge, and kill -9 of the
 * api mid-audit and mid-upload. Every audit must complete once and every upload
 * get its one dataset, or the benchmark fails. Baselines, measured in each round on the same
 * system: one audit and one upload with nothing going wrong.
 */
export const faultsBenchmark: TBenchmark = {
  name: 'faults',
  title: 'Faults: recovery from crashes and outages',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const { runs } = ctx.sizes.faults;
    ctx.log('faults: starting the system (pnpm start, its own Redis and PostgreSQL servers)');
    const system = await FaultSystem.start({
      storeDelayMs: FAULT_STORE_DELAY_MS,
      ownPostgres: true,
    });
    const release = ctx.adopt({ close: () => system.stop() });
    try {
      const { token } = await system.newUser('bench');
      const [conversion, redownloads] = (['conversion', 'redownloads'] as const).map((kind) =>
        generateExport({
          kind,
          appName: 'Faults App',
          territory: 'United States',
          startDay: '2025-01-01',
          rows: EXPORT_DAYS,
        }),
      );
      const files = {
        conversionCSV: { filename: 'faults-conversion.csv', bytes: conversion!.bytes },
        redownloadsCSV: { filename: 'faults-redownloads.csv', bytes: redownloads!.bytes },
      };
      const figures = new FiguresBuilder();
      const normalAudits: number[] = [];
      const normalUploads: number[] = [];
      const restartsBefore = system.allRestarts();
      const s = (ms: number) => ms / 1000;

      for (let run = 1; run <= runs; run++) {
        ctx.log(`faults: round ${run} of ${runs}`);
        const normal = await normalAudit(system, token);
        requireCompletedOnce('one audit, nothing failing', normal.audits);
        normalAudits.push(s(normal.recoveryMs));

        const uploader = await system.newUser('bench-upload');
        const uploadStart = Date.now();
        await system.api.upload(uploader.token, files);
        normalUploads.push(s(Date.now() - uploadStart));

        for (const worker of ['scraper', 'analyzer'] as const) {
          const killed = await killWorkerMidAudit(system, token, worker);
          requireCompletedOnce(`kill -9 of the ${worker}`, killed.audits);
          figures.add(
            worker,
            `kill -9 of the ${worker} ${worker === 'scraper' ? 'mid-scrape' : 'mid-audit'}: kill -> audit done`,
            's',
            s(killed.recoveryMs),
          );
        }

        const merge = await killMergeMidUpload(system, files);
        requireOneDataset('kill -9 of csv-merge', merge);
        figures.add(
          'merge',
          'kill -9 of csv-merge during an upload: kill -> merged data answered',
          's',
          s(merge.recoveryMs),
        );

        const redis = await restartRedisMidAudit(system, token);
        requireCompletedOnce('Redis restart', redis.audits);
        if (redis.followed.filter((m) => m.event === 'complete').length !== 1)
          throw new BenchFailure(
            'Redis restart: the client following an audit missed its complete',
          );
        figures.add(
          'redis',
          'Redis restart (empty, down 2 s) mid-audit: back up -> both audits done',
          's',
          s(redis.recoveryMs),
        );

        const redisMerge = await restartRedisMidMerge(system, files);
        requireOneDataset('Redis restart during a merge', redisMerge);
        figures.add(
          'redis.merge',
          'Redis restart (empty, down 2 s) with a merge queued: back up -> merged data answered',
          's',
          s(redisMerge.recoveryMs),
        );

        const apiAudit = await killApiMidAudit(system, token);
        requireCompletedOnce('kill -9 of the api', apiAudit.audits);
        const resumed = [...apiAudit.before, ...apiAudit.after.map((m) => m.id)];
        if (resumed.join() !== apiAudit.full.map((m) => m.id).join())
          throw new BenchFailure(
            'kill -9 of the api: the client resuming with Last-Event-ID lost or repeated events',
          );
        figures.add(
          'api',
          'kill -9 of the api mid-audit (a client following it): kill -> both audits done',
          's',
          s(apiAudit.recoveryMs),
        );
        const apiUpload = await killApiMidUpload(system, files);
        requireOneDataset('kill -9 of the api during an upload', apiUpload);
        figures.add(
          'api.upload',
          'kill -9 of the api with a merge queued: kill -> the same upload sent again answered',
          's',
          s(apiUpload.recoveryMs),
        );

        if (system.postgres) {
          const pgMerge = await restartPostgresMidMerge(system, files);
          requireOneDataset('PostgreSQL restart during a merge', pgMerge);
          figures.add(
            'pg.merge',
            'PostgreSQL restart (stop -m fast) with a merge queued: back up -> merged data answered',
            's',
            s(pgMerge.recoveryMs),
          );
          const pg = await restartPostgresMidAudit(system, token);
          requireCompletedOnce('PostgreSQL restart', pg.audits);
          const down = Object.entries(pg.whileDown).filter(([, status]) => status !== 503);
          if (down.length > 0)
            throw new BenchFailure(
              `PostgreSQL restart: while down the api answered ${down.map(([k, v]) => `${k} ${v}`).join(', ')} instead of 503`,
            );
          figures
            .add(
              'pg',
              'PostgreSQL restart (stop -m fast) mid-audit: back up -> both audits done',
              's',
              s(pg.recoveryMs),
            )
            .add(
              'pg.api',
              'PostgreSQL restart: back up -> the api reads an audit again',
              'ms',
              pg.apiRecoveryMs,
            );
        }
      }
      const restarts = system.allRestarts();
      for (const service of ['api', 'scraper', 'analyzer', 'csv-merge', 'render'])
        figures.add(
          `restarts.${service}`,
          `restarts of the ${service} process by the supervisor over the whole run`,
          'count',
          (restarts[service] ?? 0) - (restartsBefore[service] ?? 0),
        );
      // The api is killed twice a round; any other restart is a crash.
      if ((restarts.api ?? 0) - (restartsBefore.api ?? 0) !== 2 * runs)
        throw new BenchFailure('the api process died during the faults');

      const auditBaseline = 'one audit alone, nothing failing (POST -> done), same system';
      for (const id of ['scraper', 'analyzer', 'redis', 'pg', 'api'])
        if (figures.samples(id).length) figures.baseline(id, auditBaseline, normalAudits);
      const uploadBaseline = 'one upload alone, nothing failing (POST -> answer), same system';
      for (const id of ['merge', 'redis.merge', 'api.upload', 'pg.merge'])
        if (figures.samples(id).length) figures.baseline(id, uploadBaseline, normalUploads);
      const line = (id: string) =>
        `median ${formatValue(figures.median(id), 's')}, p95 ${formatValue(figures.p95(id), 's')}`;
      return {
        name: 'faults',
        title: this.title,
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        runs,
        setup: [
          "The whole system as `pnpm start --offline` runs it (the supervisor restarts a process that dies; services from dist/), on a redis-server and a PostgreSQL server (initdb in a temporary folder) of its own; the scenarios are the fault suite's (`@aso/testkit/system`).",
          `Store delay ${FAULT_STORE_DELAY_MS} ms per answer (replay server), cache off (APP_CACHE_TTL=0), so every scrape reads the store and is in flight for seconds when the fault comes. Worker settings as in the defaults: lock 8 s and stall check 3 s for scrapes and analyses, 15 s and 5 s for merges.`,
          `Each round: one audit and one upload with nothing failing (the baselines), then kill -9 of the scraper (audit with a competitor, two scrapes in flight), of the analyzer (while the audit's scrape runs) and of csv-merge (as soon as the merge job is queued; two CONSTRUCTED ${EXPORT_DAYS}-day exports), a Redis restart (killed, nothing saved, started again empty after 2 s, two audits in flight, a client following one) and a PostgreSQL restart (pg_ctl stop -m fast with two audits in flight, started again once a worker has put a job back; the api answered 503 to an audit read, a new audit and /readyz meanwhile); then, with csv-merge frozen (SIGSTOP) so that a merge is surely queued, a Redis restart (empty) and a PostgreSQL restart during an upload, and kill -9 of the api during an upload (the client sends the same files again once the api is back); and kill -9 of the api with two audits in flight, a client resuming the stream with Last-Event-ID.`,
          'Recovery: from the kill, or from the server back up, to the end the user waits for (every audit of the scenario done, checked to have exactly one complete event; the upload answered, with exactly one dataset).',
        ],
        figures: figures.build(),
        tables: [],
        targets: [],
        findings: [
          `kill -9 of the scraper: ${line('scraper')}. The job is handed on only when its lock expires (8 s) and a stall check (every 3 s) sees it; the restarted scraper then reads the store again from the start, so recovery is about lock + stall check + one audit (${formatValue(figures.median('scraper') - median(normalAudits), 's')} above the one-audit baseline here).`,
          `kill -9 of the analyzer: ${line('analyzer')}. The analysis job waits on its scrape children, so the restarted analyzer (1 s restart delay, then start-up) is mostly up before the job is ready; a kill that lands while it holds the job waits for its lock and a stall check, as for the scraper.`,
          `kill -9 of csv-merge: ${line('merge')}: the merge job's lock (15 s) and stall check (5 s) set it; the merge itself is under a second (the baseline).`,
          `kill -9 of the api: ${line('api')} (the workers go on; the supervisor restarts the api after 1 s). An upload cut by the kill and sent again: ${line('api.upload')}, mostly the dead request's merge slot lapsing (a 6 s lease) before the same uploads are merged under the same job.`,
          `Redis restart during an upload: ${line('redis.merge')}: the gateway checks every 2 s that the merge job it waits for is still in Redis and queues it again.`,
          `Redis restart: ${line('redis')}. The restarted Redis is empty: the analyzer re-adds the flow of every unfinished audit on reconnect (and every AUDIT_RECOVERY_EVERY_MS), and the audits run again from their first step after the reconnect backoff.`,
          figures.samples('pg').length
            ? `PostgreSQL restart: ${line('pg')}; the api answers again ${formatValue(figures.median('pg.api'), 'ms')} (median) after the server is back. Jobs that met the outage were put back for 2 s (DATABASE_RETRY_DELAY_MS) without using an attempt, so the audits finish about one baseline audit after the server returns.`
            : `PostgreSQL restart not run: no PostgreSQL server of its own on this machine (${system.noOwnPostgres}).`,
        ],
      };
    } finally {
      await release();
    }
  },
};
