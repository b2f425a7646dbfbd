import { afterAll, describe, expect, vi } from 'vitest';
import { it } from '@aso/testkit/vitest';
import {
  createRedis,
  ProgressBus,
  ProgressSubscriber,
  compareEntryIds,
  type TProgressEntry,
} from '@aso/queue';
import type { TBusEvent } from '@aso/contracts';

const conns: ReturnType<typeof createRedis>[] = [];
afterAll(() => conns.forEach((c) => c.disconnect()));

const step = (n: number): TBusEvent => ({
  type: 'step',
  emittedAt: Date.now(),
  step: {
    step_id: 'finalize',
    status: 'in_progress',
    message: `event ${n}`,
    progress_pct: n,
    started_at: null,
    ended_at: null,
  },
});
/** How `vi.waitUntil` polls here. */
const WAIT = { timeout: 5_000, interval: 10 };
const label = (e: TProgressEntry) =>
  e.event.type === 'step' ? e.event.step.message : e.event.type;
function setup(url: string, prefix: string) {
  const cmd = createRedis(url, { role: 'producer', name: 'test:cmd' });
  const cmd2 = createRedis(url, { role: 'producer', name: 'test:cmd2' });
  const sub = createRedis(url, { role: 'subscriber', name: 'test:sub' });
  conns.push(cmd, cmd2, sub);
  const bus = new ProgressBus(cmd, { prefix });
  return {
    bus,
    bus2: new ProgressBus(cmd2, { prefix }),
    subscriber: new ProgressSubscriber(bus, sub),
    cmd,
  };
}

