import { afterAll, describe, expect, vi } from 'vitest';
import { it } from '@aso/testkit/vitest';
import { CacheInvalidationBus, createRedis, type TInvalidation } from '@aso/queue';

const conns: ReturnType<typeof createRedis>[] = [];
afterAll(() => conns.forEach((c) => c.disconnect()));

const WAIT = { timeout: 10_000, interval: 10 };

/** A bus on its own connections, with a handler recording what it was told. */
function process(url: string, prefix: string) {
  const pub = createRedis(url, { role: 'producer', name: 'test:cache-pub' });
  const sub = createRedis(url, { role: 'subscriber', name: 'test:cache-sub' });
  conns.push(pub, sub);
  const bus = new CacheInvalidationBus(pub, sub, prefix);
  const seen: TInvalidation[] = [];
  let resets = 0;
  bus.register({ invalidate: (m) => seen.push(m), reset: () => resets++ });
  return { bus, sub, seen, resets: () => resets };
}

describe('cache invalidation bus', () => {
  it('tells every process, and is not live while its subscription is lost', async ({ redis }) => {
    const a = process(redis.url, redis.prefix);
    const b = process(redis.url, redis.prefix);
    const other = process(redis.url, `${redis.prefix}-other`);
    await Promise.all([a.bus.start(), b.bus.start(), other.bus.start()]);
    await vi.waitUntil(() => a.bus.live && b.bus.live && other.bus.live, WAIT);

    const before = b.bus.generation;
    await a.bus.publish('session', 'hash-1');
    // The publisher's own handlers at once; the others when the message arrives.
    expect(a.seen).toContainEqual({ scope: 'session', key: 'hash-1' });
    await vi.waitUntil(() => b.seen.length === 1, WAIT);
    expect(b.seen).toEqual([{ scope: 'session', key: 'hash-1' }]);
    expect(b.bus.generation).toBeGreaterThan(before);
    // Another deployment's prefix hears nothing.
    expect(other.seen).toEqual([]);

    // The subscription drops: not live at once; back, everything is reset before it is live.
    const resets = b.resets();
    b.sub.disconnect(true);
    await vi.waitUntil(() => !b.bus.live, WAIT);
    await vi.waitUntil(() => b.bus.live, WAIT);
    expect(b.resets()).toBeGreaterThan(resets);
    await a.bus.publish('audit', 'audit-1');
    await vi.waitUntil(() => b.seen.length === 2, WAIT);
    expect(b.seen[1]).toEqual({ scope: 'audit', key: 'audit-1' });

    b.bus.close();
    expect(b.bus.live).toBe(false);
  });
});
