import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Nice value the worker processes run at unless `WORKER_NICENESS` says otherwise (Unix nice:
 * 0 as started, 19 the lowest priority). On a machine the api shares with the workers (`pnpm
 * start`, one VM), the kernel then gives the CPU to the api first whenever both want it: an
 * audit's scrape, a merge or a PDF render waits a little, and progress streams and page reads
 * do not wait behind them (docs/BENCHMARKS.md, section SSE fan-out). Between containers the
 * cgroups' CPU weights decide instead (docs/OPERATIONS.md#cpu-priority).
 */
export const DEFAULT_WORKER_NICENESS = 10;

/** What {@link lowerCpuPriority} did. */
export interface TCpuPriorityOutcome {
  /** Nice value of the main thread afterwards. */
  niceness: number;
  /** Threads whose nice value was raised to the target. */
  lowered: number;
  /** Threads that could not be set (gone meanwhile, or refused by the OS), with the error. */
  refused: { thread: number; error: string }[];
}

/**
 * Lowers this process's CPU priority to `niceness` (0-19; 0 leaves it as started). On Linux
 * the nice value belongs to each thread and a new thread takes its creator's, so every thread
 * running already (V8's and libuv's, started before this) is set, and later ones (parse
 * threads, Chromium launched by the render worker) start at it from the main thread; elsewhere
 * the process's priority is set. A thread already at a higher nice value (a process started
 * under `nice`) keeps it: raising a priority again needs a privilege, lowering it never does.
 * For the same reason a child that sets its own threads' priorities (Chromium raises its
 * display threads) can do so only when it runs as root; the images run it as `node`.
 *
 * @param tasksDir where the threads of this process are listed (`/proc/self/task`; tests).
 * @throws RangeError when `niceness` is not a whole number from 0 to 19.
 */
export function lowerCpuPriority(
  niceness: number,
  tasksDir = '/proc/self/task',
): TCpuPriorityOutcome {
  if (!Number.isInteger(niceness) || niceness < 0 || niceness > 19) {
    throw new RangeError(`niceness must be a whole number from 0 to 19, got ${niceness}`);
  }
  const outcome: TCpuPriorityOutcome = { niceness: getPriority(), lowered: 0, refused: [] };
  if (niceness === 0) return outcome;
  let threads: number[];
  try {
    threads = readdirSync(tasksDir).map(Number).filter(Number.isInteger);
  } catch {
    // No per-thread listing (not Linux): the process as a whole (pid 0 = this process).
    threads = [0];
  }
  for (const thread of threads) {
    try {
      if (getPriority(thread) >= niceness) continue;
      setPriority(thread, niceness);
      outcome.lowered++;
    } catch (error) {
      outcome.refused.push({
        thread,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  outcome.niceness = getPriority();
  return outcome;
}
