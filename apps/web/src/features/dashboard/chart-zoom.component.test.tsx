import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ChartZoom, ZOOM_THUMB_LABELS } from './chart-zoom';
import type { TDayWindow } from './chart.options';

/** 40 days from 2025-07-01 (constructed). */
const DAYS = Array.from({ length: 40 }, (_, i) =>
  new Date(Date.UTC(2025, 6, 1 + i)).toISOString().slice(0, 10),
);

/** The control with its window held as the chart card holds it. */
function Harness() {
  const [value, setValue] = useState<TDayWindow>([0, DAYS.length - 1]);
  return (
    <>
      <ChartZoom days={DAYS} value={value} onChange={setValue} />
      <p data-testid="window">{value.join('-')}</p>
    </>
  );
}

describe('ChartZoom (docs/product.md#dashboard-sections)', () => {
  it('names each thumb and its day, and moves the window by keyboard', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const [first, last] = screen.getAllByRole('slider');
    expect(first!.getAttribute('aria-label')).toBe(ZOOM_THUMB_LABELS[0]);
    expect(last!.getAttribute('aria-label')).toBe(ZOOM_THUMB_LABELS[1]);
    expect(first!.getAttribute('aria-valuetext')).toBe('Jul 1, 2025');
    expect(last!.getAttribute('aria-valuetext')).toBe('Aug 9, 2025');
    expect(screen.getByTestId('chart-zoom').textContent).toContain(
      'Days shown: Jul 1, 2025 to Aug 9, 2025 (40 of 40 days)',
    );

    first!.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByTestId('window').textContent).toBe('2-39');
    expect(first!.getAttribute('aria-valuetext')).toBe('Jul 3, 2025');
    last!.focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('window').textContent).toBe('2-38');
    expect(screen.getByTestId('chart-zoom').textContent).toContain(
      'Jul 3, 2025 to Aug 8, 2025 (37 of 40 days)',
    );
    // The thumbs never cross: at least two days stay shown.
    await user.keyboard('{ArrowLeft>40/}');
    expect(screen.getByTestId('window').textContent).toBe('2-3');
    // Home and End reach the range's first and last day.
    await user.keyboard('{Home}{End}');
    expect(screen.getByTestId('window').textContent).toBe('0-39');
  });
});
