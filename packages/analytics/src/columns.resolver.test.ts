import { describe, expect, it } from 'vitest';
import {
  collectHeaders,
  findDateColumn,
  getMetricColumns,
  matchColumn,
  resolveSourceColumns,
  resolveTotalColumns,
} from './columns.resolver';
import { getSource } from './sources.constants';

describe('date and metric columns (docs/product.md#entities)', () => {
  const headers = [
    'Date',
    'App Store Search First-Time Downloads',
    'Total Impressions',
    'Territory',
    'Report date (UTC)',
    'TERRITORY CODE',
  ];

  it('detects the first column whose name contains "date", case-insensitive', () => {
    expect(findDateColumn(headers)).toBe('Date');
    expect(findDateColumn(['Metric', 'report DATE', 'Date'])).toBe('report DATE');
    expect(findDateColumn(['Day', 'Downloads'])).toBeNull();
  });

  it('keeps every column except those naming date or territory', () => {
    expect(getMetricColumns(headers)).toEqual([
      'App Store Search First-Time Downloads',
      'Total Impressions',
    ]);
  });

  it('collects headers from rows in first-seen order', () => {
    expect(
      collectHeaders([
        { Date: 'a', X: 1 },
        { Date: 'b', Y: 2 },
      ]),
    ).toEqual(['Date', 'X', 'Y']);
  });
});

describe('matchColumn (docs/product.md#entities: case-insensitive, exact first, then substring)', () => {
  it('prefers an exact match over an earlier substring match', () => {
    const h = ['App Store Search Total Downloads (prior)', 'app store search total downloads'];
    expect(matchColumn(h, ['App Store Search Total Downloads'])).toBe(
      'app store search total downloads',
    );
  });

  it('falls back to a header containing the pattern', () => {
    expect(
      matchColumn(
        ['X', 'App Store Search First-Time Downloads (Daily)'],
        ['App Store Search First-Time Downloads'],
      ),
    ).toBe('App Store Search First-Time Downloads (Daily)');
  });

  it('treats Re-Downloads and Redownloads, and First Time and First-Time, alike', () => {
    expect(matchColumn(['Web Referrer Re-Downloads'], ['Web Referrer Redownloads'])).toBe(
      'Web Referrer Re-Downloads',
    );
    expect(
      matchColumn(['App Referrer First Time Downloads'], ['App Referrer First-Time Downloads']),
    ).toBe('App Referrer First Time Downloads');
  });

  it('returns null without a match', () => {
    expect(matchColumn(['Date', 'Sessions'], ['Total Impressions'])).toBeNull();
  });
});

describe('resolveSourceColumns', () => {
  it('finds each metric of a source', () => {
    const headers = [
      'Date',
      'App Store Browse First-Time Downloads',
      'App Store Browse Impressions (Unique Devices)',
      'App Store Browse Total Downloads',
      'App Store Browse Re-Downloads',
      'App Store Search First-Time Downloads',
    ];
    expect(resolveSourceColumns(headers, getSource('browse'))).toEqual({
      firstTimeDownloads: 'App Store Browse First-Time Downloads',
      impressions: 'App Store Browse Impressions (Unique Devices)',
      totalDownloads: 'App Store Browse Total Downloads',
      redownloads: 'App Store Browse Re-Downloads',
    });
    expect(resolveSourceColumns(headers, getSource('web_referrer'))).toEqual({
      firstTimeDownloads: null,
      impressions: null,
      totalDownloads: null,
      redownloads: null,
    });
  });

  it('falls back to plain impressions only when no unique-devices column exists', () => {
    expect(
      resolveSourceColumns(['App Referrer Impressions'], getSource('app_referrer')).impressions,
    ).toBe('App Referrer Impressions');
    expect(
      resolveSourceColumns(
        ['App Referrer Impressions', 'App Referrer Impressions (Unique Devices)'],
        getSource('app_referrer'),
      ).impressions,
    ).toBe('App Referrer Impressions (Unique Devices)');
  });
});

describe('resolveTotalColumns', () => {
  it('never takes a per-source column for a total', () => {
    const headers = ['Date', 'App Store Search Total Downloads', 'App Store Search Redownloads'];
    expect(resolveTotalColumns(headers)).toEqual({
      totalDownloads: null,
      firstTimeDownloads: null,
      redownloads: null,
      impressions: null,
    });
  });

  it('finds the totals, exact or by substring', () => {
    expect(
      resolveTotalColumns([
        'Total Downloads',
        'Total First-Time Downloads',
        'Total Re-Downloads',
        'Total Impressions (Unique Devices)',
      ]),
    ).toEqual({
      totalDownloads: 'Total Downloads',
      firstTimeDownloads: 'Total First-Time Downloads',
      redownloads: 'Total Re-Downloads',
      impressions: 'Total Impressions (Unique Devices)',
    });
  });
});
