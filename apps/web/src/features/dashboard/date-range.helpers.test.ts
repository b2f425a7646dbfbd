import { describe, expect, it } from 'vitest';
import {
  dateFromIso,
  draftToRange,
  isoFromDate,
  nextDraft,
  rangeLabel,
} from './date-range.helpers';

const d = (iso: string) => dateFromIso(iso);

describe('date conversions', () => {
  it('round-trips a calendar day through a local Date', () => {
    for (const iso of ['2025-01-01', '2025-02-28', '2024-02-29', '2025-12-31']) {
      expect(isoFromDate(dateFromIso(iso))).toBe(iso);
    }
    expect(dateFromIso('2025-07-20').getHours()).toBe(0);
  });

  it('labels a range the way the badge shows it', () => {
    expect(`Applied: ${rangeLabel({ start: '2025-07-20', end: '2025-08-18' })}`).toBe(
      'Applied: Jul 20, 2025 - Aug 18, 2025',
    );
  });
});

describe('nextDraft and draftToRange', () => {
  it('needs two clicks before there is a range to apply', () => {
    const first = nextDraft(undefined, d('2025-07-01'));
    expect(draftToRange(first)).toBeNull();
    const second = nextDraft(first, d('2025-07-31'));
    expect(draftToRange(second)).toEqual({ start: '2025-07-01', end: '2025-07-31' });
  });

  it('swaps the ends when the second click is before the first', () => {
    const draft = nextDraft(nextDraft(undefined, d('2025-08-10')), d('2025-08-02'));
    expect(draftToRange(draft)).toEqual({ start: '2025-08-02', end: '2025-08-10' });
  });

  it('takes the same day twice as a one-day range', () => {
    const draft = nextDraft(nextDraft(undefined, d('2025-08-10')), d('2025-08-10'));
    expect(draftToRange(draft)).toEqual({ start: '2025-08-10', end: '2025-08-10' });
  });

  it('starts over after a complete range', () => {
    const complete = nextDraft(nextDraft(undefined, d('2025-07-01')), d('2025-07-31'));
    const restarted = nextDraft(complete, d('2025-08-05'));
    expect(restarted.from).toEqual(d('2025-08-05'));
    expect(draftToRange(restarted)).toBeNull();
  });
});
