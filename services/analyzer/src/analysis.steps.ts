import type { TBusEvent, TProgressStep, TStepId } from '@aso/contracts';
import type { ProgressBus, TRedisClient } from '@aso/queue';

/**
 * Appends one analysis step to the audit's progress stream as `in_progress` (progress 0,
 * `started_at` now), runs `fn`, then appends it `done` (progress 100, `ended_at` now) with the
 * message `doneMessage` builds from the result. An error in `fn` propagates and the step stays
 * in progress (the audit's `error` event ends the stream).
 */
export async function runStep<T>(
  bus: ProgressBus,
  auditId: string,
  stepId: TStepId,
  message: string,
  fn: () => Promise<T>,
  doneMessage: (result: T) => string,
): Promise<T> {
  const startedAt = new Date().toISOString();
  const base: Omit<TProgressStep, 'status' | 'message' | 'progress_pct' | 'ended_at'> = {
    step_id: stepId,
    started_at: startedAt,
  };
  await bus.append(auditId, {
    type: 'step',
    step: { ...base, status: 'in_progress', message, progress_pct: 0, ended_at: null },
    emittedAt: Date.now(),
  });
  const result = await fn();
  await bus.append(auditId, {
    type: 'step',
    step: {
      ...base,
      status: 'done',
      message: doneMessage(result),
      progress_pct: 100,
      ended_at: new Date().toISOString(),
    },
    emittedAt: Date.now(),
  });
  return result;
}

/** Appends a step that is done at once (e.g. `done`). */
export async function appendDoneStep(
  bus: ProgressBus,
  auditId: string,
  stepId: TStepId,
  message: string,
): Promise<void> {
  const at = new Date().toISOString();
  await bus.append(auditId, {
    type: 'step',
    step: {
      step_id: stepId,
      status: 'done',
      message,
      progress_pct: 100,
      started_at: at,
      ended_at: at,
    },
    emittedAt: Date.now(),
  });
}

/**
 * Appends the audit's terminal event (`complete` or `error`) at most once, whatever the number
 * of retried or duplicated jobs that reach this point: a `SET NX` guard key next to the stream
 * decides who appends. If the append fails the guard is released and the error thrown, so a
 * retry can append it. Returns true when this call appended.
 */
export async function appendTerminalOnce(
  redis: TRedisClient,
  bus: ProgressBus,
  auditId: string,
  event: Extract<TBusEvent, { type: 'complete' | 'error' }>,
): Promise<boolean> {
  const guard = `${bus.streamKey(auditId)}:terminal`;
  const won = await redis.set(guard, event.type, 'EX', 86_400, 'NX');
  if (won !== 'OK') return false;
  try {
    await bus.append(auditId, event);
  } catch (err) {
    await redis.del(guard).catch(() => undefined);
    throw err;
  }
  return true;
}
