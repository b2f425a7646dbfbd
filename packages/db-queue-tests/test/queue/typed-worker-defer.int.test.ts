import { afterAll, describe, expect } from 'vitest';
import { Queue, QueueEvents } from 'bullmq';
import { it } from '@aso/testkit/vitest';
import { createRedis, createTypedWorker, type TJobHandler } from '@aso/queue';
import { scrapeOnly } from './scrape-handlers';

const conns: ReturnType<typeof createRedis>[] = [];
afterAll(() => conns.forEach((c) => c.disconnect()));
const conn = (url: string) => {
  const c = createRedis(url, { role: 'worker' });
  conns.push(c);
  return c;
};

class OutageError extends Error {}

describe('a typed worker with deferOn', () => {
  it('puts a job that met an outage back as delayed without using an attempt, then completes it', async ({
    redis,
  }) => {
    const queueName = 'scrape';
    let calls = 0;
    const deferred: string[] = [];
    const handler: TJobHandler<'scrape'> = async (data) => {
      calls++;
      if (calls <= 3) throw new OutageError('database down');
      return { ok: data.appId };
    };
    const worker = createTypedWorker(queueName, scrapeOnly(handler), {
      connection: conn(redis.url),
      prefix: redis.prefix,
      concurrency: 1,
      deferOn: {
        test: (err) => err instanceof OutageError,
        delayMs: 100,
        onDefer: (job) => deferred.push(job.id ?? ''),
      },
    });
    const queue = new Queue(queueName, { connection: conn(redis.url), prefix: redis.prefix });
    const events = new QueueEvents(queueName, {
      connection: conn(redis.url),
      prefix: redis.prefix,
    });
    await events.waitUntilReady();
    try {
      // One attempt only: without the deferral the first outage would fail the job for good.
      const job = await queue.add(
        'scrape',
        {
          auditId: 'a',
          appId: '7',
          storefront: 'us',
          role: 'main',
          appStoreUrl: 'https://apps.apple.com/us/app/id7',
        },
        { attempts: 1 },
      );
      expect(await job.waitUntilFinished(events, 30_000)).toEqual({ ok: '7' });
      expect(calls).toBe(4);
      expect(deferred).toEqual([job.id, job.id, job.id]);
      const done = await queue.getJob(job.id!);
      expect(done?.attemptsMade).toBe(1);
    } finally {
      await worker.close();
      await events.close();
      await queue.close();
    }
  });

  it('fails other errors as before', async ({ redis }) => {
    const queueName = 'analysis';
    const worker = createTypedWorker(
      queueName,
      {
        analysis: () => Promise.reject(new Error('bad input')),
      },
      {
        connection: conn(redis.url),
        prefix: redis.prefix,
        deferOn: { test: (err) => err instanceof OutageError, delayMs: 100 },
      },
    );
    const queue = new Queue(queueName, { connection: conn(redis.url), prefix: redis.prefix });
    const events = new QueueEvents(queueName, {
      connection: conn(redis.url),
      prefix: redis.prefix,
    });
    await events.waitUntilReady();
    try {
      const job = await queue.add('analysis', { auditId: 'x' }, { attempts: 1 });
      await expect(job.waitUntilFinished(events, 30_000)).rejects.toThrow('bad input');
    } finally {
      await worker.close();
      await events.close();
      await queue.close();
    }
  });
});
