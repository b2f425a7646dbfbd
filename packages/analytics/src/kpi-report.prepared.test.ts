import { describe, expect, it } from 'vitest';
import type { TDateRange } from '@aso/contracts';
import { buildKpiReport, buildKpiReportOfDataset } from './kpi-report.builder';
import { addDays } from './date.helpers';
import { prepareDataset, prepareReportDataset, type TRowInput } from './metrics.calculator';
import { toNumber } from './number.parser';
import { ALL_SOURCES } from './sources.constants';

// The gateway computes reports from a dataset prepared once (`prepareReportDataset`) and kept
// between requests; these tests hold that path to the plain `buildKpiReport` of the rows.

type Row = Record<string, number | string | null>;

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `2025-07-20` -> '7/20/25', as App Store Connect writes dates. */
function mdy(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${m}/${d}/${String(y).slice(2)}`;
}

/**
 * Daily rows in the merged export's layout from `first`, `days` long: per source first-time
 * downloads, impressions, total downloads and redownloads, and the Total columns unless
 * `totals` is false. Values are mostly whole numbers, with fractions (so that the order of
 * additions shows in the sums), numeric text ('1,234'), '-' and null mixed in.
 */
function dailyRows(first: string, days: number, opts: { seed: number; totals?: boolean }): Row[] {
  const next = random(opts.seed);
  const value = (scale: number): number | string | null => {
    const r = next();
    if (r < 0.02) return null;
    if (r < 0.04) return '-';
    const n = Math.floor(next() * scale);
    if (r < 0.08) return n.toLocaleString('en-US');
    if (r < 0.14) return n + Math.floor(next() * 1000) / 1000;
    return n;
  };
  return Array.from({ length: days }, (_, i) => {
    const row: Row = { Date: mdy(addDays(first, i)) };
    for (const s of ALL_SOURCES) {
      row[`${s.name} First-Time Downloads`] = value(500);
      row[`${s.name} Impressions (Unique Devices)`] = value(20_000);
      row[`${s.name} Total Downloads`] = value(600);
      row[`${s.name} Redownloads`] = value(80);
    }
    if (opts.totals !== false) {
      row['Total First-Time Downloads'] = value(2_000);
      row['Total Impressions'] = value(80_000);
      row['Total Downloads'] = value(2_500);
      row['Total Redownloads'] = value(300);
    }
    row.Territory = 'United States';
    return row;
  });
}

/** Five years of days, 2021-01-01 to 2025-12-31, as the benchmark's dataset. */
const FIRST = '2021-01-01';
const LAST = '2025-12-31';
const merged = dailyRows(FIRST, 1826, { seed: 7 });

/** The same rows out of order, with duplicate days, ISO and unparseable dates. */
const messy: Row[] = (() => {
  const next = random(11);
  const rows = dailyRows('2024-11-01', 120, { seed: 12 }).map((r, i) => {
    if (i % 17 === 0) return { ...r, Date: 'n/a' };
    if (i % 13 === 0) return { ...r, Date: '2/30/25' };
    if (i % 11 === 0) return { ...r, Date: addDays('2024-11-01', i) };
    return r;
  });
  rows.push(...rows.slice(40, 46).map((r) => ({ ...r, Territory: 'Canada' })));
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  return rows;
})();

const noTotals = dailyRows('2025-06-01', 92, { seed: 21, totals: false });
const noDateColumn = dailyRows('2025-06-01', 10, { seed: 31 }).map(({ Date: _, ...rest }) => rest);

/** Ranges around a dataset: default, last 30 and 365 days, whole span, edges, outside. */
function rangesOf(first: string, last: string): (TDateRange | undefined)[] {
  return [
    undefined,
    { start: addDays(last, -29), end: last },
    { start: addDays(last, -364), end: last },
    { start: first, end: last },
    { start: addDays(first, -10), end: addDays(first, 5) },
    { start: addDays(last, -3), end: addDays(last, 40) },
    { start: first, end: first },
    { start: addDays(first, 45), end: addDays(first, 45 + 60) },
    { start: addDays(first, -400), end: addDays(first, -1) },
    { start: addDays(last, 1), end: addDays(last, 30) },
  ];
}

const cases: { name: string; rows: TRowInput[]; ranges: (TDateRange | undefined)[] }[] = [
  { name: 'five years of merged daily rows', rows: merged, ranges: rangesOf(FIRST, LAST) },
  {
    name: 'rows out of order with duplicate and unparseable dates',
    rows: messy,
    ranges: rangesOf('2024-11-01', addDays('2024-11-01', 119)),
  },
  {
    name: 'rows without Total columns',
    rows: noTotals,
    ranges: rangesOf('2025-06-01', '2025-08-31'),
  },
  { name: 'rows without a date column', rows: noDateColumn, ranges: rangesOf(FIRST, FIRST) },
  { name: 'no rows', rows: [], ranges: rangesOf(FIRST, LAST) },
];

describe('buildKpiReportOfDataset (reports from a prepared dataset)', () => {
  for (const c of cases) {
    it(`equals buildKpiReport of the rows: ${c.name}`, () => {
      // One prepared dataset serves every range, as the gateway's cache does.
      const prepared = prepareReportDataset(c.rows);
      const plainPrepared = prepareDataset(c.rows);
      for (const range of c.ranges) {
        const expected = buildKpiReport(c.rows, range);
        const label = range ? `${range.start}..${range.end}` : 'default range';
        expect(buildKpiReportOfDataset(prepared, range), label).toStrictEqual(expected);
        expect(buildKpiReportOfDataset(plainPrepared, range), label).toStrictEqual(expected);
        expect(JSON.stringify(buildKpiReportOfDataset(prepared, range)), label).toBe(
          JSON.stringify(expected),
        );
      }
    });
  }

  it('reports real figures for the five-year dataset (the comparison is not vacuous)', () => {
    const prepared = prepareReportDataset(merged);
    const whole = buildKpiReportOfDataset(prepared, { start: FIRST, end: LAST });
    expect(prepared.sortedByDay).toBe(true);
    expect(whole.rowCounts).toEqual({
      total: 1826,
      current: 1826,
      previous: 0,
      unparseableDates: 0,
    });
    expect(whole.dataSpan).toEqual({ start: FIRST, end: LAST });
    expect(whole.monthlyReport.months).toHaveLength(60);
    expect(whole.totals.current.totalDownloads).toBeGreaterThan(1_000_000);
    // Fractions are mixed in, so the sums are order-sensitive floating-point numbers; they are
    // the sums in row order from 0, as the reports computed them before rows were prepared.
    expect(Number.isInteger(whole.totals.current.firstTimeDownloads)).toBe(false);
    const sumInRowOrder = (column: string) =>
      merged.reduce((sum, row) => sum + toNumber(row[column]), 0);
    expect(whole.totals.current).toMatchObject({
      firstTimeDownloads: sumInRowOrder('Total First-Time Downloads'),
      redownloads: sumInRowOrder('Total Redownloads'),
      totalDownloads: sumInRowOrder('Total Downloads'),
      impressions: sumInRowOrder('Total Impressions'),
    });
    const search = whole.sources.find((s) => s.id === 'search')!;
    expect(search.current.impressions).toBe(
      sumInRowOrder('App Store Search Impressions (Unique Devices)'),
    );
    const last30 = buildKpiReportOfDataset(prepared);
    expect(last30.range).toEqual({ start: '2025-12-02', end: LAST, days: 30 });
    expect(last30.rowCounts.previous).toBe(30);
  });

  it('leaves the prepared dataset unchanged, so reports do not depend on earlier ones', () => {
    const prepared = prepareReportDataset(messy);
    const range = { start: '2024-12-01', end: '2025-01-31' };
    const first = buildKpiReportOfDataset(prepared, range);
    for (const r of rangesOf('2024-11-01', '2025-02-28')) buildKpiReportOfDataset(prepared, r);
    expect(buildKpiReportOfDataset(prepared, range)).toStrictEqual(first);
    expect(prepared.sortedByDay).toBe(false);
    expect(first.rowCounts.unparseableDates).toBeGreaterThan(0);
  });

  it('refuses a malformed range as buildKpiReport does', () => {
    const prepared = prepareReportDataset(merged);
    for (const range of [
      { start: '2025-03-10', end: '2025-03-01' },
      { start: '2025-02-30', end: '2025-03-01' },
    ]) {
      const plain = (() => {
        try {
          buildKpiReport(merged, range);
          return null;
        } catch (err) {
          return err as Error;
        }
      })();
      expect(plain).toBeInstanceOf(RangeError);
      expect(() => buildKpiReportOfDataset(prepared, range)).toThrow(
        new RangeError(plain!.message),
      );
    }
  });
});
