import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect } from 'vitest';
import { sql } from 'kysely';
import { pino } from 'pino';
import { ZMergedData } from '@aso/contracts';
import { text } from 'node:stream/consumers';
import {
  deleteExpiredAnalytics,
  findLiveDatasetCsv,
  findLiveDatasetRows,
  insertUpload,
  storeDataset,
} from '@aso/db';
import {
  QUEUES,
  type Producers,
  type Queue,
  type QueueEvents,
  type TMergeJob,
  type TWorkerService,
} from '@aso/queue';
import { createTestUser, openTestQueues } from '@aso/testkit';
import { it as integrationIt } from '@aso/testkit/vitest';
import { parseWorkerEnv } from '../src/env';
import { mergeKeyOf } from '../src/merge.handler';
import { parseAndMergeExports, toMergedData, writeProcessedCsv } from '../src/merge/index';
import { CLEANUP_EVERY_MS, startCsvMerge } from '../src/service';
import {
  ascFixture,
  constructedExport,
  constructedFixture,
  SAMPLE_EXPORTS,
} from './fixture-paths.helpers';

/** Datasets live half a day here: fractional TTLs must work. */
const TTL_DAYS = 0.5;

interface Harness {
  service: TWorkerService;
  /** The worker's log lines (level info and up), parsed. */
  logs: Record<string, unknown>[];
  producers: Producers;
  queue: Queue;
  maintenance: Queue;
  events: QueueEvents;
  maintenanceEvents: QueueEvents;
  /** Adds a merge job and waits for it: its return value, or its failure. */
  merge(
    data: TMergeJob,
  ): Promise<{ value: unknown; failedReason: string | null; attemptsMade: number }>;
  close(): Promise<void>;
}

