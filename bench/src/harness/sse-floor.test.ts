import { describe, expect, it } from 'vitest';
import { measureSseFloor, type TSseFloorMessage } from './sse-floor';

// A real server process and real streams on loopback.
describe('measureSseFloor', () => {
  it(
    "writes a run's messages to the streams of their group and measures each step's receipt",
    { timeout: 60_000 },
    async () => {
      const messages: TSseFloorMessage[] = [
        { group: 0, atMs: 0, event: 'step', dataBytes: 300 },
        { group: 1, atMs: 0, event: 'step', dataBytes: 900 },
        // Due together with the one before: one write per stream, two messages.
        { group: 0, atMs: 40, event: 'step', dataBytes: 500 },
        { group: 0, atMs: 40, event: 'step', dataBytes: 500 },
        { group: 1, atMs: 120, event: 'step', dataBytes: 700 },
        { group: 1, atMs: 120, event: 'complete', dataBytes: 40 },
      ];
      const floor = await measureSseFloor({ groups: [10, 20], messages });
      // Group 0: 3 steps x 10 streams; group 1: 2 steps x 20 streams (complete not measured).
      expect(floor.latencies).toHaveLength(3 * 10 + 2 * 20);
      for (const ms of floor.latencies) {
        // Due by another process's clock, received here: never before it was due (1 ms of
        // clock granularity), and well within the schedule on an idle loopback.
        expect(ms).toBeGreaterThan(-1);
        expect(ms).toBeLessThan(5_000);
      }
      expect(floor.clientLoopDelayP99Ms).toBeGreaterThan(0);
      expect(floor.serverCpuMs).toBeGreaterThan(0);
    },
  );
});
