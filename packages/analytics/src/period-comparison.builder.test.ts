import { describe, expect, it } from 'vitest';
import { buildKpiReport } from './kpi-report.builder';
import { formatPoints } from './format.helpers';

/** Constructed daily rows from 2025-06-01: search first-time downloads and impressions per day. */
function rows(days: { ftd: number; imp: number }[]) {
  return days.map((d, i) => {
    const date = new Date(Date.UTC(2025, 5, 1 + i));
    return {
      Date: `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear() % 100}`,
      'App Store Search First-Time Downloads': d.ftd,
      'App Store Search Impressions (Unique Devices)': d.imp,
      'Total Impressions': d.imp,
      'Total Downloads': d.ftd,
    };
  });
}

const flat = rows(Array.from({ length: 30 }, () => ({ ftd: 100, imp: 4000 })));

describe('comparisons against the previous period', () => {
  it('says when the previous period has no data instead of a 0% change', () => {
    const r = buildKpiReport(flat, { start: '2025-06-01', end: '2025-06-10' });
    expect(r.totals.coverage).toEqual({
      periodDays: 10,
      days: 0,
      currentDays: 10,
      hasData: false,
      comparedDays: 0,
      partial: false,
    });
    expect(r.totals.flags.totalDownloads).toBe('Stable');
    expect(r.sources[0]!.coverage.hasData).toBe(false);
    expect(r.performanceOverview).not.toMatch(/previous/);
    expect(r.sources[0]!.commentary[0]).toBe(
      'App Store Search brought 1,000 first-time downloads.',
    );
  });

  it('compares a partly covered previous period on its matching days only', () => {
    // Previous period 2025-05-26..2025-06-04: the data starts on 06-01, so 4 of its 10 days.
    const r = buildKpiReport(flat, { start: '2025-06-05', end: '2025-06-14' });
    expect(r.totals.coverage).toEqual({
      periodDays: 10,
      days: 4,
      currentDays: 10,
      hasData: true,
      comparedDays: 4,
      partial: true,
    });
    // The whole range against 4 days would read +150%; like for like it is flat.
    expect(r.totals.current.totalDownloads).toBe(1000);
    expect(r.totals.compared.totalDownloads).toBe(400);
    expect(r.totals.previous.totalDownloads).toBe(400);
    expect(r.totals.changes.totalDownloads).toBe(0);
    expect(r.totals.flags.totalDownloads).toBe('Stable');
    expect(r.performanceOverview).toContain(
      'The data covers only 4 of the previous 10 days, so the comparison uses the matching days only (compared on 4 of 10 days)',
    );
    expect(r.sources[0]!.commentary[0]).toBe(
      'App Store Search first-time downloads were stable at 1,000 (0.0%; 400 against 400, compared on 4 of 10 days).',
    );
  });

  it('leaves days without data ("-") out of the days compared', () => {
    const withGap = flat.map((row, i) =>
      i === 12
        ? {
            ...row,
            'App Store Search First-Time Downloads': '-',
            'App Store Search Impressions (Unique Devices)': '-',
          }
        : row,
    );
    const r = buildKpiReport(withGap, { start: '2025-06-21', end: '2025-06-30' });
    const search = r.sources[0]!;
    expect(search.coverage).toMatchObject({ days: 9, comparedDays: 9, partial: true });
    expect(r.totals.coverage).toMatchObject({ days: 10, comparedDays: 10, partial: false });
  });

  it('gives conversion-rate changes in percentage points and flags the compared values', () => {
    const data = rows([
      ...Array.from({ length: 10 }, () => ({ ftd: 27, imp: 1000 })),
      ...Array.from({ length: 10 }, () => ({ ftd: 29, imp: 1000 })),
    ]);
    const r = buildKpiReport(data, { start: '2025-06-11', end: '2025-06-20' });
    expect(r.totals.previous.conversionRate).toBeCloseTo(2.7, 10);
    expect(r.totals.current.conversionRate).toBeCloseTo(2.9, 10);
    expect(r.totals.pointChanges.conversionRate).toBeCloseTo(0.2, 10);
    expect(formatPoints(r.totals.pointChanges.conversionRate)).toBe('+0.2 pp');
    // +7.4% relative: 'Up' by the 3% rule.
    expect(r.totals.flags.conversionRate).toBe('Up');
    expect(r.performanceOverview).toContain('up 0.2 pp from 2.7%');
    expect(r.sources[0]!.commentary[1]).toBe(
      'First-time conversion rate rose to 2.9% from 2.7% (+0.2 pp), on 10,000 impressions.',
    );
  });
});

describe('formatPoints', () => {
  it('signs and rounds percentage points', () => {
    expect(formatPoints(0.2)).toBe('+0.2 pp');
    expect(formatPoints(-1.25)).toBe('-1.3 pp');
    expect(formatPoints(0)).toBe('0.0 pp');
  });
});
