import { describe, expect, vi } from 'vitest';
import { pino } from 'pino';
import { it } from '@aso/testkit/vitest';
import { deletePrefix } from '@aso/testkit';
import { startWorkerService, ZWorkerBaseEnv, type TRedisClient } from '@aso/queue';

describe('worker service bootstrap', () => {
  it('re-creates its job schedulers when Redis comes back without them', async ({ redis }) => {
    const env = {
      ...ZWorkerBaseEnv.parse({ REDIS_URL: redis.url, QUEUE_PREFIX: redis.prefix }),
      CONCURRENCY: 1,
      HEALTH_PORT: null,
    };
    let commands: TRedisClient | null = null;
    let read: (() => Promise<string[]>) | null = null;
    const service = await startWorkerService(
      'bootstrap-test',
      env,
      { handleSignals: false, log: pino({ level: 'silent' }) },
      async (ctx) => {
        commands = ctx.redis;
        read = async () =>
          (await ctx.producers.queue('maintenance').getJobSchedulers()).map((s) => s.key);
        await ctx.producers.scheduleEvery('cleanup-test', 'cleanup-expired', {}, 3_600_000);
        return {};
      },
    );
    try {
      expect(await read!()).toEqual(['cleanup-test']);
      // What a Redis restart without persistence leaves: no keys, and a dropped connection.
      await deletePrefix(redis.prefix);
      expect(await read!()).toEqual([]);
      commands!.disconnect(true);
      await vi.waitUntil(async () => (await read!()).length === 1, { timeout: 10_000 });
      expect(await read!()).toEqual(['cleanup-test']);
    } finally {
      await service.close();
    }
  });
});
