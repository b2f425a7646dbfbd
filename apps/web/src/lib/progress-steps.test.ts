import { describe, expect, it } from 'vitest';
import { STEP_IDS } from '@aso/contracts';
import { initialSteps, stepChangeAnnouncement, stepsReducer } from './progress-steps';

describe('progress steps state', () => {
  it('starts with the 12 progress steps pending, in order', () => {
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

  it('announces a change of status once, and never a progress tick', () => {
    const started = stepsReducer(initialSteps(), {
      step_id: 'scrape',
      status: 'in_progress',
      message: 'Scraping 3 apps',
      progress_pct: 10,
      started_at: '2026-01-05T10:00:00.000Z',
      ended_at: null,
    });
    expect(stepChangeAnnouncement(initialSteps(), started)).toBe(
      'Scraping the App Store page: started. 0 of 12 steps done.',
    );
    const ticked = stepsReducer(started, { ...started.scrape, progress_pct: 66, message: '2/3' });
    expect(stepChangeAnnouncement(started, ticked)).toBeNull();
    const done = stepsReducer(ticked, {
      ...ticked.scrape,
      status: 'done',
      progress_pct: 100,
      ended_at: '2026-01-05T10:00:04.000Z',
    });
    expect(stepChangeAnnouncement(ticked, done)).toBe(
      'Scraping the App Store page: done. 1 of 12 steps done.',
    );
    const failed = stepsReducer(done, { ...done.metadata_extraction, status: 'error' });
    expect(stepChangeAnnouncement(done, failed)).toBe(
      'Extracting metadata: failed. 1 of 12 steps done.',
    );
  });
});
