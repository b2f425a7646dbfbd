import { buildKpiReport } from '@aso/analytics';
import { describe, expect, it } from 'vitest';
import { ascChartRows } from './asc-chart-rows';

const row = (date: string, sourceType: string, n: number) => ({
  date,
  sourceType,
  impressions: n * 10,
  productPageViews: n * 4,
  firstTimeDownloads: n,
  redownloads: n * 2,
  provisional: false,
});

describe('dashboard rows from imported figures', () => {
  it('gives one row per day with per-source and total columns, in date order', () => {
    const rows = ascChartRows(
      [
        row('2026-01-02', 'App Store search', 1),
        row('2026-01-01', 'App Store search', 2),
        row('2026-01-02', 'Web referrer', 3),
      ],
      'GB',
    );
    expect(rows.map((r) => r['Date'])).toEqual(['2026-01-01', '2026-01-02']);
    expect(rows[1]).toMatchObject({
      'App Store search Impressions': 10,
      'App Store search First-Time Downloads': 1,
      'Web referrer Redownloads': 6,
      'Web referrer Total Downloads': 9,
      'Total Impressions': 40,
      'Total Downloads': 12,
      Territory: 'GB',
    });
    // A source type absent on a day is 0 that day, not missing.
    expect(rows[0]!['Web referrer Impressions']).toBe(0);
  });

  it("gives the KPI report the product's two named rates on the imported impression counts", () => {
    const rows = ascChartRows(
      [
        row('2026-01-01', 'App Store search', 4),
        row('2026-01-01', 'App Store browse', 1),
        row('2026-01-02', 'App Store search', 5),
      ],
      null,
    );
    const { totals, sources } = buildKpiReport(rows, { start: '2026-01-01', end: '2026-01-02' });
    // Impressions are the sums of the Counts (10 per first-time download here).
    expect(totals.current).toMatchObject({
      impressions: 100,
      firstTimeDownloads: 10,
      totalDownloads: 30,
      // First-time conversion rate: first-time downloads / impressions.
      conversionRate: 10,
      // App Store conversion rate: total downloads / impressions.
      appleConversionRate: 30,
    });
    const search = sources.find((s) => s.id === 'search')!;
    expect(search.current).toMatchObject({ impressions: 90, firstTimeDownloads: 9 });
  });
});
