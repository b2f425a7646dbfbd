import { afterAll, describe, expect, vi } from 'vitest';
import { it } from '@aso/testkit/vitest';
import { createRedis, ProgressBus, ProgressSubscriber } from '@aso/queue';
import type { TBusEvent } from '@aso/contracts';
import {
  formatEventId,
  ProgressAggregator,
  type TEventPosition,
} from '../src/progress/progress.aggregator';
import { ProgressFeeds, renderSseMessage, type TFeedMember } from '../src/progress/progress.feed';
import { appStep, step } from './bus-event.builders';

const conns: ReturnType<typeof createRedis>[] = [];
afterAll(() => conns.forEach((c) => c.disconnect()));

const APPS = ['1', '2'];
/** How `vi.waitUntil` polls here. */
const WAIT = { timeout: 5_000, interval: 10 };
/** What the old per-client code wrote for these entries: one aggregator, one string per message. */
function expectedMessages(entries: readonly { id: string; event: TBusEvent }[]) {
  const agg = new ProgressAggregator(APPS);
  return entries.flatMap((e) =>
    agg.apply(e.event).map((m, index) => ({
      entryId: e.id,
      index,
      text: renderSseMessage(formatEventId(e.id, index), m),
    })),
  );
}
const after = (
  msgs: ReturnType<typeof expectedMessages>,
  p: TEventPosition,
): ReturnType<typeof expectedMessages> =>
  msgs.slice(msgs.findIndex((m) => m.entryId === p.entryId && m.index === p.index) + 1);

/** An SSE response stand-in that records what the feed writes and leaves when told to finish. */
function recorder(feeds: ProgressFeeds, auditId: string, resume: TEventPosition | null) {
  const writes: Buffer[] = [];
  let finished = 0;
  const member: TFeedMember = feeds.join(auditId, APPS, resume, {
    write: (bytes) => writes.push(bytes),
    finish: () => {
      finished++;
      member.leave();
    },
  });
  return {
    member,
    writes,
    text: () => Buffer.concat(writes).toString('utf8'),
    get finished() {
      return finished;
    },
  };
}

function setup(url: string, prefix: string) {
  const cmd = createRedis(url, { role: 'producer', name: 'test:cmd' });
  const sub = createRedis(url, { role: 'subscriber', name: 'test:sub' });
  conns.push(cmd, sub);
  const bus = new ProgressBus(cmd, { prefix });
  const subscriber = new ProgressSubscriber(bus, sub);
  return { bus, cmd, subscriber, feeds: new ProgressFeeds(subscriber) };
}

