import { describe, expect } from 'vitest';
import { pino } from 'pino';
import { insertUpload } from '@aso/db';
import { createRedis, mergeCancelKey, QUEUES } from '@aso/queue';
import { createTestUser, openTestQueues } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { parseWorkerEnv } from '../src/env';
import { CANCELLED_MESSAGE } from '../src/merge.handler';
import { startCsvMerge } from '../src/service';
import { constructedExport } from './fixture-paths.helpers';

// The limits of a merge as a whole: its time budget, and the gateway's cancel mark. Both are
// checked at the merge's pauses, so the file is large enough to pause (far above the row cap
// of real exports, which is raised here).

// Without parse threads the merge's own thread parses and pauses; with them it waits and pauses.
describe.each(['0', '1'])('merge limits (PARSE_THREADS %s)', (parseThreads) => {
  it('stops a merge past its time budget, and one whose client went away', async ({
    database,
    redis,
  }) => {
    const service = await startCsvMerge(
      parseWorkerEnv({
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        HEALTH_PORT: '0',
        MERGE_MAX_ROWS: '1000000',
        MERGE_TIME_BUDGET_MS: '150',
        PARSE_THREADS: parseThreads,
      }),
      { handleSignals: false, log: pino({ level: 'silent' }) },
    );
    const queues = openTestQueues(redis);
    const events = await queues.events(QUEUES.csvMerge);
    try {
      const db = database.db;
      const { userId } = await createTestUser(db, `limits-${parseThreads}@example.com`);
      const big = constructedExport(200_000, ['Impressions', 'Downloads', 'Sessions']);
      const upload = () =>
        insertUpload(db, {
          userId,
          field: 'conversionCSV',
          filename: 'big.csv',
          content: big,
          ttlDays: 1,
        });

      const slow = await queues.producers.add('merge', {
        userId,
        conversionUploadId: await upload(),
        redownloadsUploadId: null,
      });
      await expect(slow.waitUntilFinished(events, 60_000)).rejects.toThrow(
        'upload: merging these files took longer than 0.15 s, the most one merge may take; export a shorter date range',
      );

      // The gateway marks the job before it runs: the merge stops at its first pause.
      const conversionUploadId = await upload();
      const jobId = `${conversionUploadId}:merge:none`;
      const marker = createRedis(redis.url, { role: 'producer' });
      await marker.set(mergeCancelKey(redis.prefix, jobId), '1', 'EX', 60);
      marker.disconnect();
      const cancelled = await queues.producers.add(
        'merge',
        { userId, conversionUploadId, redownloadsUploadId: null },
        { jobId },
      );
      await expect(cancelled.waitUntilFinished(events, 60_000)).rejects.toThrow(CANCELLED_MESSAGE);
    } finally {
      await queues.close();
      await service.close();
    }
  });
});
