import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ChartLegend, toggled } from './chart-legend';
import { SOURCE_LEGEND } from './chart.options';

/** A legend whose items hide series, its hidden names shown as the chart would read them. */
function Harness() {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  return (
    <>
      <ChartLegend
        label="Search chart legend"
        items={SOURCE_LEGEND}
        hidden={hidden}
        onToggle={(name) => setHidden((h) => toggled(h, name))}
      />
      <p data-testid="hidden">{[...hidden].join('|')}</p>
    </>
  );
}

describe('ChartLegend', () => {
  it('lists the series as plain text without toggles', () => {
    render(<ChartLegend label="chart legend" items={SOURCE_LEGEND} />);
    const list = screen.getByRole('list', { name: 'chart legend' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(
      SOURCE_LEGEND.map((i) => i.name),
    );
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it('hides and shows a series with its toggle button, by click or keyboard', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    screen.getByRole('list', { name: 'Search chart legend' });
    const impressions = screen.getByRole('button', { name: 'Impressions' });
    expect(impressions.getAttribute('aria-pressed')).toBe('true');
    await user.click(impressions);
    expect(screen.getByTestId('hidden').textContent).toBe('Impressions');
    expect(impressions.getAttribute('aria-pressed')).toBe('false');

    screen.getByRole('button', { name: 'First-Time Downloads' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('hidden').textContent).toBe('Impressions|First-Time Downloads');
    impressions.focus();
    await user.keyboard(' ');
    expect(screen.getByTestId('hidden').textContent).toBe('First-Time Downloads');
    expect(impressions.getAttribute('aria-pressed')).toBe('true');
  });
});
