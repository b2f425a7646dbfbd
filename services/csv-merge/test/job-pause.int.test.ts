import { describe, expect } from 'vitest';
import { pino } from 'pino';
import { createRedis, createTypedWorker, QUEUES } from '@aso/queue';
import { openTestQueues } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { createJobPause } from '../src/job-pause';

describe('createJobPause (docs/BENCHMARKS.md)', () => {
  it("extends a running job's lock in Redis beyond the worker's own lock duration", async ({
    redis,
  }) => {
    const name = QUEUES.csvMerge;
    const queues = openTestQueues(redis);
    const connection = createRedis(redis.url, { role: 'worker' });
    const client = createRedis(redis.url, { role: 'producer' });
    const seen: { before: number; after: number; again: number }[] = [];
    const worker = createTypedWorker(
      name,
      {
        merge: async (_data, job) => {
          const lockKey = `${redis.prefix}:${name}:${job.id}:lock`;
          const before = await client.pttl(lockKey);
          const pause = createJobPause(job, 60_000, pino({ level: 'silent' }));
          await pause();
          const after = await client.pttl(lockKey);
          // Within a third of the lock duration the next pause only yields.
          await client.pexpire(lockKey, 5_000);
          await pause();
          seen.push({ before, after, again: await client.pttl(lockKey) });
          return 'done';
        },
      },
      { connection, prefix: redis.prefix, lockDuration: 2_000 },
    );
    try {
      const events = await queues.events(name);
      const job = await queues.producers.add('merge', {
        userId: 'u',
        conversionUploadId: null,
        redownloadsUploadId: null,
      });
      expect(await job.waitUntilFinished(events, 20_000)).toBe('done');
      expect(seen).toHaveLength(1);
      expect(seen[0]!.before).toBeLessThanOrEqual(2_000);
      expect(seen[0]!.after).toBeGreaterThan(50_000);
      expect(seen[0]!.again).toBeLessThanOrEqual(5_000);
    } finally {
      await worker.close();
      await queues.close();
      connection.disconnect();
      client.disconnect();
    }
  });
});
