import { describe, expect, it } from 'vitest';
import {
  ALL_SCOPES,
  countsOfEntry,
  countsOfRow,
  dailyCounts,
  prepareDataset,
  prepareReportDataset,
  rowsInRange,
  sumCounts,
  type TRowInput,
} from './metrics.calculator';

const S = 'App Store Search';
const B = 'App Store Browse';

function row(date: string | null, search: number | string | null, browse: number): TRowInput {
  return {
    ...(date === null ? {} : { Date: date }),
    [`${S} First-Time Downloads`]: search,
    [`${S} Impressions (Unique Devices)`]: 100,
    [`${S} Redownloads`]: 2,
    [`${B} First-Time Downloads`]: browse,
    [`${B} Impressions (Unique Devices)`]: 50,
    'Total Downloads': 1_000,
    Territory: 'Germany',
  };
}

/** Ascending days with a duplicate (7/3/25 twice). */
const sorted = [
  row('7/1/25', 1, 10),
  row('7/2/25', '1,200', 20),
  row('7/3/25', 3, 30),
  row('7/3/25', 4.5, 40),
  row('7/5/25', '-', 50),
  row('7/9/25', 9, 90),
];

describe('prepareDataset: sortedByDay', () => {
  it('is true for ascending days, duplicates included, and for no rows', () => {
    expect(prepareDataset(sorted).sortedByDay).toBe(true);
    expect(prepareDataset([]).sortedByDay).toBe(true);
  });

  it('is false when a day goes back, a date does not parse or there is no date column', () => {
    expect(prepareDataset([sorted[1]!, sorted[0]!]).sortedByDay).toBe(false);
    expect(prepareDataset([sorted[0]!, row('2/30/25', 1, 1), sorted[2]!]).sortedByDay).toBe(false);
    expect(prepareDataset([row(null, 1, 1)]).sortedByDay).toBe(false);
  });
});

describe('rowsInRange', () => {
  const days = ['2025-06-30', '2025-07-01', '2025-07-02', '2025-07-03', '2025-07-04'];
  const more = ['2025-07-05', '2025-07-06', '2025-07-08', '2025-07-09', '2025-07-10'];
  const bounds = [...days, ...more];

  it('finds the same rows, in row order, as a scan on sorted and unsorted rows', () => {
    const datasets = [
      prepareDataset(sorted),
      prepareDataset([...sorted].reverse()),
      prepareDataset([...sorted, row('n/a', 1, 1)]),
    ];
    expect(datasets.map((d) => d.sortedByDay)).toEqual([true, false, false]);
    for (const dataset of datasets) {
      for (const start of bounds) {
        for (const end of bounds) {
          const scanned = dataset.entries.filter(
            (e) => e.day !== null && e.day >= start && e.day <= end,
          );
          const found = rowsInRange(dataset, { start, end });
          expect(found, `${start}..${end}`).toEqual(scanned);
          // The very entries, not copies.
          found.forEach((e, i) => expect(e).toBe(scanned[i]));
        }
      }
    }
  });

  it('gives the run of a range inside a sorted dataset', () => {
    const dataset = prepareDataset(sorted);
    expect(
      rowsInRange(dataset, { start: '2025-07-03', end: '2025-07-05' }).map((e) => e.row),
    ).toEqual([sorted[2], sorted[3], sorted[4]]);
    expect(rowsInRange(dataset, { start: '2025-07-06', end: '2025-07-08' })).toEqual([]);
  });
});

describe('prepareReportDataset', () => {
  it('keeps every scope of every row: the counts of countsOfRow', () => {
    const prepared = prepareReportDataset(sorted);
    const plain = prepareDataset(sorted);
    expect(prepared.entries.every((e) => e.counts instanceof Float64Array)).toBe(true);
    expect(plain.entries.every((e) => e.counts === undefined)).toBe(true);
    for (const [i, entry] of prepared.entries.entries()) {
      for (const scope of ALL_SCOPES) {
        expect(countsOfEntry(entry, prepared, scope), `${i} ${scope}`).toEqual(
          countsOfRow(sorted[i]!, plain, scope),
        );
      }
    }
    expect(countsOfEntry(prepared.entries[1]!, prepared, 'search')).toEqual({
      firstTimeDownloads: 1200,
      redownloads: 2,
      totalDownloads: 1202,
      impressions: 100,
    });
  });

  it('gives the same sums and daily counts as the rows', () => {
    const prepared = prepareReportDataset(sorted);
    const plain = prepareDataset(sorted);
    for (const scope of ALL_SCOPES) {
      expect(sumCounts(prepared.entries, prepared, scope), scope).toEqual(
        sumCounts(plain.entries, plain, scope),
      );
      expect(dailyCounts(prepared.entries, prepared, scope), scope).toEqual(
        dailyCounts(plain.entries, plain, scope),
      );
    }
    expect(sumCounts(prepared.entries, prepared, 'search').firstTimeDownloads).toBe(
      1 + 1200 + 3 + 4.5 + 0 + 9,
    );
  });
});

describe('dailyCounts', () => {
  it('adds rows of the same day and sorts days, whatever the row order', () => {
    const expected = [
      { day: '2025-07-01', first: 10 },
      { day: '2025-07-02', first: 20 },
      { day: '2025-07-03', first: 70 },
      { day: '2025-07-05', first: 50 },
      { day: '2025-07-09', first: 90 },
    ];
    for (const rows of [sorted, [...sorted].reverse(), [row('bad', 1, 1), ...sorted]]) {
      const dataset = prepareReportDataset(rows);
      expect(
        dailyCounts(dataset.entries, dataset, 'browse').map((d) => ({
          day: d.day,
          first: d.counts.firstTimeDownloads,
        })),
      ).toEqual(expected);
    }
  });
});
