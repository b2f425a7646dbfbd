import { afterAll, describe, expect, vi } from 'vitest';
import { Queue, QueueEvents } from 'bullmq';
import { it } from '@aso/testkit/vitest';
import {
  createRedis,
  createTypedWorker,
  runWorkerService,
  UnrecoverableError,
  type TJobHandler,
  type TRuntimeLogger,
} from '@aso/queue';
import { scrapeOnly } from './scrape-handlers';

// Metrics and job logs on the worker side: a real BullMQ worker run by runWorkerService
// serves `/metrics` on its health port, its counters rise with the jobs it runs, the queue
// depth is read from Redis at scrape time, and each job's events are logged with its ids.

const conns: ReturnType<typeof createRedis>[] = [];
afterAll(() => conns.forEach((c) => c.disconnect()));
const conn = (url: string) => {
  const c = createRedis(url, { role: 'worker' });
  conns.push(c);
  return c;
};

/** A logger that keeps every line (object merged with its bindings), as pino would write them. */
function collectingLogger(
  lines: Record<string, unknown>[],
  bindings: Record<string, unknown> = {},
): TRuntimeLogger {
  const write = (level: string) => (obj: object | string, msg?: string) =>
    lines.push({
      level,
      ...bindings,
      ...(typeof obj === 'string' ? { msg: obj } : { ...obj, msg }),
    });
  return {
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    debug: write('debug'),
    child: (more) => collectingLogger(lines, { ...bindings, ...more }),
  };
}

/** The value of `name` with all of `labels` in a Prometheus text exposition (null when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  const want = Object.entries(labels);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (want.every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.split(' ').at(-1));
  }
  return null;
}

const scrape = (auditId: string, appId: string) => ({
  auditId,
  appId,
  storefront: 'us',
  role: 'main' as const,
  appStoreUrl: `https://apps.apple.com/us/app/id${appId}`,
});

describe('worker metrics and job logs', () => {
  it('serves /metrics whose job counters, durations and queue depth follow the jobs', async ({
    redis,
  }) => {
    const handler: TJobHandler<'scrape'> = async (data) => {
      await new Promise((r) => setTimeout(r, 120));
      if (data.appId === '2') throw new UnrecoverableError('constructed failure');
      return { ok: data.appId };
    };
    const lines: Record<string, unknown>[] = [];
    const worker = createTypedWorker('scrape', scrapeOnly(handler), {
      connection: conn(redis.url),
      prefix: redis.prefix,
      concurrency: 1,
    });
    const service = await runWorkerService({
      name: 'metrics-test',
      log: collectingLogger(lines),
      redis: conn(redis.url),
      workers: [worker],
      healthPort: 0,
      handleSignals: false,
    });
    const metricsUrl = `http://127.0.0.1:${service.healthPort}/metrics`;
    const read = async () => {
      const res = await fetch(metricsUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      return res.text();
    };
    const labels = { service: 'metrics-test', queue: 'scrape' };

    const before = await read();
    expect(sample(before, 'aso_jobs_completed_total', labels)).toBe(0);
    expect(sample(before, 'aso_jobs_failed_total', labels)).toBe(0);
    expect(sample(before, 'aso_queue_jobs', { ...labels, state: 'waiting' })).toBe(0);

    const queue = new Queue('scrape', { connection: conn(redis.url), prefix: redis.prefix });
    const events = new QueueEvents('scrape', { connection: conn(redis.url), prefix: redis.prefix });
    await events.waitUntilReady();
    const ok = await queue.add('scrape', scrape('audit-ok', '1'));
    const bad = await queue.add('scrape', scrape('audit-bad', '2'), { attempts: 1 });
    // A delayed job stays delayed for the whole test: the depth gauge must see it.
    await queue.add('scrape', scrape('audit-later', '3'), { delay: 600_000 });
    await ok.waitUntilFinished(events, 15_000);
    await expect(bad.waitUntilFinished(events, 15_000)).rejects.toThrow('constructed failure');

    // QueueEvents may report the failure before the worker's own 'failed' event has run.
    const after = await vi.waitFor(
      async () => {
        const text = await read();
        expect(sample(text, 'aso_jobs_failed_total', labels)).toBe(1);
        return text;
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(sample(after, 'aso_jobs_completed_total', labels)).toBe(1);
    expect(sample(after, 'aso_jobs_failed_total', labels)).toBe(1);
    expect(
      sample(after, 'aso_job_duration_seconds_count', { ...labels, status: 'completed' }),
    ).toBe(1);
    expect(sample(after, 'aso_job_duration_seconds_count', { ...labels, status: 'failed' })).toBe(
      1,
    );
    // The handler waits 120 ms: the observed duration is at least that.
    expect(
      sample(after, 'aso_job_duration_seconds_sum', { ...labels, status: 'completed' }),
    ).toBeGreaterThanOrEqual(0.1);
    expect(
      sample(after, 'aso_job_duration_seconds_bucket', {
        ...labels,
        status: 'completed',
        le: '0.05',
      }),
    ).toBe(0);
    expect(sample(after, 'aso_queue_jobs', { ...labels, state: 'delayed' })).toBe(1);
    expect(sample(after, 'aso_queue_jobs', { ...labels, state: 'failed' })).toBe(1);
    expect(sample(after, 'aso_queue_jobs', { ...labels, state: 'waiting' })).toBe(0);
    expect(sample(after, 'aso_queue_jobs', { ...labels, state: 'active' })).toBe(0);
    expect(after).toMatch(/^process_resident_memory_bytes\{service="metrics-test"\} \d+/m);

    // Correlated job logs: every job event carries the job id, its queue and its audit.
    const completed = lines.find((l) => l.msg === 'job completed');
    expect(completed).toMatchObject({
      jobId: ok.id,
      queue: 'scrape',
      jobName: 'scrape',
      auditId: 'audit-ok',
      appId: '1',
      attempt: 1,
    });
    expect(completed?.durationMs).toBeGreaterThanOrEqual(100);
    const failed = lines.find((l) => l.msg === 'job failed');
    expect(failed).toMatchObject({
      jobId: bad.id,
      auditId: 'audit-bad',
      err: 'constructed failure',
    });
    const started = lines.filter((l) => l.msg === 'job started').map((l) => l.auditId);
    expect(started).toEqual(['audit-ok', 'audit-bad']);

    await service.close();
    await events.close();
    await queue.close();
  });

  it('serves no /metrics when metrics are turned off, and the caller’s route when it gives one', async ({
    redis,
  }) => {
    const handler: TJobHandler<'scrape'> = async () => ({});
    const make = () =>
      createTypedWorker('scrape', scrapeOnly(handler), {
        connection: conn(redis.url),
        prefix: `${redis.prefix}-m`,
        concurrency: 1,
      });
    const off = await runWorkerService({
      name: 'off',
      log: collectingLogger([]),
      redis: conn(redis.url),
      workers: [make()],
      healthPort: 0,
      handleSignals: false,
      metrics: false,
    });
    expect((await fetch(`http://127.0.0.1:${off.healthPort}/metrics`)).status).toBe(404);
    expect(off.metrics).toBeNull();
    await off.close();

    const custom = await runWorkerService({
      name: 'custom',
      log: collectingLogger([]),
      redis: conn(redis.url),
      workers: [make()],
      healthPort: 0,
      handleSignals: false,
      extraRoutes: { '/metrics': async () => ['text/plain', 'custom 1\n'] },
    });
    expect(await (await fetch(`http://127.0.0.1:${custom.healthPort}/metrics`)).text()).toBe(
      'custom 1\n',
    );
    await custom.close();
  });
});
