import { describe, expect, it } from 'vitest';
import { measureSseFloor } from './sse-floor';

// A real server process and real streams on loopback.
describe('measureSseFloor', () => {
  it(
    'delivers every burst to every stream once and measures each receipt',
    { timeout: 60_000 },
    async () => {
      const floor = await measureSseFloor({ clients: 30, bursts: 3, gapMs: 100, dataBytes: 500 });
      expect(floor.latencies).toHaveLength(90);
      for (const ms of floor.latencies) {
        // Emitted by another process's clock, received here: never before it was sent (1 ms of
        // clock granularity), and well within the gap on an idle loopback.
        expect(ms).toBeGreaterThan(-1);
        expect(ms).toBeLessThan(5_000);
      }
      expect(floor.clientLoopDelayP99Ms).toBeGreaterThan(0);
    },
  );
});
