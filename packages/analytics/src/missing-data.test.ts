import { describe, expect, it } from 'vitest';
import { buildKpiReport } from './kpi-report.builder';
import { addDays } from './date.helpers';
import { CONVERSION_RATES, conversionRateLabel } from './metrics.calculator';
import { detectSpike } from './spike.detector';

// CONSTRUCTED exports: App Store Search only, 14 days from 2025-07-01, 100 first-time
// downloads, 2,000 impressions and 20 redownloads a day.
const S = 'App Store Search';
type Row = Record<string, number | string | null>;
const day = (i: number) => addDays('2025-07-01', i);
const usDate = (iso: string) => `${Number(iso.slice(5, 7))}/${Number(iso.slice(8, 10))}/25`;
function row(iso: string, ft: number | string, imp: number | string, re: number | string): Row {
  return {
    Date: usDate(iso),
    [`${S} First-Time Downloads`]: ft,
    [`${S} Impressions (Unique Devices)`]: imp,
    [`${S} Redownloads`]: re,
    Territory: 'United States',
  };
}
const steady = (skip: readonly number[] = [], empty: readonly number[] = []) =>
  Array.from({ length: 14 }, (_, i) => i)
    .filter((i) => !skip.includes(i))
    .map((i) => (empty.includes(i) ? row(day(i), '-', '-', '-') : row(day(i), 100, 2000, 20)));
const RANGE = { start: day(0), end: day(13) };

describe('missing data is not zero', () => {
  it('a day absent from the export is missing data, not a 100% drop', () => {
    const r = buildKpiReport(steady([6]), RANGE);
    const search = r.sources[0]!;
    expect(search.spike).toBeNull();
    expect(search.commentary.join(' ')).not.toMatch(/drop|below the 7-day average/);
    expect(r.performanceOverview).toContain(
      'The export has no data on 1 day of the period (Jul 7, 2025): missing data, not days without downloads.',
    );
    // The sums still count what is there (the spec's rule): 13 days.
    expect(r.totals.current.firstTimeDownloads).toBe(1300);
  });

  it('a day empty in every source is missing data too', () => {
    const r = buildKpiReport(steady([], [5, 6]), RANGE);
    expect(r.sources[0]!.spike).toBeNull();
    expect(r.performanceOverview).toContain(
      'The export has no data on 2 days of the period (Jul 6, 2025, Jul 7, 2025)',
    );
  });

  it('a real drop (a day of 0 downloads that the export does have) is still reported', () => {
    const rows = steady();
    rows[6] = row(day(6), 0, 2000, 20);
    const r = buildKpiReport(rows, RANGE);
    expect(r.sources[0]!.spike).toMatchObject({ type: 'drop', date: day(6), value: 0 });
    expect(r.performanceOverview).not.toContain('missing data');
  });

  it('detectSpike never judges a missing point and averages the days that have data', () => {
    const points = Array.from({ length: 9 }, (_, i) => ({
      date: day(i),
      value: i === 4 ? null : i === 5 ? 400 : 100,
    }));
    // Day 5 against the mean of 100, 100, 100, 400, 100, 100 (day 4 missing): 400 / 150.
    expect(detectSpike(points)).toMatchObject({ date: day(5), type: 'spike', average: 150 });
    // Too few days with data in a window: nothing is judged.
    expect(
      detectSpike(
        Array.from({ length: 7 }, (_, i) => ({ date: day(i), value: i < 4 ? null : 100 })),
      ),
    ).toBeNull();
  });

  it('with no previous period, no sentence speaks of changes against it', () => {
    const r = buildKpiReport(steady(), RANGE);
    const text = [
      r.performanceOverview,
      ...r.sources.flatMap((s) => s.commentary),
      r.executiveSummary.text,
    ].join(' ');
    expect(text).not.toMatch(/previous|against|compared|rose|fell|stable/i);
    expect(r.sources[0]!.commentary).toEqual([
      'App Store Search brought 1,400 first-time downloads.',
      'First-time conversion rate was 5.0%, on 28,000 impressions.',
      'App Store Search accounted for 100.0% of all first-time downloads.',
    ]);
  });
});

describe('one conversion rate, named', () => {
  const r = buildKpiReport(steady(), RANGE);

  it('both rates: first-time downloads / impressions and total downloads / impressions', () => {
    expect(r.totals.current.conversionRate).toBe((1400 * 100) / 28000);
    expect(r.totals.current.appleConversionRate).toBe(((1400 + 280) * 100) / 28000);
    expect(conversionRateLabel('conversionRate')).toBe(
      'First-time conversion rate (first-time downloads / impressions)',
    );
    expect(conversionRateLabel('appleConversionRate')).toBe(
      'App Store conversion rate (total downloads / impressions)',
    );
  });

  it('the executive summary judges the rate of the KPI card, by name, and only that one', () => {
    expect(r.executiveSummary.conversionRate).toBe(r.totals.current.conversionRate);
    expect(r.executiveSummary.lines[0]).toBe(
      `The first-time conversion rate (first-time downloads / impressions) of 5.0% is solid (5% or more).`,
    );
    // 6.0%, Apple's rate of these figures, is on its own KPI card, not in the summary.
    expect(r.executiveSummary.text).not.toContain('6.0%');
  });

  it("the monthly report's rate is its own totals' ratio, the same rate as the KPI card", () => {
    const m = r.monthlyReport;
    expect(m.totals.conversionRate).toBe(
      (m.totals.firstTimeDownloads * 100) / m.totals.impressions,
    );
    expect(m.totals.conversionRate).toBe(r.totals.current.conversionRate);
    for (const month of m.months)
      expect(month.totals.conversionRate).toBe(
        (month.totals.firstTimeDownloads * 100) / month.totals.impressions,
      );
    expect(CONVERSION_RATES.conversionRate.name).toBe('First-time conversion rate');
  });
});
