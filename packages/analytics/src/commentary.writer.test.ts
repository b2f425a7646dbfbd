import { describe, expect, it } from 'vitest';
import type { TMetricsComparison } from '@aso/contracts';
import {
  changeClause,
  joinList,
  noDataLine,
  writePerformanceOverview,
  writeRankingSentence,
  writeSourceCommentary,
} from './commentary.writer';
import { toPeriodMetrics } from './metrics.calculator';
import { comparePeriods } from './period-change.calculator';
import { getSource } from './sources.constants';

function compare(
  cur: [ft: number, re: number, imp: number],
  prev: [ft: number, re: number, imp: number],
): TMetricsComparison {
  const m = ([ft, re, imp]: [number, number, number]) =>
    toPeriodMetrics({
      firstTimeDownloads: ft,
      redownloads: re,
      totalDownloads: ft + re,
      impressions: imp,
    });
  return comparePeriods(m(cur), m(prev));
}

const all = { firstTimeDownloads: true, impressions: true, redownloads: true };

describe('writeSourceCommentary (docs/product.md#dashboard-sections and #dashboard-computation)', () => {
  it('writes a fall, a conversion fall and caps at 3 lines', () => {
    const lines = writeSourceCommentary({
      source: getSource('web_referrer'),
      hasData: true,
      comparison: compare([900, 50, 30000], [1000, 40, 25000]),
      has: all,
      spike: null,
      shareOfFirstTimeDownloads: 12.34,
    });
    expect(lines).toEqual([
      'Web Referrer first-time downloads fell 10.0% to 900 (previous period: 1,000).',
      'First-time conversion rate fell to 3.0% from 4.0% (-1.0 pp), on 30,000 impressions.',
      'Web Referrer accounted for 12.3% of all first-time downloads.',
    ]);
  });

  it('writes stable changes with their sign', () => {
    const lines = writeSourceCommentary({
      source: getSource('search'),
      hasData: true,
      comparison: compare([1020, 0, 10000], [1000, 0, 10000]),
      has: { ...all, redownloads: false },
      spike: null,
      shareOfFirstTimeDownloads: 0,
    });
    expect(lines).toEqual([
      "App Store Search first-time downloads were stable at 1,020 (+2.0% on the previous period's 1,000).",
      'First-time conversion rate was stable at 10.2% (previous period: 10.0%, +0.2 pp), on 10,000 impressions.',
    ]);
  });

  it('describes redownloads when that is all the export has', () => {
    const lines = writeSourceCommentary({
      source: getSource('browse'),
      hasData: true,
      comparison: compare([0, 120, 0], [0, 100, 0]),
      has: { firstTimeDownloads: false, impressions: false, redownloads: true },
      spike: null,
      shareOfFirstTimeDownloads: 0,
    });
    expect(lines).toEqual(['Redownloads were 120 (up 20.0% on the previous period).']);
  });

  it('has one line for a source without data', () => {
    expect(
      writeSourceCommentary({
        source: getSource('app_referrer'),
        hasData: false,
        comparison: compare([0, 0, 0], [5, 0, 10]),
        has: all,
        spike: null,
        shareOfFirstTimeDownloads: 0,
      }),
    ).toEqual([noDataLine('App Referrer')]);
    expect(noDataLine('App Referrer')).toBe('No data for App Referrer in the selected period');
  });

  it('leaves out an unreported spike', () => {
    const lines = writeSourceCommentary({
      source: getSource('search'),
      hasData: true,
      comparison: compare([100, 0, 1000], [100, 0, 1000]),
      has: { ...all, redownloads: false },
      spike: {
        date: '2025-07-04',
        value: 15,
        average: 10,
        type: 'spike',
        magnitude: 50,
        reported: false,
        notable: false,
      },
      shareOfFirstTimeDownloads: 0,
    });
    expect(lines.some((l) => l.includes('spike'))).toBe(false);
  });
});

describe('small sentence parts', () => {
  it('joins lists', () => {
    expect(joinList(['a'])).toBe('a');
    expect(joinList(['a', 'b'])).toBe('a and b');
    expect(joinList(['a', 'b', 'c'], 'or')).toBe('a, b or c');
  });

  it('describes changes', () => {
    expect(changeClause(5, 'Up', 10)).toBe('up 5.0% on the previous period');
    expect(changeClause(-5, 'Down', 10)).toBe('down 5.0% on the previous period');
    expect(changeClause(-1, 'Stable', 10)).toBe('stable, -1.0% on the previous period');
    expect(changeClause(0, 'Stable', 0)).toBe('none in the previous period');
  });
});

describe('writeRankingSentence', () => {
  it('ranks largest first, the documented order on ties, without empty sources', () => {
    expect(
      writeRankingSentence([
        { name: 'App Store Search', firstTimeDownloads: 50, share: 40 },
        { name: 'App Store Browse', firstTimeDownloads: 60, share: 48 },
        { name: 'App Referrer', firstTimeDownloads: 0, share: 0 },
        { name: 'Web Referrer', firstTimeDownloads: 50, share: 40 },
      ]),
    ).toBe(
      'App Store Browse drove the most first-time downloads (60, 48.0% of all first-time downloads), followed by App Store Search (50, 40.0%) and Web Referrer (50, 40.0%).',
    );
  });

  it('handles a single source', () => {
    expect(
      writeRankingSentence([
        { name: 'App Store Search', firstTimeDownloads: 7, share: 70 },
        { name: 'App Store Browse', firstTimeDownloads: 0, share: 0 },
      ]),
    ).toBe(
      'App Store Search was the only one of the four main sources with first-time downloads (7, 70.0% of all first-time downloads).',
    );
  });
});

describe('writePerformanceOverview', () => {
  it('summarises the range against the previous one', () => {
    expect(
      writePerformanceOverview({
        range: { start: '2025-07-20', end: '2025-08-18', days: 30 },
        totals: compare([2000, 500, 100000], [1800, 500, 104000]),
        totalRows: 60,
        currentRows: 30,
        hasDateColumn: true,
      }),
    ).toBe(
      'From Jul 20, 2025 to Aug 18, 2025 (30 days) the app had 2,500 total downloads from 100,000 impressions. Against the previous 30 days, total downloads were up 8.7% (from 2,300) and impressions down 3.8% (from 104,000). First-time downloads were 2,000: a first-time conversion rate of 2.0% (first-time downloads / impressions), up 0.3 pp from 1.7%. The App Store conversion rate (total downloads / impressions) is 2.5%.',
    );
  });

  it('says when a single day has nothing before it', () => {
    expect(
      writePerformanceOverview({
        range: { start: '2025-07-20', end: '2025-07-20', days: 1 },
        totals: compare([10, 0, 100], [0, 0, 0]),
        totalRows: 1,
        currentRows: 1,
        hasDateColumn: true,
      }),
    ).toBe(
      'From Jul 20, 2025 to Jul 20, 2025 (1 day) the app had 10 total downloads from 100 impressions. First-time downloads were 10: a first-time conversion rate of 10.0% (first-time downloads / impressions). The App Store conversion rate (total downloads / impressions) is 10.0%.',
    );
  });
});