async function startHarness(
  databaseUrl: string,
  redis: { url: string; prefix: string },
): Promise<Harness> {
  const logs: Record<string, unknown>[] = [];
  const log = pino(
    { level: 'info' },
    { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const service = await startCsvMerge(
    parseWorkerEnv({
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: redis.prefix,
      LOG_LEVEL: 'silent',
      HEALTH_PORT: '0',
      DATASET_TTL_DAYS: String(TTL_DAYS),
      PARSE_THREADS: '1',
      // The large-file tests check the merge's streaming, far above the row cap of real exports.
      MERGE_MAX_ROWS: '1000000',
    }),
    { handleSignals: false, log },
  );
  const queues = openTestQueues(redis);
  const queue = queues.producers.queue(QUEUES.csvMerge);
  const maintenance = queues.producers.queue(QUEUES.maintenance);
  const [events, maintenanceEvents] = await Promise.all([
    queues.events(QUEUES.csvMerge),
    queues.events(QUEUES.maintenance),
  ]);
  return {
    service,
    logs,
    producers: queues.producers,
    queue,
    maintenance,
    events,
    maintenanceEvents,
    async merge(data) {
      const job = await queues.producers.add('merge', data);
      let value: unknown = null;
      let failedReason: string | null = null;
      try {
        value = await job.waitUntilFinished(events, 30_000);
      } catch (err) {
        failedReason = (err as Error).message;
      }
      const fresh = await queue.getJob(job.id!);
      return { value, failedReason, attemptsMade: fresh?.attemptsMade ?? -1 };
    },
    async close() {
      await queues.close();
      await service.close();
    },
  };
}

const it = integrationIt.extend<{ $file: { worker: Harness } }>({
  worker: [
    async ({ database, redis }, use) => {
      const h = await startHarness(database.url, redis);
      await use(h);
      await h.close();
    },
    { scope: 'file' },
  ],
});

const habit = SAMPLE_EXPORTS[0];

describe('merge job', () => {
  it('reads both uploads from PostgreSQL, stores the dataset and returns mergedData', async ({
    worker,
    database,
  }) => {
    const db = database.db;
    const { userId } = await createTestUser(db, 'merge@example.com');
    const conversionUploadId = await insertUpload(db, {
      userId,
      field: 'conversionCSV',
      filename: 'conversion.csv',
      content: readFileSync(ascFixture(habit.conversion)),
      ttlDays: 30,
    });
    const redownloadsUploadId = await insertUpload(db, {
      userId,
      field: 'redownloadsCSV',
      filename: 'redownloads.csv',
      content: readFileSync(ascFixture(habit.redownloads)),
      ttlDays: 30,
    });
    const result = await worker.merge({ userId, conversionUploadId, redownloadsUploadId });
    expect(result.failedReason).toBeNull();
    const mergedData = ZMergedData.parse(result.value);

    // The same files parsed straight from disk give the same dataset.
    const direct = await parseAndMergeExports({
      conversionCSV: createReadStream(ascFixture(habit.conversion)),
      redownloadsCSV: createReadStream(ascFixture(habit.redownloads)),
    });
    expect(mergedData).toEqual(toMergedData(direct, mergedData.downloadId));
    expect(mergedData).toMatchObject({
      appName: habit.appName,
      territory: habit.territory,
      totalRows: habit.days,
    });
    // A real-size pair merged alone is parsed on the worker's own thread: the hop to the
    // parse threads would cost more than it saves (LONE_PARSE_MAX_BYTES).
    const stored = worker.logs.find((l) => l.datasetId === mergedData.downloadId);
    expect(stored).toMatchObject({ msg: 'dataset stored', parsedInThreads: false });

    const row = await db
      .selectFrom('datasets')
      .selectAll()
      .where('id', '=', mergedData.downloadId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_id: userId,
      app_name: habit.appName,
      territory: habit.territory,
      headers: direct.headers,
      total_rows: habit.days,
      date_start: habit.start,
      date_end: habit.end,
      merge_key: mergeKeyOf({ conversionUploadId, redownloadsUploadId }),
    });
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBeCloseTo(
      TTL_DAYS * 86_400_000,
      -4,
    );
    // The rows (in chunks) read back as merged; the download renders the processed CSV.
    expect(await findLiveDatasetRows(db, row.id, userId)).toEqual({
      id: row.id,
      headers: direct.headers,
      rows: direct.toRowObjects(),
    });
    const download = await findLiveDatasetCsv(db, row.id, userId);
    expect(await text(download!.csv)).toBe(writeProcessedCsv(direct));
    const chunks = await db
      .selectFrom('dataset_chunks')
      .select(['seq', 'row_count', 'first_day', 'last_day'])
      .where('dataset_id', '=', row.id)
      .execute();
    expect(chunks).toEqual([
      { seq: 0, row_count: habit.days, first_day: habit.start, last_day: habit.end },
    ]);
    const linked = await db
      .selectFrom('uploads')
      .select('id')
      .where('dataset_id', '=', mergedData.downloadId)
      .orderBy('field')
      .execute();
    expect(linked.map((u) => u.id)).toEqual([conversionUploadId, redownloadsUploadId]);
  });

  it('stores one dataset per upload pair: a run again, or two at once, answer with it', async ({
    worker,
    database,
  }) => {
    const db = database.db;
    const { userId } = await createTestUser(db, 'rerun@example.com');
    const upload = async (field: 'conversionCSV' | 'redownloadsCSV', file: string) =>
      insertUpload(db, {
        userId,
        field,
        filename: `${field}.csv`,
        content: readFileSync(ascFixture(file)),
        ttlDays: 30,
      });
    const data = {
      userId,
      conversionUploadId: await upload('conversionCSV', habit.conversion),
      redownloadsUploadId: await upload('redownloadsCSV', habit.redownloads),
    };
    // BullMQ runs a stalled job again with the same data; here: another job for the uploads.
    const first = await worker.merge(data);
    const again = await worker.merge(data);
    expect(first.failedReason).toBeNull();
    expect(ZMergedData.parse(again.value)).toEqual(ZMergedData.parse(first.value));

    // Two runs at once (the worker's concurrency is 2): the second waits for the first's
    // transaction and answers with its dataset.
    const other = {
      userId,
      conversionUploadId: await upload('conversionCSV', habit.conversion),
      redownloadsUploadId: null,
    };
    const [a, b] = await Promise.all([worker.merge(other), worker.merge(other)]);
    expect(ZMergedData.parse(a.value).downloadId).toBe(ZMergedData.parse(b.value).downloadId);
    expect(ZMergedData.parse(a.value).totalRows).toBe(habit.days);

    const datasets = await db
      .selectFrom('datasets')
      .select(['id', 'merge_key'])
      .where('user_id', '=', userId)
      .orderBy('merge_key')
      .execute();
    expect(datasets).toEqual(
      [
        { id: ZMergedData.parse(a.value).downloadId, merge_key: mergeKeyOf(other) },
        { id: ZMergedData.parse(first.value).downloadId, merge_key: mergeKeyOf(data) },
      ].sort((x, y) => x.merge_key.localeCompare(y.merge_key)),
    );
  });

  it('parses two large merges at once in the parse threads, as one after the other', async ({
    worker,
    database,
  }) => {
    const db = database.db;
    const { userId } = await createTestUser(db, 'large-merge@example.com');
    const conversion = constructedExport(50_000, [
      'Impressions',
      'Page Views',
      'Downloads',
      'Sessions',
    ]);
    // The same days as the conversion file, with more columns: the larger file.
    const redownloads = constructedExport(50_000, [
      'Redownloads',
      'Total Redownloads',
      'Updates',
      'Deletions',
      'Restores',
      'Reinstalls',
    ]);
    expect(redownloads.length).toBeGreaterThan(conversion.length);
    const upload = (field: 'conversionCSV' | 'redownloadsCSV', content: Buffer) =>
      insertUpload(db, { userId, field, filename: `${field}.csv`, content, ttlDays: 30 });
    const pair = async () => ({
      conversionUploadId: await upload('conversionCSV', conversion),
      redownloadsUploadId: await upload('redownloadsCSV', redownloads),
    });
    const [first, second] = [await pair(), await pair()];

    // Two merges at once (CONCURRENCY 4) with PARSE_THREADS=1: four files queue for one thread.
    const results = await Promise.all([
      worker.merge({ userId, ...first }),
      worker.merge({ userId, ...second }),
    ]);
    const direct = await parseAndMergeExports(
      {
        conversionCSV: Readable.from([conversion]),
        redownloadsCSV: Readable.from([redownloads]),
      },
      { maxRows: 1_000_000 },
    );
    const threaded: unknown[] = [];
    for (const result of results) {
      expect(result.failedReason).toBeNull();
      const mergedData = ZMergedData.parse(result.value);
      expect(mergedData).toEqual(toMergedData(direct, mergedData.downloadId));
      expect(await findLiveDatasetRows(db, mergedData.downloadId, userId)).toEqual({
        id: mergedData.downloadId,
        headers: direct.headers,
        rows: direct.toRowObjects(),
      });
      const stored = worker.logs.find((l) => l.datasetId === mergedData.downloadId);
      expect(stored).toMatchObject({ msg: 'dataset stored', rows: 50_000 });
      threaded.push(stored!.parsedInThreads);
    }
    expect(threaded).toEqual([true, true]);
  });

  it('reads a UTF-16LE upload byte for byte', async ({ worker, database }) => {
    const db = database.db;
    const { userId } = await createTestUser(db, 'utf16@example.com');
    const path = constructedFixture('constructed-utf16le-tab_conversion_weather-buddy_japan.csv');
    const conversionUploadId = await insertUpload(db, {
      userId,
      field: 'conversionCSV',
      filename: 'weather.csv',
      content: readFileSync(path),
      ttlDays: 30,
    });
    const result = await worker.merge({ userId, conversionUploadId, redownloadsUploadId: null });
    expect(result.failedReason).toBeNull();
    const direct = await parseAndMergeExports({ conversionCSV: createReadStream(path) });
    const mergedData = ZMergedData.parse(result.value);
    expect(mergedData).toEqual(toMergedData(direct, mergedData.downloadId));
    expect(mergedData).toMatchObject({ appName: 'Weather Buddy', territory: 'Japan' });
    expect(mergedData.preview[0]).toMatchObject({
      Date: '5/1/25',
      'App Store Search First-Time Downloads': 1210,
    });
  });

  it('fails at once, without retry, with the parser message naming the field', async ({
    worker,
    database,
  }) => {
    const db = database.db;
    const { userId } = await createTestUser(db, 'refused@example.com');
    const good = await insertUpload(db, {
      userId,
      field: 'conversionCSV',
      filename: 'conversion.csv',
      content: readFileSync(ascFixture(habit.conversion)),
      ttlDays: 30,
    });
    const cases: [string, Buffer, RegExp][] = [
      [
        'no date column',
        readFileSync(constructedFixture('constructed-no-date-column.csv')),
        /^redownloadsCSV: no header row with a Date column/,
      ],
      [
        'binary',
        readFileSync(constructedFixture('constructed-binary.csv')),
        /^redownloadsCSV: the file is binary/,
      ],
      ['empty', Buffer.alloc(0), /^redownloadsCSV: the file is empty/],
    ];
    for (const [what, content, message] of cases) {
      const bad = await insertUpload(db, {
        userId,
        field: 'redownloadsCSV',
        filename: `${what}.csv`,
        content,
        ttlDays: 30,
      });
      const result = await worker.merge({
        userId,
        conversionUploadId: good,
        redownloadsUploadId: bad,
      });
      expect(result.failedReason, what).toMatch(message);
      expect(result.attemptsMade, what).toBe(1);
    }
    const datasets = await db
      .selectFrom('datasets')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    expect(datasets).toEqual([]);
  });

  it("refuses someone else's upload and an expired one", async ({ worker, database }) => {
    const db = database.db;
    const owner = (await createTestUser(db, 'upload-owner@example.com')).userId;
    const thief = (await createTestUser(db, 'upload-thief@example.com')).userId;
    const content = readFileSync(ascFixture(habit.conversion));
    const owned = await insertUpload(db, {
      userId: owner,
      field: 'conversionCSV',
      filename: 'a.csv',
      content,
      ttlDays: 30,
    });
    const expired = await insertUpload(db, {
      userId: owner,
      field: 'conversionCSV',
      filename: 'b.csv',
      content,
      ttlDays: 0,
    });
    const gone = 'conversionCSV: the uploaded file is no longer available; please upload it again';
    for (const data of [
      { userId: thief, conversionUploadId: owned, redownloadsUploadId: null },
      { userId: owner, conversionUploadId: expired, redownloadsUploadId: null },
      // An upload sent as the other field is not taken for it.
      { userId: owner, conversionUploadId: null, redownloadsUploadId: owned },
    ]) {
      const result = await worker.merge(data);
      const expected = data.redownloadsUploadId
        ? gone.replace('conversionCSV', 'redownloadsCSV')
        : gone;
      expect(result.failedReason).toBe(expected);
      expect(result.attemptsMade).toBe(1);
    }
    const none = await worker.merge({
      userId: owner,
      conversionUploadId: null,
      redownloadsUploadId: null,
    });
    expect(none.failedReason).toMatch(/names no upload/);
  });
});

describe('cleanup-expired job', () => {
  it('is scheduled hourly and deletes expired datasets with their uploads and expired uploads', async ({
    worker,
    database,
  }) => {
    const db = database.db;
    const schedulers = await worker.maintenance.getJobSchedulers();
    expect(schedulers.map((s) => ({ key: s.key, name: s.name, every: s.every }))).toEqual([
      { key: 'cleanup-expired-hourly', name: 'cleanup-expired', every: CLEANUP_EVERY_MS },
    ]);
    expect(CLEANUP_EVERY_MS).toBe(3_600_000);

    const { userId } = await createTestUser(db, 'cleanup@example.com');
    const dataset = async (ttlDays: number, uploads: number) => {
      const ids = [];
      for (let i = 0; i < uploads; i++) {
        ids.push(
          await insertUpload(db, {
            userId,
            field: 'conversionCSV',
            filename: `u${i}.csv`,
            content: Buffer.from('x'),
            ttlDays: 30,
          }),
        );
      }
      return (
        await storeDataset(db, {
          userId,
          appName: null,
          territory: null,
          headers: ['Date'],
          chunks: [{ rows: [['1/1/25']], firstDay: '2025-01-01', lastDay: '2025-01-01' }],
          dateSpan: { start: '2025-01-01', end: '2025-01-01' },
          ttlDays,
          uploadIds: ids,
        })
      ).id;
    };
    const expiredA = await dataset(0, 2);
    const expiredB = await dataset(0, 1);
    const live = await dataset(1, 2);
    await insertUpload(db, {
      userId,
      field: 'redownloadsCSV',
      filename: 'orphan.csv',
      content: Buffer.from('x'),
      ttlDays: 0,
    });
    await insertUpload(db, {
      userId,
      field: 'redownloadsCSV',
      filename: 'pending.csv',
      content: Buffer.from('x'),
      ttlDays: 1,
    });

    // Earlier tests of this file left expired uploads of other users: they go too.
    const dueUploads = await db
      .selectFrom('uploads')
      .select('id')
      .where('expires_at', '<=', sql<Date>`now()`)
      .execute();
    expect(dueUploads.length).toBeGreaterThanOrEqual(1);

    const job = await worker.producers.add('cleanup-expired', {});
    // 2 expired datasets with 3 uploads (their own expiry is later), plus the uploads past theirs.
    expect(await job.waitUntilFinished(worker.maintenanceEvents, 30_000)).toEqual({
      datasets: 2,
      uploads: 3 + dueUploads.length,
    });
    const leftDue = await db
      .selectFrom('uploads')
      .select('id')
      .where('expires_at', '<=', sql<Date>`now()`)
      .execute();
    expect(leftDue).toEqual([]);

    const datasets = await db
      .selectFrom('datasets')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    expect(datasets.map((d) => d.id)).toEqual([live]);
    const uploads = await db
      .selectFrom('uploads')
      .select(['filename', 'dataset_id'])
      .where('user_id', '=', userId)
      .orderBy('filename')
      .execute();
    expect(uploads).toEqual([
      { filename: 'pending.csv', dataset_id: null },
      { filename: 'u0.csv', dataset_id: live },
      { filename: 'u1.csv', dataset_id: live },
    ]);
    expect([expiredA, expiredB]).not.toContain(live);
  });

  it('works through a backlog in batches', async ({ database }) => {
    const db = database.db;
    const { userId } = await createTestUser(db, 'backlog@example.com');
    for (let i = 0; i < 5; i++) {
      await storeDataset(db, {
        userId,
        appName: null,
        territory: null,
        headers: [],
        chunks: [],
        dateSpan: null,
        ttlDays: 0,
        uploadIds: [
          await insertUpload(db, {
            userId,
            field: 'conversionCSV',
            filename: 'x.csv',
            content: Buffer.from('x'),
            ttlDays: 0,
          }),
        ],
      });
    }
    expect(await deleteExpiredAnalytics(db, 2)).toEqual({ datasets: 5, uploads: 5 });
    expect(await deleteExpiredAnalytics(db, 2)).toEqual({ datasets: 0, uploads: 0 });
  });
});
