/** State of the progress view's 12 steps (spec section 3 "Progress step"). Pure. */
import { STEP_IDS, type TProgressStep, type TStepId } from '@aso/contracts';

/** Steps by id, in spec order. */
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