describe('progress event bus', () => {
  it('a listener that joins mid-stream gets every earlier event once, then every later one once, in order', async ({
    redis,
  }) => {
    const { bus, subscriber } = setup(redis.url, redis.prefix);
    await subscriber.start();
    for (let i = 1; i <= 3; i++) await bus.append('audit-1', step(i));

    const early: TProgressEntry[] = [];
    const late: TProgressEntry[] = [];
    const stopEarly = await subscriber.listen('audit-1', undefined, (e) => early.push(e));
    expect(early.map(label)).toEqual(['event 1', 'event 2', 'event 3']);

    for (let i = 4; i <= 5; i++) await bus.append('audit-1', step(i));
    const stopLate = await subscriber.listen('audit-1', undefined, (e) => late.push(e));
    for (let i = 6; i <= 8; i++) await bus.append('audit-1', step(i));
    await vi
      .waitUntil(() => early.length === 8 && late.length === 8, WAIT)
      .catch((e: unknown) => {
        throw new Error(
          `${String(e)}: early ${early.map(label).join()} late ${late.map(label).join()}`,
        );
      });
    // A last event seen by both proves that nothing else was still on its way before it.
    await bus.append('audit-1', step(9));
    await vi.waitUntil(() => early.length === 9 && late.length === 9, WAIT);
    early.pop();
    late.pop();

    const all = Array.from({ length: 8 }, (_, i) => `event ${i + 1}`);
    expect(early.map(label)).toEqual(all);
    expect(late.map(label)).toEqual(all);
    expect(subscriber.size).toBe(2);
    stopEarly();
    stopLate();
    expect(subscriber.size).toBe(0);
  });

  it('resumes after a given entry id without repeating it', async ({ redis }) => {
    const { bus, subscriber } = setup(redis.url, redis.prefix);
    await subscriber.start();
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) ids.push(await bus.append('audit-2', step(i)));
    const got: TProgressEntry[] = [];
    const stop = await subscriber.listen('audit-2', ids[1], (e) => got.push(e));
    expect(got.map((e) => e.id)).toEqual(ids.slice(2));
    stop();
  });

  it('never skips events appended concurrently by several producers', async ({ redis }) => {
    const { bus, bus2, subscriber } = setup(redis.url, redis.prefix);
    await subscriber.start();
    const got: TProgressEntry[] = [];
    const stop = await subscriber.listen('audit-3', undefined, (e) => got.push(e));
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? bus : bus2).append('audit-3', step(i))),
    );
    await vi.waitUntil(() => got.length === 50, WAIT);
    // A last event proves that nothing else was still on its way before it.
    await bus.append('audit-3', step(50));
    await vi.waitUntil(() => got.length === 51, WAIT);
    expect(got.pop()?.id).toBeDefined();
    expect(got).toHaveLength(50);
    const ids = got.map((e) => e.id);
    expect([...ids].sort(compareEntryIds)).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
    stop();
  });

  it('delivers a read as one batch, shared by listeners at the same position; refresh reads up to now', async ({
    redis,
  }) => {
    const { bus, subscriber, cmd } = setup(redis.url, redis.prefix);
    await subscriber.start();
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) ids.push(await bus.append('audit-5', step(i)));

    const a: (readonly TProgressEntry[])[] = [];
    const b: (readonly TProgressEntry[])[] = [];
    const c: TProgressEntry[] = [];
    const stopA = await subscriber.listenBatches('audit-5', undefined, (es) => a.push(es));
    const stopB = await subscriber.listenBatches('audit-5', ids[1], (es) => b.push(es));
    let stopC: (() => void) | null = null;
    stopC = await subscriber.listen('audit-5', ids[0], (e) => {
      c.push(e);
      // Unsubscribing inside the callback stops the rest of the same read.
      if (label(e) === 'event 4') stopC?.();
    });
    expect(a.map((batch) => batch.map(label))).toEqual([['event 1', 'event 2', 'event 3']]);
    expect(b.map((batch) => batch.map(label))).toEqual([['event 3']]);
    expect(c.map(label)).toEqual(['event 2', 'event 3']);

    // Two entries appended without a wake-up: only a refresh reads them, as one batch.
    const key = bus.streamKey('audit-5');
    await cmd.xadd(key, '*', 'e', JSON.stringify(step(4)));
    await cmd.xadd(key, '*', 'e', JSON.stringify(step(5)));
    expect(a).toHaveLength(1);
    await subscriber.refresh('audit-5');
    expect(a.map((batch) => batch.map(label))).toEqual([
      ['event 1', 'event 2', 'event 3'],
      ['event 4', 'event 5'],
    ]);
    // A and B were both at event 3: one group, one array.
    expect(b).toHaveLength(2);
    expect(b[1]).toBe(a[1]);
    expect(c.map(label)).toEqual(['event 2', 'event 3', 'event 4']);
    expect(subscriber.size).toBe(2);
    stopA();
    stopB();
    expect(subscriber.size).toBe(0);
    // Without listeners a refresh reads nothing and resolves.
    await subscriber.refresh('audit-5');
    expect(a).toHaveLength(2);
  });

  it('delivers announced entries without reading the stream, and reads when a listener is behind', async ({
    redis,
  }) => {
    const { bus, subscriber, cmd } = setup(redis.url, redis.prefix);
    await subscriber.start();
    await bus.append('audit-6', step(1));
    const got: TProgressEntry[] = [];
    const stop = await subscriber.listen('audit-6', undefined, (e) => got.push(e));
    expect(got.map(label)).toEqual(['event 1']);
    const reads = vi.spyOn(bus, 'read');

    // Live entries come with their announcement: no read of the stream.
    for (let i = 2; i <= 4; i++) await bus.append('audit-6', step(i));
    await vi.waitUntil(() => got.length === 4, WAIT);
    expect(reads).not.toHaveBeenCalled();

    // An entry the listener never heard of (appended without an announcement): the next
    // announcement names it as its predecessor, so the listener is behind and reads both.
    const key = bus.streamKey('audit-6');
    await cmd.xadd(key, '*', 'e', JSON.stringify(step(5)));
    await bus.append('audit-6', step(6));
    await vi.waitUntil(() => got.length === 6, WAIT);
    expect(reads).toHaveBeenCalledTimes(1);

    // A bare wake-up (the audit id alone, as earlier workers publish) is answered by a read.
    await cmd.xadd(key, '*', 'e', JSON.stringify(step(7)));
    await cmd.publish(bus.channel, 'audit-6');
    await vi.waitUntil(() => got.length === 7, WAIT);
    expect(reads).toHaveBeenCalledTimes(2);

    // Then announcements are taken as they are again.
    await bus.append('audit-6', step(8));
    await vi.waitUntil(() => got.length === 8, WAIT);
    expect(reads).toHaveBeenCalledTimes(2);
    expect(got.map(label)).toEqual(Array.from({ length: 8 }, (_, i) => `event ${i + 1}`));
    const ids = got.map((e) => e.id);
    expect([...ids].sort(compareEntryIds)).toEqual(ids);
    reads.mockRestore();
    stop();
  });

  it('caps and expires the stream', async ({ redis }) => {
    const { bus, cmd } = setup(redis.url, redis.prefix);
    await bus.append('audit-4', step(1));
    const ttl = await cmd.ttl(bus.streamKey('audit-4'));
    expect(ttl).toBeGreaterThan(86_000);
    expect(ttl).toBeLessThanOrEqual(86_400);
  });
});
