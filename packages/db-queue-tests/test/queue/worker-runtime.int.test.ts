import { afterAll, describe, expect, vi } from 'vitest';
import { Queue, QueueEvents } from 'bullmq';
import { it } from '@aso/testkit/vitest';
import { createRedis, createTypedWorker, runWorkerService, type TJobHandler } from '@aso/queue';
import { scrapeOnly } from './scrape-handlers';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const conns: ReturnType<typeof createRedis>[] = [];
afterAll(() => conns.forEach((c) => c.disconnect()));
const conn = (url: string) => {
  const c = createRedis(url, { role: 'worker' });
  conns.push(c);
  return c;
};

describe('worker service shutdown', () => {
  it('lets the in-flight job finish on close, and loses nothing', async ({ redis }) => {
    const started: string[] = [];
    const finished: string[] = [];
    const handler: TJobHandler<'scrape'> = async (data) => {
      started.push(data.appId);
      await new Promise((r) => setTimeout(r, 800));
      finished.push(data.appId);
      return { ok: data.appId };
    };
    const worker = createTypedWorker('scrape', scrapeOnly(handler), {
      connection: conn(redis.url),
      prefix: redis.prefix,
      concurrency: 1,
    });
    const service = await runWorkerService({
      name: 'test',
      log: silent,
      redis: conn(redis.url),
      workers: [worker],
      healthPort: 0,
      handleSignals: false,
    });
    const health = await fetch(`http://127.0.0.1:${service.healthPort}/healthz`);
    expect(health.status).toBe(200);

    const queue = new Queue('scrape', { connection: conn(redis.url), prefix: redis.prefix });
    const data = {
      auditId: 'a',
      storefront: 'us',
      role: 'main' as const,
      appStoreUrl: 'https://apps.apple.com/us/app/id1',
    };
    const job = await queue.add('scrape', { ...data, appId: '1' });
    await vi.waitUntil(() => started.length > 0, { timeout: 10_000, interval: 20 });
    await service.close();

    expect(finished).toEqual(['1']);
    expect(await job.getState()).toBe('completed');
    expect((await queue.getJob(job.id!))?.returnvalue).toEqual({ ok: '1' });
    await queue.close();
  });

  it('releases a job that outlives the shutdown timeout to another worker (not lost)', async ({
    redis,
  }) => {
    const prefix = `${redis.prefix}-stall`;
    let firstRuns = 0;
    const slow: TJobHandler<'scrape'> = async (_d, _job, signal) => {
      firstRuns++;
      await new Promise((r) => {
        const t = setTimeout(r, 60_000);
        signal.addEventListener('abort', () => clearTimeout(t));
      });
      throw new Error('should not complete here');
    };
    const fast: TJobHandler<'scrape'> = async (d) => ({ ok: d.appId });
    const opts = { prefix, concurrency: 1, lockDuration: 1_000, stalledInterval: 500 };
    const first = createTypedWorker('scrape', scrapeOnly(slow), {
      connection: conn(redis.url),
      ...opts,
    });
    const svc = await runWorkerService({
      name: 'first',
      log: silent,
      redis: conn(redis.url),
      workers: [first],
      healthPort: null,
      handleSignals: false,
      shutdownTimeoutMs: 300,
    });
    const queue = new Queue('scrape', { connection: conn(redis.url), prefix });
    const events = new QueueEvents('scrape', { connection: conn(redis.url), prefix });
    await events.waitUntilReady();
    const job = await queue.add('scrape', {
      auditId: 'b',
      appId: '2',
      storefront: 'us',
      role: 'main',
      appStoreUrl: 'https://apps.apple.com/us/app/id2',
    });
    await vi.waitUntil(() => firstRuns > 0, { timeout: 10_000, interval: 20 });
    await svc.close();

    const second = createTypedWorker('scrape', scrapeOnly(fast), {
      connection: conn(redis.url),
      ...opts,
    });
    const result: unknown = await job.waitUntilFinished(events, 15_000);
    expect(result).toEqual({ ok: '2' });
    await second.close();
    await events.close();
    await queue.close();
  });
});
