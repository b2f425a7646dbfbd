import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseExport } from './export.parser';
import { isRedownloadsColumn, mergeExports } from './exports.merger';

function parseText(text: string, field: 'conversionCSV' | 'redownloadsCSV') {
  return parseExport(Readable.from([Buffer.from(text, 'utf8')]), field);
}

describe('mergeExports (docs/product.md#merging-exports)', () => {
  it('joins on the parsed date, unions and sorts the dates, resolves shared columns', async () => {
    const conversion = await parseText(
      [
        '"Name","App One"',
        '"Territory","Italy"',
        'Date,Search First-Time Downloads,Shared,Search Redownloads',
        '7/3/25,3,c3,-',
        '7/1/25,1,c1,100',
        '7/2/25,2,-,200',
        '7/4/25,-,-,-',
      ].join('\n'),
      'conversionCSV',
    );
    const redownloads = await parseText(
      [
        'Date,search redownloads,shared,Only Here',
        '2025-07-01,-,-,-',
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
    expect(merged.toRowObjects()).toEqual([
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
        Date: '7/4/25',
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
    expect(merged.toRowObjects().map((r) => r.Date)).toEqual(['7/1/25', 'week 1']);
    expect(merged.territory).toBeNull();
    expect(merged.appName).toBeNull();
  });

  it('warns about repeated dates, keeping the first', async () => {
    const a = await parseText(
      'Territory,Italy\nDate,A,B\n7/1/25,1,2\n7/1/25,9,9\n',
      'conversionCSV',
    );
    const b = await parseText('Territory,italy\nDate,C,D\n7/1/25,3,4\n', 'redownloadsCSV');
    const merged = mergeExports({ conversion: a, redownloads: b });
    expect(merged.territory).toBe('Italy');
    expect(merged.toRowObjects()).toEqual([
      { Date: '7/1/25', A: 1, B: 2, C: 3, D: 4, Territory: 'Italy' },
    ]);
    expect(merged.warnings).toEqual([
      'conversionCSV: 1 rows repeat an earlier date; the first row of each date was kept',
    ]);
  });

  it("passes each file's notices on, after the swap's, and compares no date range it cut", async () => {
    // Constructed: the redownloads file's second row opens a quote it never closes.
    const a = await parseText('Date,Impressions,B\n7/1/25,1,2\n7/2/25,3,4\n', 'conversionCSV');
    const b = await parseText('Date,Redownloads,C\n7/1/25,5,1\n7/2/25,"6,2\n', 'redownloadsCSV');
    const merged = mergeExports({ conversion: b, redownloads: a });
    expect(merged.swapped).toBe(true);
    expect(merged.notices).toHaveLength(2);
    expect(merged.notices[0]).toMatch(/each other's slots/);
    expect(merged.notices[1]).toBe(
      'The redownloads data file: lines 3 to the end of the file were left out, unreadable as CSV rows (the quote opened on line 3 is never closed), so the days written there have no values; fix the quote and upload again.',
    );
    expect(merged.toRowObjects()).toEqual([
      { Date: '7/1/25', Impressions: 1, B: 2, Redownloads: 5, C: 1, Territory: null },
      { Date: '7/2/25', Impressions: 3, B: 4, Redownloads: null, C: null, Territory: null },
    ]);
  });

  it('orders files that are not in date order, keeping the first row of a repeated day', async () => {
    const days = Array.from({ length: 3_000 }, (_, i) => (i * 7919) % 3_000);
    const text = [
      'Date,A,Z',
      ...days.map(
        (d, i) => `${new Date(Date.UTC(2020, 0, 1 + d)).toISOString().slice(0, 10)},${i},`,
      ),
      '2020-01-01,999999,',
      'week 2,5,',
      'Week 2,6,',
      'week 1,7,',
    ].join('\n');
    const merged = mergeExports({ conversion: await parseText(text, 'conversionCSV') });
    expect(merged.rowCount).toBe(3_002);
    const rows = merged.toRowObjects();
    expect(rows[0]).toEqual({ Date: '2020-01-01', A: 0, Z: null, Territory: null });
    for (let i = 1; i < 3_000; i++) {
      expect(String(rows[i]!.Date) > String(rows[i - 1]!.Date)).toBe(true);
      expect(rows[i]!.A).toBe(days.indexOf(i));
    }
    expect(rows.slice(3_000).map((r) => [r.Date, r.A])).toEqual([
      ['week 2', 5],
      ['week 1', 7],
    ]);
    expect(merged.dateSpan).toEqual({
      start: '2020-01-01',
      end: new Date(Date.UTC(2020, 0, 3_000)).toISOString().slice(0, 10),
    });
    expect(merged.warnings).toEqual([
      'conversionCSV: 2 rows repeat an earlier date; the first row of each date was kept',
    ]);
  });

  it('gives the rows in chunks with the days they span', async () => {
    const conversion = await parseText(
      'Date,A,Z\n7/1/25,1,\n7/2/25,2,\n7/3/25,3,\n7/4/25,-,\nsoon,4,\n',
      'conversionCSV',
    );
    const redownloads = await parseText(
      'Date,B,Z\n7/4/25,40,\n7/2/25,20,\n7/1/25,-,\n',
      'redownloadsCSV',
    );
    const merged = mergeExports({ conversion, redownloads });
    const chunks = [];
    let pauses = 0;
    for await (const chunk of merged.chunks(2, async () => {
      pauses++;
    })) {
      // The row arrays are reused for the next chunk: keep a copy.
      chunks.push(structuredClone(chunk));
    }
    expect(pauses).toBe(3);
    expect(chunks).toEqual([
      {
        rows: [
          ['7/1/25', 1, null, null, null],
          ['7/2/25', 2, null, 20, null],
        ],
        firstDay: '2025-07-01',
        lastDay: '2025-07-02',
      },
      {
        rows: [
          ['7/3/25', 3, null, null, null],
          ['7/4/25', null, null, 40, null],
        ],
        firstDay: '2025-07-03',
        lastDay: '2025-07-04',
      },
      { rows: [['soon', 4, null, null, null]], firstDay: null, lastDay: null },
    ]);
    expect(merged.headers).toEqual(['Date', 'A', 'Z', 'B', 'Territory']);
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
