import { describe, expect, it } from 'vitest';
import { UserSlots } from './user-slots';

const alive = () => new AbortController().signal;

describe('UserSlots', () => {
  it('works on at most perKey requests of a key at once, the next in arrival order', async () => {
    const slots = new UserSlots(2, 10);
    const first = await slots.take('u', alive());
    const second = await slots.take('u', alive());
    expect(slots.running('u')).toBe(2);
    const order: string[] = [];
    const third = slots.take('u', alive()).then((r) => (order.push('third'), r));
    const fourth = slots.take('u', alive()).then((r) => (order.push('fourth'), r));
    // Another key is not held up.
    expect(await slots.take('v', alive())).toBeTypeOf('function');
    await Promise.resolve();
    expect(order).toEqual([]);
    first!();
    first!(); // giving a slot back twice gives back one
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    second!();
    const releaseFourth = await fourth;
    expect(order).toEqual(['third', 'fourth']);
    expect(slots.running('u')).toBe(2);
    releaseThird!();
    releaseFourth!();
    expect(slots.running('u')).toBe(0);
  });

  it('refuses past maxWaiting, and drops a waiting request whose client went away', async () => {
    const slots = new UserSlots(1, 1);
    const held = await slots.take('u', alive());
    const gone = new AbortController();
    const waiting = slots.take('u', gone.signal);
    expect(await slots.take('u', alive())).toBeNull();
    gone.abort();
    expect(await waiting).toBeNull();
    // Its place in the queue is free again.
    const next = slots.take('u', alive());
    held!();
    const release = await next;
    expect(release).toBeTypeOf('function');
    release!();
    expect(slots.running('u')).toBe(0);
  });

  it('takes a free slot at once, and none while every slot of the key is held', async () => {
    const slots = new UserSlots(2, 1);
    const first = slots.tryTake('u');
    const second = slots.tryTake('u');
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(slots.tryTake('u')).toBeNull();
    expect(slots.running('u')).toBe(2);
    // A waiting request gets the slot before a later tryTake can.
    const waiting = slots.take('u', alive());
    first!();
    expect(slots.tryTake('u')).toBeNull();
    const third = await waiting;
    expect(third).toBeTypeOf('function');
    second!();
    third!();
    expect(slots.running('u')).toBe(0);
    expect(slots.tryTake('u')).toBeTypeOf('function');
  });
});
