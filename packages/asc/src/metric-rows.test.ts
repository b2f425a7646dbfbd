import { describe, expect, it } from 'vitest';
import { ascMetricRows } from './metric-rows';

describe('metric rows', () => {
  it('adds each measure into its field per Date and source type, ignoring other measures', () => {
    const rows = ascMetricRows(
      [
        {
          date: '2026-01-01',
          kind: 'engagement',
          measure: 'impression',
          sourceType: 'App Store search',
          counts: 100,
        },
        {
          date: '2026-01-01',
          kind: 'engagement',
          measure: 'impression',
          sourceType: 'App Store search',
          counts: 20,
        },
        {
          date: '2026-01-01',
          kind: 'engagement',
          measure: 'pageview',
          sourceType: 'App Store search',
          counts: 30,
        },
        {
          date: '2026-01-01',
          kind: 'engagement',
          measure: 'tap',
          sourceType: 'App Store search',
          counts: 999,
        },
        {
          date: '2026-01-01',
          kind: 'downloads',
          measure: 'firsttimedownload',
          sourceType: 'App Store search',
          counts: 7,
        },
        {
          date: '2026-01-01',
          kind: 'downloads',
          measure: 'redownload',
          sourceType: 'Web referrer',
          counts: 2,
        },
        {
          date: '2026-01-01',
          kind: 'downloads',
          measure: 'manualupdate',
          sourceType: 'Web referrer',
          counts: 50,
        },
        {
          date: '2026-01-03',
          kind: 'downloads',
          measure: 'redownload',
          sourceType: 'Web referrer',
          counts: 4,
        },
      ],
      [
        { date: '2026-01-01', kind: 'engagement', processingDate: '2026-01-05' },
        { date: '2026-01-01', kind: 'downloads', processingDate: '2026-01-05' },
        { date: '2026-01-03', kind: 'downloads', processingDate: '2026-01-04' },
      ],
    );
    expect(rows).toEqual([
      {
        date: '2026-01-01',
        sourceType: 'App Store search',
        impressions: 120,
        productPageViews: 30,
        firstTimeDownloads: 7,
        redownloads: 0,
        provisional: false,
      },
      {
        date: '2026-01-01',
        sourceType: 'Web referrer',
        impressions: 0,
        productPageViews: 0,
        firstTimeDownloads: 0,
        redownloads: 2,
        provisional: false,
      },
      {
        date: '2026-01-03',
        sourceType: 'Web referrer',
        impressions: 0,
        productPageViews: 0,
        firstTimeDownloads: 0,
        redownloads: 4,
        provisional: true,
      },
    ]);
  });
});
