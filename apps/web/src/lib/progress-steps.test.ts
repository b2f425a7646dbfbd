import { describe, expect, it } from 'vitest';
import { STEP_IDS } from '@aso/contracts';
import { initialSteps, stepsReducer } from './progress-steps';

describe('progress steps state', () => {
  it('starts with the 12 spec steps pending, in order', () => {
    const steps = initialSteps();
    expect(Object.keys(steps)).toEqual([...STEP_IDS]);
    expect(STEP_IDS).toHaveLength(12);
    expect(Object.values(steps).every((s) => s.status === 'pending' && s.message === '')).toBe(
      true,
    );
  });
  it('replaces one step per event and leaves the others', () => {
    const next = stepsReducer(initialSteps(), {
      step_id: 'scrape',
      status: 'in_progress',
      message: 'Scraping 3 apps',
      progress_pct: 33,
      started_at: '2026-01-05T10:00:00.000Z',
      ended_at: null,
    });
    expect(next.scrape).toMatchObject({
      status: 'in_progress',
      message: 'Scraping 3 apps',
      progress_pct: 33,
    });
    expect(next.cache_check.status).toBe('pending');
  });
});
