import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { generateSecretsKey, sealSecret, secretsKeyFrom } from '@aso/asc';
import { startAscStandIn } from '@aso/asc/stand-in';
import { Producers, ascImportJobId } from '@aso/queue';
import { createTestUser } from '@aso/testkit';
import type { BenchSystem } from '../harness/bench.system';
import { BackendCpu } from '../probes/backend-cpu';
import { ProcessSampler } from '../probes/process.sampler';
import { FiguresBuilder } from '../report/figures.builder';
import { formatValue } from '../report/format.helpers';
import { BenchFailure, type TBenchResult } from '../bench.types';
import type { TBenchContext, TBenchmark } from '../bench.context';

const APP = { id: '1700000001', name: 'Bench Weather', bundleId: 'com.example.benchweather' };
const ISSUER = '0f3c1a2b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const KEY_ID = 'BENCHKEY01';
/** Target: two years of daily reports of one app import within ten minutes. */
const IMPORT_TARGET_S = 600;
/**
 * App Store Connect's hourly request limit per key (`user-hour-lim` of `X-Rate-Limit`, as the
 * stand-in announces it by default; Apple: "Identifying rate limits",
 * https://developer.apple.com/documentation/appstoreconnectapi/identifying-rate-limits).
 */
const APPLE_HOUR_LIMIT = 3_500;