describe('progress feeds (one per audit, shared by its SSE clients)', () => {
  it('aggregates and encodes once for all clients of an audit, resumes each after its own position, and is released by the last client', async ({
    redis,
  }) => {
    const { bus, subscriber, feeds } = setup(redis.url, redis.prefix);
    await subscriber.start();
    const audit = 'feed-1';
    const entries: { id: string; event: TBusEvent }[] = [];
    const append = async (event: TBusEvent) => {
      entries.push({ id: await bus.append(audit, event), event });
    };
    await append(appStep('1', 'url_validation', 'in_progress', 1));
    await append(appStep('2', 'url_validation', 'done', 2));
    await append(appStep('1', 'url_validation', 'done', 3));
    // Closes every scrape step still open: one entry, seven messages.
    await append(step('ai_screenshot_analysis', 'in_progress', 4));
    const recorded = expectedMessages(entries);
    expect(recorded).toHaveLength(10);

    const a = recorder(feeds, audit, null);
    await a.member.ready;
    // The replay is one write, byte for byte what a client of its own would have been sent.
    expect(a.writes).toHaveLength(1);
    expect(a.text()).toBe(recorded.map((m) => m.text).join(''));

    // A reconnect whose Last-Event-ID is inside the seven-message entry.
    const mid = { entryId: entries[3]!.id, index: 2 };
    const b = recorder(feeds, audit, mid);
    await b.member.ready;
    expect(b.writes).toHaveLength(1);
    expect(b.text()).toBe(
      after(recorded, mid)
        .map((m) => m.text)
        .join(''),
    );
    // Up to date already: nothing to replay.
    const last = recorded.at(-1)!;
    const c = recorder(feeds, audit, last);
    await c.member.ready;
    expect(c.writes).toHaveLength(0);

    // One audit, one feed, one bus listener, whatever the number of clients.
    expect(feeds.size).toBe(1);
    expect(subscriber.size).toBe(1);
    expect(a.member.applied).toBe(4);

    await append(step('ai_screenshot_analysis', 'done', 5));
    await vi.waitUntil(
      () => a.writes.length === 2 && b.writes.length === 2 && c.writes.length === 1,
      WAIT,
    );
    // Live messages are encoded once: every client is written the same buffer.
    expect(b.writes[1]).toBe(a.writes[1]);
    expect(c.writes[0]).toBe(a.writes[1]);

    await append({ type: 'complete', auditId: audit, emittedAt: 6 });
    await append(step('finalize', 'done', 7)); // after complete: never sent
    await vi.waitUntil(() => a.finished + b.finished + c.finished === 3, WAIT);
    const all = expectedMessages(entries);
    expect(all.at(-1)!.text).toContain('event: complete');
    expect(a.text()).toBe(all.map((m) => m.text).join(''));
    expect(b.text()).toBe(
      after(all, mid)
        .map((m) => m.text)
        .join(''),
    );
    expect(c.text()).toBe(
      after(all, last)
        .map((m) => m.text)
        .join(''),
    );
    expect([a.finished, b.finished, c.finished]).toEqual([1, 1, 1]);
    expect(a.member.finished).toBe(true);

    // Every client left when the audit finished: nothing of it stays in the process.
    expect(feeds.size).toBe(0);
    expect(subscriber.size).toBe(0);

    // A later client gets a new feed that replays the whole stream and finishes at once.
    const d = recorder(feeds, audit, null);
    await d.member.ready;
    expect(d.text()).toBe(all.map((m) => m.text).join(''));
    expect(d.finished).toBe(1);
    expect(feeds.size).toBe(0);
    expect(subscriber.size).toBe(0);
  });

  it('a client that resumes ahead of the feed is sent only what comes after its position', async ({
    redis,
  }) => {
    const { bus, cmd, subscriber, feeds } = setup(redis.url, redis.prefix);
    await subscriber.start();
    const audit = 'feed-2';
    const a = recorder(feeds, audit, null);
    // e.g. its Last-Event-ID came from another gateway that was further on.
    const ahead = { entryId: '1000-2', index: 0 };
    const b = recorder(feeds, audit, ahead);
    await Promise.all([a.member.ready, b.member.ready]);
    expect(a.writes).toHaveLength(0);
    expect(b.writes).toHaveLength(0);

    // Entries with known ids, read by the feed in one batch.
    const entries = [
      { id: '1000-1', event: appStep('1', 'url_validation', 'done', 1) },
      { id: '1000-2', event: step('ai_screenshot_analysis', 'in_progress', 2) },
      { id: '1000-3', event: step('ai_screenshot_analysis', 'done', 3) },
    ];
    for (const e of entries)
      await cmd.xadd(bus.streamKey(audit), e.id, 'e', JSON.stringify(e.event));
    await subscriber.refresh(audit);
    const all = expectedMessages(entries);
    expect(a.writes).toHaveLength(1);
    expect(a.text()).toBe(all.map((m) => m.text).join(''));
    expect(b.writes).toHaveLength(1);
    expect(b.text()).toBe(
      after(all, ahead)
        .map((m) => m.text)
        .join(''),
    );
    expect(b.text().startsWith('id: 1000-2.1\n')).toBe(true);

    // From then on it is an ordinary client: the same buffer as everyone else.
    await cmd.xadd(
      bus.streamKey(audit),
      '1000-4',
      'e',
      JSON.stringify(step('finalize', 'done', 4)),
    );
    await subscriber.refresh(audit);
    expect(b.writes[1]).toBe(a.writes[1]);
    expect(b.writes[1]!.toString('utf8')).toContain('id: 1000-4\nevent: step\n');

    a.member.leave();
    expect(feeds.size).toBe(1);
    b.member.leave();
    b.member.leave(); // idempotent
    expect(feeds.size).toBe(0);
    expect(subscriber.size).toBe(0);
  });

  it('a client that resumes at or past the end of a finished audit gets its terminal event again', async ({
    redis,
  }) => {
    const { bus, cmd, subscriber, feeds } = setup(redis.url, redis.prefix);
    await subscriber.start();
    const audit = 'feed-ended';
    const entries = [
      { id: '2000-1', event: step('finalize', 'done', 1) },
      { id: '2000-2', event: { type: 'complete', auditId: audit, emittedAt: 2 } as TBusEvent },
    ];
    for (const e of entries)
      await cmd.xadd(bus.streamKey(audit), e.id, 'e', JSON.stringify(e.event));
    const all = expectedMessages(entries);
    const terminal = all[all.length - 1]!;
    expect(terminal.text).toContain('event: complete');
    const last = { entryId: terminal.entryId, index: terminal.index };
    for (const resume of [last, { entryId: '9999-0', index: 0 }]) {
      const c = recorder(feeds, audit, resume);
      await c.member.ready;
      expect(c.text()).toBe(terminal.text);
      expect(c.finished).toBe(1);
    }
    expect(feeds.size).toBe(0);
  });

  it('a client that leaves before its replay releases the feed and is never written', async ({
    redis,
  }) => {
    const { bus, subscriber, feeds } = setup(redis.url, redis.prefix);
    await subscriber.start();
    const audit = 'feed-3';
    await bus.append(audit, appStep('1', 'url_validation', 'in_progress', 1));
    const a = recorder(feeds, audit, null);
    a.member.leave();
    expect(feeds.size).toBe(0);
    await a.member.ready;
    expect(a.writes).toHaveLength(0);
    // Its bus listener, subscribed in the meantime, is removed as well.
    expect(subscriber.size).toBe(0);
  });
});
