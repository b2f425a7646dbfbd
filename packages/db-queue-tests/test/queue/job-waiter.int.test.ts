import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnRedis } from '@aso/testkit/system';
import {
  createRedis,
  createTypedWorker,
  JobWaiter,
  Producers,
  QUEUES,
  UnrecoverableError,
  type TMergeJob,
  type TRedisClient,
  type Worker,
} from '@aso/queue';

// A Redis of this file's own: the last case kills it.
let redis: OwnRedis;
let commands: TRedisClient;
let producers: Producers;
let waiter: JobWaiter;
let worker: Worker | null = null;
let workerConnection: TRedisClient | undefined;
const prefix = 'job-waiter-test';

beforeAll(async () => {
  redis = await OwnRedis.start();
  commands = createRedis(redis.url, { role: 'producer', name: 'test:commands' });
  // The last case's dead Redis is reported on the calls; the connection's own errors are noise.
  commands.on('error', () => undefined);
  producers = new Producers(commands, prefix);
  waiter = new JobWaiter({
    queue: QUEUES.csvMerge,
    target: redis.url,
    producers,
    redis: commands,
    onError: () => undefined,
  });
});

afterAll(async () => {
  await worker?.close();
  // A connection handed to a worker is the caller's to close.
  workerConnection?.disconnect();
  await waiter.close();
  await producers.close();
  commands.disconnect();
  await redis.stop();
});

const mergeJob = (): TMergeJob => ({
  userId: randomUUID(),
  conversionUploadId: randomUUID(),
  redownloadsUploadId: null,
});

/** A csv-merge worker answering the job's user id, or failing for the user `failFor`. */
function startWorker(failFor: string): Worker {
  workerConnection ??= createRedis(redis.url, { role: 'worker' });
  return createTypedWorker(
    QUEUES.csvMerge,
    {
      merge: async (data) => {
        if (data.userId === failFor)
          throw new UnrecoverableError('upload: the merge took too long');
        return { mergedFor: data.userId };
      },
    },
    { connection: workerConnection, prefix, concurrency: 1 },
  );
}

describe('JobWaiter', () => {
  it("answers a job's return value, its failure, and a job that finished before the wait", async () => {
    const failing = mergeJob();
    worker = startWorker(failing.userId);
    const data = mergeJob();
    const job = await producers.add('merge', data);
    expect(await waiter.wait(job, 10_000)).toEqual({
      status: 'completed',
      value: { mergedFor: data.userId },
    });

    const failed = await producers.add('merge', failing);
    expect(await waiter.wait(failed, 10_000)).toEqual({
      status: 'failed',
      reason: 'upload: the merge took too long',
    });

    // Finished before anyone listened: read back from the job.
    const early = mergeJob();
    const done = await producers.add('merge', early);
    await expect.poll(() => done.getState(), { timeout: 10_000 }).toBe('completed');
    expect(await waiter.wait(done, 10_000)).toEqual({
      status: 'completed',
      value: { mergedFor: early.userId },
    });
    await worker.close();
    worker = null;
    // Closed before the next case kills Redis, so it does not reconnect meanwhile.
    workerConnection?.disconnect();
  });

  it('answers a timeout, and nothing escapes, when Redis dies as the wait starts', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      // No worker: the job stays queued. The waiter's events are open from the first case.
      const job = await producers.add('merge', mergeJob());
      await redis.kill();
      const outcome = await waiter.wait(job, 1_500);
      expect(outcome).toEqual({ status: 'timeout', state: 'unknown', removed: false });
      // Let the rejections of the commands flushed by the dead connection settle.
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
