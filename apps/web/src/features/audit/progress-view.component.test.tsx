import { act, render, screen, within } from '@testing-library/react';
import { useEffect, useReducer } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STEP_IDS, STEP_LABELS, type TProgressStep } from '@aso/contracts';
import { initialSteps, stepsReducer } from '@/lib/progress-steps';
import { DOTS_PERIOD_MS, ProgressView } from './progress-view';

/** The view fed by step events, as the audit tab feeds it from the progress stream. */
const feed: { send?: (step: TProgressStep) => void } = {};
function Harness({ validLinks }: { validLinks: number }) {
  const [steps, dispatch] = useReducer(stepsReducer, undefined, initialSteps);
  useEffect(() => {
    feed.send = dispatch;
  }, []);
  return <ProgressView steps={steps} validLinks={validLinks} />;
}
const send = (step: TProgressStep) => act(() => feed.send?.(step));

const step = (
  id: (typeof STEP_IDS)[number],
  status: TProgressStep['status'],
  message = '',
): TProgressStep => ({
  step_id: id,
  status,
  message,
  progress_pct: status === 'done' ? 100 : 0,
  started_at: null,
  ended_at: null,
});

const row = (id: string) => screen.getByTestId(`step-${id}`);

describe('ProgressView (docs/product.md#progress-view)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists the 12 steps pending, with the estimate for the number of valid links', () => {
    render(<Harness validLinks={2} />);
    expect(screen.getByRole('heading', { name: 'ANALYZING YOUR APP' })).toBeTruthy();
    expect(STEP_IDS.map((id) => row(id).dataset.status)).toEqual(STEP_IDS.map(() => 'pending'));
    expect(STEP_IDS.map((id) => row(id).textContent)).toEqual(
      STEP_IDS.map((id) => STEP_LABELS[id]),
    );
    expect(screen.getByTestId('estimated-time').textContent).toBe('2 min');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');
  });

  it('follows step events: in progress with cycling dots, done, error with its message', async () => {
    render(<Harness validLinks={1} />);
    const [first, second, third] = STEP_IDS;
    send(step(first, 'in_progress', 'Reading the App Store listing'));
    expect(row(first).dataset.status).toBe('in_progress');
    expect(within(row(first)).getByText('Reading the App Store listing')).toBeTruthy();
    const dots = () => within(row(first)).getByTestId('progress-dots').textContent;
    expect(dots()).toBe('.');
    await act(() => vi.advanceTimersByTime(DOTS_PERIOD_MS));
    expect(dots()).toBe('..');
    await act(() => vi.advanceTimersByTime(2 * DOTS_PERIOD_MS));
    expect(dots()).toBe('.');

    send(step(first, 'done', 'Read 1 app'));
    send(step(second, 'done'));
    expect(within(row(first)).queryByTestId('progress-dots')).toBeNull();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuetext')).toBe(
      `2 of ${STEP_IDS.length} steps done`,
    );
    send(step(third, 'error', 'The App Store did not answer'));
    expect(row(third).dataset.status).toBe('error');
    expect(within(row(third)).getByLabelText('error')).toBeTruthy();
  });

  it('counts the elapsed time and says when the estimate is passed', async () => {
    render(<Harness validLinks={1} />);
    expect(screen.getByTestId('elapsed-timer').textContent).toBe('0 s');
    await act(() => vi.advanceTimersByTime(61_230));
    expect(screen.getByTestId('elapsed-timer').textContent).toBe('1 min 1 s');
    expect(screen.getByTestId('estimate-note').textContent).toMatch(
      /^Taking longer than the 1 min estimate/,
    );
  });
});
