import { describe, expect } from 'vitest';
import { QUEUES } from '@aso/queue';
import { createTestUser, openTestQueues } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { expectError } from './access.fixtures';
import { sampleParts, SAMPLES, startAnalyticsEnv, upload } from './analytics.helpers';

describe('upload wait bound', () => {
  it('answers 504 when no worker merges within UPLOAD_WAIT_MS, and withdraws the job', async ({
    database,
    redis,
  }) => {
    // No csv-merge worker runs on this file's prefix: the job can only wait.
    const env = await startAnalyticsEnv(database, redis, {
      worker: false,
      api: { UPLOAD_WAIT_MS: '1000' },
    });
    const queues = openTestQueues(redis);
    const queue = queues.producers.queue(QUEUES.csvMerge);
    try {
      const user = await createTestUser(database.db, 'slow@example.com');
      const started = Date.now();
      const res = await upload(env.app, user, sampleParts(SAMPLES[1]));
      const waited = Date.now() - started;
      expect(expectError(res, 504, 'Merging the files took too long; please try again').code).toBe(
        'GATEWAY_TIMEOUT',
      );
      // The answer came after the bound, not at once (a correctness check, not a speed target).
      expect(waited).toBeGreaterThanOrEqual(1000);

      // Nobody waits for the job any more: it is removed with its uploads, so a worker
      // starting later does not merge files whose user already saw an error.
      const counts = await queue.getJobCounts('waiting', 'active', 'completed', 'failed');
      expect(counts).toMatchObject({ waiting: 0, active: 0, completed: 0, failed: 0 });
      const uploads = await database.db.selectFrom('uploads').select('id').execute();
      expect(uploads).toEqual([]);

      // The same gateway's next upload waits on the same (single) QueueEvents connection.
      expectError(
        await upload(env.app, user, sampleParts(SAMPLES[2])),
        504,
        'Merging the files took too long; please try again',
      );
    } finally {
      await queues.close();
      await env.close();
    }
  });
});
