/** State of the progress view's 12 steps (docs/product.md#entities). Pure. */
import { STEP_IDS, STEP_LABELS, type TProgressStep, type TStepId } from '@aso/contracts';

/** Steps by id, in the documented order. */
export type TStepsState = Record<TStepId, TProgressStep>;

/** The initial state: all 12 steps pending. */
export function initialSteps(): TStepsState {
  return Object.fromEntries(
    STEP_IDS.map((id) => [
      id,
      {
        step_id: id,
        status: 'pending',
        message: '',
        progress_pct: 0,
        started_at: null,
        ended_at: null,
      },
    ]),
  ) as TStepsState;
}

/** Applies one step event. */
export function stepsReducer(state: TStepsState, step: TProgressStep): TStepsState {
  return { ...state, [step.step_id]: step };
}

const STATUS_WORDS: Record<TProgressStep['status'], string> = {
  pending: 'pending',
  in_progress: 'started',
  done: 'done',
  error: 'failed',
};

/**
 * What a screen reader is told when the steps go from `prev` to `next`: each step whose
 * status changed ('Scraping the App Store page: started.'), then how many of the 12 are done.
 * Null when no status changed (a step event that only moved its progress or message), so a
 * progress tick is never announced.
 */
export function stepChangeAnnouncement(prev: TStepsState, next: TStepsState): string | null {
  const changed = STEP_IDS.filter((id) => prev[id].status !== next[id].status);
  if (changed.length === 0) return null;
  const parts = changed.map((id) => `${STEP_LABELS[id]}: ${STATUS_WORDS[next[id].status]}.`);
  const done = STEP_IDS.filter((id) => next[id].status === 'done').length;
  return `${parts.join(' ')} ${done} of ${STEP_IDS.length} steps done.`;
}
