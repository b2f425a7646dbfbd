import { describe, expect, it } from 'vitest';
import { parseStatTicks, parseStatusRssBytes } from './process.sampler';

describe('/proc parsing', () => {
  it('reads utime + stime after a command name holding spaces and parentheses', () => {
    // Constructed from the layout of proc(5): pid (comm) state ppid ... utime(14) stime(15) ...
    const stat =
      '4242 (node (x) y) S 1 4242 4242 0 -1 4194304 1234 0 0 0 731 269 0 0 20 0 11 0 5000 0';
    expect(parseStatTicks(stat)).toBe(1000);
  });

  it('refuses a line that is not a stat line', () => {
    expect(() => parseStatTicks('nonsense')).toThrow('not a /proc stat line');
  });

  it('reads VmRSS in bytes, null when the field is absent', () => {
    expect(parseStatusRssBytes('Name:\tnode\nVmHWM:\t  90000 kB\nVmRSS:\t   81920 kB\n')).toBe(
      81920 * 1024,
    );
    expect(parseStatusRssBytes('Name:\tzombie\n')).toBeNull();
  });
});
