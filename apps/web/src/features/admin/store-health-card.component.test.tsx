import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { KeywordSearchAlarm } from './store-health-card';
import { formatDateTime } from './admin-form.validation';

describe('KeywordSearchAlarm (docs/product.md#keyword-ranks: the empty-answer alarm)', () => {
  it('shows when the alarm was raised, why, and what it paused', () => {
    render(
      <KeywordSearchAlarm
        status={{
          alarm: {
            raisedAt: '2026-07-01T09:30:00.000Z',
            detail:
              '3 search terms that had results answered none within 60 min: keyword rounds paused',
            paused: 'keyword-rounds',
            pausedTerms: 42,
            suspectTerms: 3,
          },
          lastClearedAt: null,
        }}
      />,
    );
    const alarm = screen.getByRole('alert');
    expect(alarm.textContent).toContain(
      `Keyword rank reads paused: search answers went empty (raised ${formatDateTime('2026-07-01T09:30:00.000Z')})`,
    );
    expect(alarm.textContent).toContain(
      '3 search terms that had results answered none within 60 min',
    );
    expect(alarm.textContent).toContain(
      'Paused: the keyword rank rounds. 42 tracked terms wait for a read; 3 terms answered empty.',
    );
  });

  it('says the reads answer when no alarm is raised, with the last one cleared', () => {
    const { unmount } = render(
      <KeywordSearchAlarm status={{ alarm: null, lastClearedAt: '2026-07-02T10:00:00.000Z' }} />,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('keyword-alarm-clear').textContent).toBe(
      `Keyword search reads: answering with results (last empty-answer alarm cleared ${formatDateTime('2026-07-02T10:00:00.000Z')}).`,
    );
    unmount();
    render(<KeywordSearchAlarm status={{ alarm: null, lastClearedAt: null }} />);
    expect(screen.getByTestId('keyword-alarm-clear').textContent).toBe(
      'Keyword search reads: answering with results; no empty-answer alarm raised.',
    );
  });
});
