import { describe, expect, it } from 'vitest';
import { maxInWindow } from './keywords.bench';

describe('the most requests in any window', () => {
  it('slides the window over every request', () => {
    expect(maxInWindow([], 1000)).toBe(0);
    expect(maxInWindow([0, 100, 200], 1000)).toBe(3);
    // 1000 ms apart: never two in one window of 1000 ms (the end is excluded).
    expect(maxInWindow([0, 1000, 2000], 1000)).toBe(1);
    expect(maxInWindow([0, 999, 1998], 1000)).toBe(2);
    expect(maxInWindow([0, 10, 2000, 2001, 2002, 2999], 1000)).toBe(4);
  });
});
