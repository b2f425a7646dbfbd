import { describe, expect, it } from 'vitest';
import { queuedBehind, renderLineItem, renderLineKeys, sameRender } from './render-line';

const render = (userId: string, subjectId: string, version = 'a'.repeat(32)) => ({
  kind: 'audit' as const,
  subjectId,
  userId,
  version,
});

describe('render line helpers', () => {
  it('counts the renders that start before one', () => {
    expect(queuedBehind({ at: 'rendering' })).toBe(0);
    expect(queuedBehind({ at: 'queue', waitingAhead: 0 })).toBe(0);
    expect(queuedBehind({ at: 'queue', waitingAhead: 3 })).toBe(3);
    // Next in its user's line while the user's current one renders: that one first.
    expect(queuedBehind({ at: 'line', position: 0, current: { at: 'rendering' } })).toBe(1);
    // Third in the line, the current one still behind two other users' jobs.
    expect(
      queuedBehind({ at: 'line', position: 2, current: { at: 'queue', waitingAhead: 2 } }),
    ).toBe(2 + 1 + 2);
  });

  it('writes a render the same way whatever the order of its fields', () => {
    const a = render('u1', 's1');
    const shuffled = { version: a.version, userId: 'u1', subjectId: 's1', kind: 'audit' as const };
    expect(renderLineItem(shuffled)).toBe(renderLineItem(a));
    expect(JSON.parse(renderLineItem(a))).toEqual(a);
    expect(sameRender(a, shuffled)).toBe(true);
    expect(sameRender(a, render('u1', 's1', 'b'.repeat(32)))).toBe(false);
  });

  it("keeps a user's two keys in one Redis Cluster hash slot", () => {
    const keys = renderLineKeys('bull', 'u1');
    expect(keys).toEqual({
      current: 'bull:render-line:{u1}:current',
      waiting: 'bull:render-line:{u1}:waiting',
    });
  });
});
