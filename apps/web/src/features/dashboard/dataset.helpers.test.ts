import { describe, expect, it } from 'vitest';
import {
  describeDataset,
  filterMetrics,
  rowsForRange,
  selectAllFiltered,
  toggleMetric,
} from './dataset.helpers';

/** Constructed rows in the merged-data shape: 45 days from 6/1/25 to 7/15/25. */
function constructedRows(days: number): Record<string, string | number | null>[] {
  const rows = [];
  for (let i = 0; i < days; i++) {
    const d = new Date(Date.UTC(2025, 5, 1 + i));
    rows.push({
      Date: `${d.getUTCMonth() + 1}/${d.getUTCDate()}/25`,
      'App Store Search First-Time Downloads': 10 + i,
      'App Store Search Total Downloads': 12 + i,
      'Total Downloads': 20 + i,
      'Total Impressions': 400,
      Territory: 'United States',
    });
  }
  return rows;
}

describe('describeDataset', () => {
  it('takes the last 30 days of a longer span and bounds the picker by the span', () => {
    const info = describeDataset(constructedRows(45));
    expect(info.span).toEqual({ start: '2025-06-01', end: '2025-07-15' });
    expect(info.defaultRange).toEqual({ start: '2025-06-16', end: '2025-07-15' });
    expect(info.bounds).toEqual({ start: '2025-06-01', end: '2025-07-15' });
    expect(info.dateColumn).toBe('Date');
  });

  it('takes the whole span when it is shorter than 30 days', () => {
    const info = describeDataset(constructedRows(10));
    expect(info.defaultRange).toEqual({ start: '2025-06-01', end: '2025-06-10' });
  });

  it('lists metrics without the date and territory columns and defaults to Total Downloads', () => {
    const info = describeDataset(constructedRows(3));
    expect(info.metrics).toEqual([
      'App Store Search First-Time Downloads',
      'App Store Search Total Downloads',
      'Total Downloads',
      'Total Impressions',
    ]);
    expect(info.defaultMetrics).toEqual(['Total Downloads']);
  });

  it('falls back to the first metric without a Total Downloads column', () => {
    const info = describeDataset([
      { Date: '7/1/25', 'Web Referrer Impressions': 3, 'App Store Search Total Downloads': 1 },
    ]);
    expect(info.defaultMetrics).toEqual(['Web Referrer Impressions']);
  });

  it('uses the documented default range and 2025 bounds when no date parses', () => {
    const info = describeDataset([{ Date: 'yesterday', 'Total Downloads': 3 }]);
    expect(info.span).toBeNull();
    expect(info.defaultRange).toEqual({ start: '2025-07-20', end: '2025-08-18' });
    expect(info.bounds).toEqual({ start: '2025-01-01', end: '2025-12-31' });
  });
});

describe('rowsForRange', () => {
  it('keeps the range in day order and drops rows whose date does not parse', () => {
    const rows = [
      { Date: '6/3/25', 'Total Downloads': 3 },
      { Date: 'bad', 'Total Downloads': 99 },
      { Date: '6/1/25', 'Total Downloads': 1 },
      { Date: '6/2/25', 'Total Downloads': 2 },
    ];
    const picked = rowsForRange(rows, { start: '2025-06-01', end: '2025-06-02' });
    expect(picked.map((e) => e.row['Total Downloads'])).toEqual([1, 2]);
  });

  it('keeps every row in file order when no date parses at all', () => {
    const rows = [
      { Date: 'a', v: 1 },
      { Date: 'b', v: 2 },
    ];
    expect(
      rowsForRange(rows, { start: '2025-07-20', end: '2025-08-18' }).map((e) => e.row.v),
    ).toEqual([1, 2]);
  });
});

describe('metric selection', () => {
  const metrics = [
    'App Store Search Impressions',
    'Total Downloads',
    'App Store Browse Impressions',
    'Web Referrer Redownloads',
  ];

  it('filters case-insensitively and keeps order', () => {
    expect(filterMetrics(metrics, '  IMPRESSIONS ')).toEqual([
      'App Store Search Impressions',
      'App Store Browse Impressions',
    ]);
    expect(filterMetrics(metrics, '')).toEqual(metrics);
    expect(filterMetrics(metrics, 'nothing like it')).toEqual([]);
  });

  it('select all adds only the filtered metrics to the selection', () => {
    const filtered = filterMetrics(metrics, 'impressions');
    expect(selectAllFiltered(metrics, ['Total Downloads'], filtered)).toEqual([
      'App Store Search Impressions',
      'Total Downloads',
      'App Store Browse Impressions',
    ]);
  });

  it('toggles one metric on and off', () => {
    const on = toggleMetric(metrics, ['Total Downloads'], 'Web Referrer Redownloads');
    expect(on).toEqual(['Total Downloads', 'Web Referrer Redownloads']);
    expect(toggleMetric(metrics, on, 'Total Downloads')).toEqual(['Web Referrer Redownloads']);
  });
});