/** Adds import `importId` and waits until it is done (ms); throws when it failed. */
async function runImport(system: BenchSystem, producers: Producers, connectionId: string) {
  const db = system.database.db;
  const { id } = await db
    .insertInto('asc_imports')
    .values({ connection_id: connectionId, app_id: APP.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const started = performance.now();
  await producers.add('asc-import', { importId: id }, { jobId: ascImportJobId(id) });
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const row = await db
      .selectFrom('asc_imports')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (row.state === 'done') return { ms: performance.now() - started, row };
    if (row.state === 'failed') throw new BenchFailure(`the import failed: ${row.error}`);
    if (Date.now() > deadline)
      throw new BenchFailure('the import did not finish within 30 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `pnpm bench asc`: imports `sizes.asc.days` days of daily instances of the two reports of one
 * app from the App Store Connect stand-in (CONSTRUCTED data, no pacing delay) with one
 * asc-import process: wall time, figures stored per second, the importer's peak RSS, the bytes
 * a stored figure takes in PostgreSQL; then a re-import that must fetch no segment (its time is
 * the baseline: the listing alone).
 */
export const ascBenchmark: TBenchmark = {
  name: 'asc',
  title: 'App Store Connect import',
  async run(ctx: TBenchContext): Promise<TBenchResult> {
    const startedAt = new Date();
    const { days } = ctx.sizes.asc;
    const system = await ctx.system('asc', 0);
    const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const last = new Date();
    const first = new Date(last.getTime() - days * 86_400_000);
    const standIn = await startAscStandIn({
      keys: [
        {
          issuerId: ISSUER,
          keyId: KEY_ID,
          publicKey: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
          role: 'ADMIN',
        },
      ],
      apps: [APP],
      seed: 3,
      firstDate: first.toISOString().slice(0, 10),
      lastProcessingDate: last.toISOString().slice(0, 10),
      pageSize: 200,
    });
    const producers = new Producers(system.redis, system.prefix);
    const secretsKey = generateSecretsKey();
    try {
      const [importer] = await system.ensureWorkers({
        'asc-import': {
          count: 1,
          env: { SECRETS_KEY: secretsKey, ASC_API_ORIGIN: standIn.url, ASC_MAX_PAUSE_MS: '0' },
        },
      });
      const user = await createTestUser(system.database.db);
      const connectionId = randomUUID();
      const pem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      await system.database.db
        .insertInto('asc_connections')
        .values({
          id: connectionId,
          user_id: user.userId,
          name: 'bench',
          issuer_id: ISSUER,
          key_id: KEY_ID,
          private_key_sealed: sealSecret(pem, secretsKeyFrom(secretsKey), connectionId),
          apps: JSON.stringify([{ appId: APP.id, name: APP.name, bundleId: APP.bundleId }]),
        })
        .execute();
      const figures = new FiguresBuilder();
      const sampler = new ProcessSampler([{ name: 'asc-import', pid: importer!.pid }]).start();
      const backends = await new BackendCpu(system).start();
      const full = await runImport(system, producers, connectionId);
      const usage = sampler.stop()[0]!;
      const pgCpuS = await backends.stop();
      const segmentsBefore = standIn.hits.get('segment') ?? 0;
      const again = await runImport(system, producers, connectionId);
      if ((standIn.hits.get('segment') ?? 0) !== segmentsBefore || again.row.instances !== 0) {
        throw new BenchFailure('the re-import fetched report segments again');
      }
      const expectedInstances = days * 2;
      if (full.row.instances !== expectedInstances) {
        throw new BenchFailure(
          `expected ${expectedInstances} instances, stored ${full.row.instances}`,
        );
      }
      figures.add('import', `import of ${days} days x 2 reports`, 's', full.ms / 1000);
      figures.baseline('import', 're-import, nothing new', [again.ms / 1000]);
      figures.add('rate', 'figures stored per second', 'count', full.row.rows / (full.ms / 1000));
      figures.add(
        'instances',
        'report instances per second',
        'count',
        full.row.instances / (full.ms / 1000),
      );
      figures.add('rss', 'importer peak RSS', 'MB', usage.peakRssMb);
      figures.add('cpu', 'importer CPU (percent of one core)', '%', usage.avgCpuPct);
      // Per imported day (both reports of the day): what bounds a daily round of many apps is
      // Apple's rate limit only while these stay far below the time a day's requests take.
      const importerMsPerDay = (usage.cpuSeconds * 1000) / days;
      const pgMsPerDay = pgCpuS === null ? null : (pgCpuS * 1000) / days;
      figures.add('cpu.day', 'importer CPU per imported day', 'ms', importerMsPerDay);
      if (pgMsPerDay !== null) {
        figures.add('pgcpu.day', 'PostgreSQL backend CPU per imported day', 'ms', pgMsPerDay);
      }
      // What a stored figure costs PostgreSQL: the row's data (pg_column_size), and the table
      // with its indexes and TOAST divided by its rows (the benchmark's database holds only
      // this import).
      const size = await sql<{ rows: string; tuple: number; total: string }>`
        select count(*) as rows, avg(pg_column_size(f.*))::float8 as tuple,
               pg_total_relation_size('asc_figures') as total
        from asc_figures f`.execute(system.database.db);
      const stored = size.rows[0]!;
      figures.add(
        'figure.tuple',
        'bytes per stored figure: row data (pg_column_size)',
        'count',
        stored.tuple,
      );
      figures.add(
        'figure.total',
        'bytes per stored figure: table, indexes and TOAST / rows',
        'count',
        Number(stored.total) / Number(stored.rows),
      );
      const importS = full.ms / 1000;
      // What a day of a daily round may take at Apple's limit: its requests at 3,600 s / limit.
      const requests = [...standIn.hits.values()].reduce((sum, n) => sum + n, 0);
      const requestsPerDay = requests / days;
      const limitMsPerDay = (requestsPerDay * 3_600_000) / APPLE_HOUR_LIMIT;
      const cpuMsPerDay = importerMsPerDay + (pgMsPerDay ?? 0);
      return {
        name: 'asc',
        title: this.title,
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        runs: 1,
        setup: [
          `One app, ${days} days: ${expectedInstances} DAILY instances (App Store Discovery and Engagement, App Downloads), each with 3-4 Dates (the day before its processing date at 60 %, then 90 %, then final, and corrections), 3 territories x 2 devices x 5 source types: ${full.row.segments} segments, ${full.row.rows} figures written.`,
          'Processes: api (idle), 1 asc-import at its defaults (CONCURRENCY 2, one import), the App Store Connect stand-in in the benchmark process (CONSTRUCTED reports, 200 resources per page, no rate-limit pause).',
          `Requests answered by the stand-in: ${[...standIn.hits.entries()].map(([k, v]) => `${k} ${v}`).join(', ')}.`,
        ],
        figures: figures.build(),
        tables: [],
        targets: [
          {
            target: `${days} days of both reports imported under ${IMPORT_TARGET_S} s`,
            measured: formatValue(importS, 's'),
            met: importS < IMPORT_TARGET_S,
          },
          {
            target: `importer and PostgreSQL CPU per imported day under the time App Store Connect's hourly limit (${APPLE_HOUR_LIMIT.toLocaleString('en-US')} requests per key) gives that day's requests, so the limit, not the CPU, bounds a daily round`,
            measured: `${formatValue(cpuMsPerDay, 'ms')} per day (importer ${formatValue(importerMsPerDay, 'ms')}${pgMsPerDay === null ? '' : `, PostgreSQL ${formatValue(pgMsPerDay, 'ms')}`}) against ${formatValue(limitMsPerDay / 1000, 's')} (${formatValue(requestsPerDay, 'count')} requests per day): ${formatValue((100 * cpuMsPerDay) / limitMsPerDay, '%')} of it`,
            met: cpuMsPerDay < limitMsPerDay,
          },
          {
            target: 'a re-import downloads no segment',
            measured: `${again.row.instances} instances, ${again.row.segments} segments in ${formatValue(again.ms / 1000, 's')}`,
            met: true,
          },
        ],
        findings: [],
      };
    } finally {
      await system.stopWorkers();
      await standIn.close();
      await producers.close();
    }
  },
};
