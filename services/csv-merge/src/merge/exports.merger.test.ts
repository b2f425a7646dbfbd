import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseExport } from './export.parser';
import { isRedownloadsColumn, mergeExports } from './exports.merger';

function parseText(text: string, field: 'conversionCSV' | 'redownloadsCSV') {
  return parseExport(Readable.from([Buffer.from(text, 'utf8')]), field);
}

describe('mergeExports (issue 6 point 3)', () => {
  it('joins on the parsed date, unions and sorts the dates, resolves shared columns', async () => {
    const conversion = await parseText(
      [
        '"Name","App One"',
        '"Territory","Italy"',
        'Date,Search First-Time Downloads,Shared,Search Redownloads',
        '7/3/25,3,c3,-',
        '7/1/25,1,c1,100',
        '7/2/25,2,-,200',
      ].join('\n'),
      'conversionCSV',
    );
    const redownloads = await parseText(
      [
        'Date,search redownloads,shared,Only Here',
        '2025-07-02,20,r2,x',
        '2025-07-04,40,r4,y',
        '2025-07-03,30,r3,z',
      ].join('\n'),
      'redownloadsCSV',
    );
    const merged = mergeExports({ conversion, redownloads });
    expect(merged.headers).toEqual([
      'Date',
      'Search First-Time Downloads',
      'Shared',
      'Search Redownloads',
      'Only Here',
      'Territory',
    ]);
    expect(merged.rows).toEqual([
      {
        Date: '7/1/25',
        'Search First-Time Downloads': 1,
        Shared: 'c1',
        'Search Redownloads': 100,
        'Only Here': null,
        Territory: 'Italy',
      },
      // Shared: conversion's value is missing, the redownloads file fills it; Redownloads
      // columns take the redownloads file's value.
      {
        Date: '7/2/25',
        'Search First-Time Downloads': 2,
        Shared: 'r2',
        'Search Redownloads': 20,
        'Only Here': 'x',
        Territory: 'Italy',
      },
      {
        Date: '7/3/25',
        'Search First-Time Downloads': 3,
        Shared: 'c3',
        'Search Redownloads': 30,
        'Only Here': 'z',
        Territory: 'Italy',
      },
      {
        Date: '2025-07-04',
        'Search First-Time Downloads': null,
        Shared: 'r4',
        'Search Redownloads': 40,
        'Only Here': 'y',
        Territory: 'Italy',
      },
    ]);
    expect(merged.appName).toBe('App One');
    expect(merged.dateSpan).toEqual({ start: '2025-07-01', end: '2025-07-04' });
  });

  it('keeps rows with unparseable dates that carry numbers, after the dated ones', async () => {
    const only = await parseText('Date,A,B\nweek 1,5,6\n7/1/25,1,2\n', 'conversionCSV');
    const merged = mergeExports({ conversion: only });
    expect(merged.rows.map((r) => r.Date)).toEqual(['7/1/25', 'week 1']);
    expect(merged.territory).toBeNull();
    expect(merged.appName).toBeNull();
  });

  it('warns about disagreeing preambles and repeated dates, keeping the first', async () => {
    const a = await parseText(
      'Territory,Italy\nDate,A,B\n7/1/25,1,2\n7/1/25,9,9\n',
      'conversionCSV',
    );
    const b = await parseText('Territory,Spain\nDate,C,D\n7/1/25,3,4\n', 'redownloadsCSV');
    const merged = mergeExports({ conversion: a, redownloads: b });
    expect(merged.territory).toBe('Italy');
    expect(merged.rows).toEqual([{ Date: '7/1/25', A: 1, B: 2, C: 3, D: 4, Territory: 'Italy' }]);
    expect(merged.warnings).toEqual([
      'conversionCSV: 1 rows repeat an earlier date; the first row of each date was kept',
      "the files disagree on the territory ('Italy' and 'Spain'); kept 'Italy'",
    ]);
  });

  it('needs at least one file', () => {
    expect(() => mergeExports({})).toThrow(TypeError);
  });

  it('recognises Redownloads columns', () => {
    expect(isRedownloadsColumn('App Store Search Redownloads')).toBe(true);
    expect(isRedownloadsColumn('Total Re-Downloads')).toBe(true);
    expect(isRedownloadsColumn('Total Downloads')).toBe(false);
  });
});
