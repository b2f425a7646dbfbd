import { describe, expect, it } from 'vitest';
import { buildSourceSeries } from './source-series.builder';

describe('buildSourceSeries (docs/product.md#dashboard-sections)', () => {
  const rows = [
    {
      Date: '7/2/25',
      'App Store Search First-Time Downloads': '1,000',
      'App Store Search Impressions (Unique Devices)': 20000,
    },
    {
      Date: '7/1/25',
      'App Store Search First-Time Downloads': 5,
      'App Store Search Impressions (Unique Devices)': 0,
    },
    {
      Date: 'bad',
      'App Store Search First-Time Downloads': 9,
      'App Store Search Impressions (Unique Devices)': 9,
    },
    {
      Date: '2025-07-03',
      'App Store Search First-Time Downloads': '-',
      'App Store Search Impressions (Unique Devices)': 50,
    },
  ];

  it('gives daily bars and conversion rate, ascending, without unparseable dates', () => {
    expect(buildSourceSeries(rows, 'search')).toEqual([
      { date: '2025-07-01', firstTimeDownloads: 5, impressions: 0, conversionRate: 0 },
      { date: '2025-07-02', firstTimeDownloads: 1000, impressions: 20000, conversionRate: 5 },
      { date: '2025-07-03', firstTimeDownloads: 0, impressions: 50, conversionRate: 0 },
    ]);
  });

  it('applies a range', () => {
    expect(
      buildSourceSeries(rows, 'search', { start: '2025-07-02', end: '2025-07-02' }).map(
        (p) => p.date,
      ),
    ).toEqual(['2025-07-02']);
  });

  it('is empty without rows', () => {
    expect(buildSourceSeries([], 'browse')).toEqual([]);
  });
});
