import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TDateRange } from '@aso/contracts';
import { isRefused } from '@/test/dom';
import { DateRangePicker } from './date-range-picker';

const VALUE: TDateRange = { start: '2025-07-20', end: '2025-08-18' };
const BOUNDS: TDateRange = { start: '2025-07-01', end: '2025-08-31' };

function renderPicker() {
  const onApply = vi.fn<(range: TDateRange) => void>();
  render(<DateRangePicker value={VALUE} bounds={BOUNDS} onApply={onApply} />);
  return onApply;
}

/**
 * The day button of `label` ('3 August 2025'), by the start of its accessible name, once it
 * shows (the calendar's code is loaded when the picker is first used).
 */
const day = (label: string) =>
  // The first use loads and transforms the calendar's code: seconds on a busy machine.
  screen.findByRole('button', { name: new RegExp(`^${label},`) }, { timeout: 15_000 });

describe('DateRangePicker (docs/product.md#dashboard-tab and #states-and-transitions)', () => {
  it('applies a start and an end picked in either order, Apply enabled only then', async () => {
    const user = userEvent.setup();
    const onApply = renderPicker();
    const trigger = screen.getByTestId('date-range-trigger');
    expect(trigger.textContent).toBe('Jul 20, 2025 - Aug 18, 2025');
    await user.click(trigger);
    const popover = await screen.findByTestId('date-range-popover');
    const apply = within(popover).getByRole('button', { name: 'Apply' });
    expect(isRefused(apply)).toBe(true);

    await user.click(await day('10 August 2025'));
    expect(screen.getByTestId('date-range-draft').textContent).toBe(
      'Aug 10, 2025 - pick an end date',
    );
    expect(isRefused(apply)).toBe(true);
    await user.click(await day('3 August 2025'));
    expect(screen.getByTestId('date-range-draft').textContent).toBe('Aug 3, 2025 - Aug 10, 2025');
    await user.click(apply);
    expect(onApply).toHaveBeenCalledWith({ start: '2025-08-03', end: '2025-08-10' });
    await waitFor(() => expect(screen.queryByTestId('date-range-popover')).toBeNull());
  });

  it('discards the choice on Cancel and opens again from a blank one', async () => {
    const user = userEvent.setup();
    const onApply = renderPicker();
    await user.click(screen.getByTestId('date-range-trigger'));
    await screen.findByTestId('date-range-popover');
    await user.click(await day('5 July 2025'));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('date-range-popover')).toBeNull());
    await user.click(screen.getByTestId('date-range-trigger'));
    expect((await screen.findByTestId('date-range-draft')).textContent).toBe(
      'Pick a start date, then an end date.',
    );
    expect(onApply).not.toHaveBeenCalled();
  });
});
