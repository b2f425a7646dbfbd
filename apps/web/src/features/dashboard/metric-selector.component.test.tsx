import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { isRefused } from '@/test/dom';
import { MetricSelector } from './metric-selector';

const METRICS = ['Impressions', 'Product Page Views', 'Total Downloads', 'Redownloads'];

/** The selector with its selection held as the chart card holds it. */
function Harness({ initial }: { initial: string[] }) {
  const [selected, setSelected] = useState(initial);
  return (
    <>
      <MetricSelector metrics={METRICS} selected={selected} onChange={setSelected} />
      <p data-testid="selected">{selected.join('|')}</p>
    </>
  );
}

const selectedText = () => screen.getByTestId('selected').textContent;

describe('MetricSelector (docs/product.md#dashboard-sections)', () => {
  it('toggles metrics, filters by the search, selects all filtered and clears all', async () => {
    const user = userEvent.setup();
    render(<Harness initial={['Impressions']} />);
    const trigger = screen.getByTestId('metric-selector-trigger');
    expect(trigger.textContent).toContain('Impressions');

    await user.click(trigger);
    expect(await screen.findByText('select metrics to display:')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'Total Downloads' }));
    expect(selectedText()).toBe('Impressions|Total Downloads');
    expect(trigger.textContent).toContain('2 metrics selected');

    await user.type(screen.getByPlaceholderText('search metrics...'), 'down');
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'select all (2)' }));
    expect(selectedText()).toBe('Impressions|Total Downloads|Redownloads');

    await user.clear(screen.getByPlaceholderText('search metrics...'));
    await user.type(screen.getByPlaceholderText('search metrics...'), 'zzz');
    expect(screen.getByRole('status').textContent).toBe('no metrics found');
    expect(isRefused(screen.getByRole('button', { name: 'select all (0)' }))).toBe(true);

    await user.click(screen.getByRole('button', { name: 'clear all' }));
    expect(selectedText()).toBe('');
    expect(trigger.textContent).toContain('No metric selected');
    expect(isRefused(screen.getByRole('button', { name: 'clear all' }))).toBe(true);
  });

  it('closes with Escape and forgets the search', async () => {
    const user = userEvent.setup();
    render(<Harness initial={[]} />);
    await user.click(screen.getByTestId('metric-selector-trigger'));
    await user.type(await screen.findByPlaceholderText('search metrics...'), 'views');
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
    await user.keyboard('{Escape}');
    expect(screen.queryByText('select metrics to display:')).toBeNull();
    await user.click(screen.getByTestId('metric-selector-trigger'));
    expect((await screen.findByPlaceholderText('search metrics...')).getAttribute('value')).toBe(
      '',
    );
    expect(screen.getAllByRole('checkbox')).toHaveLength(METRICS.length);
  });
});
