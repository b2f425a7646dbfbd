import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null = null;

/**
 * Runs a full garbage collection of this process now (V8's `gc()`, reached without starting
 * node with `--expose-gc`, Node's documented way). A load generator calls it before each
 * measured phase, so that no phase pays for the garbage of the one before (a full collection
 * of a heap holding a run's 88,000 messages stops the event loop for tens of ms, and that
 * delay would count as latency of whichever phase it fell in).
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
