import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildKpiReport } from '@aso/analytics';
import { ZKpiReport } from '@aso/contracts';
import { parseAndMergeExports } from '../src/merge/index';
import { ascFixture, rawNumber, readSampleExport, SAMPLE_EXPORTS } from './fixture-paths.helpers';

/** The test's own M/D/YY reading (all sample dates are 20xx). */
function iso(mdy: string): string {
  const [m, d, y] = mdy.split('/').map(Number) as [number, number, number];
  return `20${String(y).padStart(2, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function shiftDay(day: string, by: number): string {
  const t = new Date(`${day}T00:00:00Z`).getTime() + by * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

const SOURCES = ['App Store Search', 'App Store Browse', 'App Referrer', 'Web Referrer'];

/** Direct sums over the raw files for the days in [start, end]. */
function direct(sample: (typeof SAMPLE_EXPORTS)[number], start: string, end: string) {
  const conv = readSampleExport(ascFixture(sample.conversion)).rows.filter((r) => {
    const day = iso(r.Date!);
    return day >= start && day <= end;
  });
  const redl = readSampleExport(ascFixture(sample.redownloads)).rows.filter((r) => {
    const day = iso(r.Date!);
    return day >= start && day <= end;
  });
  const sum = (rows: Record<string, string>[], column: string) =>
    rows.reduce((acc, r) => acc + (rawNumber(r[column] ?? '') ?? 0), 0);
  return {
    rows: conv.length,
    totalDownloads: sum(conv, 'Total Downloads'),
    firstTimeDownloads: sum(conv, 'Total First-Time Downloads'),
    impressions: sum(conv, 'Total Impressions'),
    redownloads: sum(redl, 'Total Redownloads'),
    sources: SOURCES.map((s) => ({
      firstTimeDownloads: sum(conv, `${s} First-Time Downloads`),
      impressions: sum(conv, `${s} Impressions (Unique Devices)`),
      redownloads: sum(redl, `${s} Redownloads`),
    })),
    byMonth: (month: string) =>
      sum(
        conv.filter((r) => iso(r.Date!).startsWith(month)),
        'Total Downloads',
      ),
  };
}

/**
 * First-time downloads of `source` by day, for the days on which the source has data (a number
 * in at least one of its columns; '-' is a missing value).
 */
function sourceDays(sample: (typeof SAMPLE_EXPORTS)[number], source: string): Map<string, number> {
  const out = new Map<string, number>();
  const conv = readSampleExport(ascFixture(sample.conversion)).rows;
  const redl = new Map(
    readSampleExport(ascFixture(sample.redownloads)).rows.map((r) => [iso(r.Date!), r]),
  );
  for (const row of conv) {
    const day = iso(row.Date!);
    const cells = [row, redl.get(day) ?? {}].flatMap((r) =>
      Object.entries(r)
        .filter(([k]) => k.startsWith(`${source} `))
        .map(([, v]) => rawNumber(v)),
    );
    if (cells.some((v) => v !== null))
      out.set(day, rawNumber(row[`${source} First-Time Downloads`] ?? '') ?? 0);
  }
  return out;
}

function pct(current: number, previous: number): number {
  return previous === 0 ? 0 : ((current - previous) / previous) * 100;
}

const CASES = [
  { sample: SAMPLE_EXPORTS[0], start: '2025-06-01', end: '2025-08-31' },
  { sample: SAMPLE_EXPORTS[0], start: '2025-07-01', end: '2025-07-31' },
  { sample: SAMPLE_EXPORTS[0], start: '2025-08-02', end: '2025-08-31' },
  { sample: SAMPLE_EXPORTS[1], start: '2025-08-04', end: '2025-08-18' },
  { sample: SAMPLE_EXPORTS[2], start: '2025-03-08', end: '2025-03-14' },
];

describe.each(CASES)(
  'KPI report of $sample.conversion from $start to $end',
  ({ sample, start, end }) => {
    it('equals a direct computation over the raw files', async () => {
      const merged = await parseAndMergeExports({
        conversionCSV: createReadStream(ascFixture(sample.conversion)),
        redownloadsCSV: createReadStream(ascFixture(sample.redownloads)),
      });
      const report = buildKpiReport(merged.toRowObjects(), { start, end });
      expect(() => ZKpiReport.parse(report)).not.toThrow();

      const days = Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000) + 1;
      const cur = direct(sample, start, end);
      const prev = direct(sample, shiftDay(start, -days), shiftDay(start, -1));
      // Compared on matching days only: where the previous period starts before the data, the
      // range's first days have no matching day and are left out of the comparison.
      const firstMatched =
        shiftDay(start, -days) < sample.start ? shiftDay(sample.start, days) : start;
      const compared = direct(sample, firstMatched, end);
      const matched = direct(sample, shiftDay(firstMatched, -days), shiftDay(start, -1));

      expect(report.rowCounts.current).toBe(cur.rows);
      expect(report.rowCounts.previous).toBe(prev.rows);
      expect(report.totals.current).toMatchObject({
        totalDownloads: cur.totalDownloads,
        firstTimeDownloads: cur.firstTimeDownloads,
        impressions: cur.impressions,
        redownloads: cur.redownloads,
      });
      expect(report.totals.previous.totalDownloads).toBe(matched.totalDownloads);
      expect(report.totals.coverage.days).toBe(prev.rows);
      expect(report.totals.coverage.partial).toBe(prev.rows > 0 && firstMatched !== start);
      expect(report.totals.current.conversionRate).toBeCloseTo(
        (cur.firstTimeDownloads / cur.impressions) * 100,
        10,
      );
      expect(report.totals.current.appleConversionRate).toBeCloseTo(
        (cur.totalDownloads / cur.impressions) * 100,
        10,
      );
      expect(report.totals.changes.totalDownloads).toBeCloseTo(
        pct(compared.totalDownloads, matched.totalDownloads),
        10,
      );

      report.sources.forEach((s, i) => {
        const c = cur.sources[i]!;
        // Matching days on which the source has data on both sides.
        const have = sourceDays(sample, SOURCES[i]!);
        let k = 0;
        let p = 0;
        for (let d = start; d <= end; d = shiftDay(d, 1)) {
          const before = shiftDay(d, -days);
          if (!have.has(d) || !have.has(before)) continue;
          k += have.get(d)!;
          p += have.get(before)!;
        }
        expect(s.name).toBe(SOURCES[i]);
        expect(s.current.firstTimeDownloads).toBe(c.firstTimeDownloads);
        expect(s.current.impressions).toBe(c.impressions);
        expect(s.current.redownloads).toBe(c.redownloads);
        expect(s.current.conversionRate).toBeCloseTo(
          (c.firstTimeDownloads / c.impressions) * 100,
          10,
        );
        expect(s.previous.firstTimeDownloads).toBe(p);
        expect(s.compared.firstTimeDownloads).toBe(k);
        const change = pct(k, p);
        expect(s.changes.firstTimeDownloads).toBeCloseTo(change, 10);
        expect(s.flags.firstTimeDownloads).toBe(
          change >= 3 ? 'Up' : change <= -3 ? 'Down' : 'Stable',
        );
        expect(s.hasData).toBe(true);
        expect(s.commentary.length).toBeGreaterThan(0);
        expect(s.commentary.length).toBeLessThanOrEqual(3);
      });

      const months = report.monthlyReport.months;
      expect(months.reduce((a, m) => a + m.totals.totalDownloads, 0)).toBe(cur.totalDownloads);
      for (const m of months) expect(m.totals.totalDownloads).toBe(cur.byMonth(m.month));
      expect(report.monthlyReport.composition!.totalDownloads).toBe(cur.totalDownloads);
    });
  },
);

describe('spikes in the Habit Tracker Pro sample (fixtures/SOURCES.md: spike on day 41, zero day 56, drop on day 72)', () => {
  /** Direct: centred 7-point window, largest |value / average - 1| beyond 1.5x or 0.5x. */
  function directSpike(start: string, end: string) {
    const values = readSampleExport(ascFixture(SAMPLE_EXPORTS[0].conversion))
      .rows.map((r) => ({
        day: iso(r.Date!),
        v: rawNumber(r['App Store Search First-Time Downloads']!) ?? 0,
      }))
      .filter((x) => x.day >= start && x.day <= end);
    let best: { day: string; magnitude: number; type: string } | null = null;
    for (let i = 3; i < values.length - 3; i++) {
      const avg = values.slice(i - 3, i + 4).reduce((a, x) => a + x.v, 0) / 7;
      if (avg === 0) continue;
      const ratio = values[i]!.v / avg;
      if (ratio <= 1.5 && ratio >= 0.5) continue;
      const magnitude = Math.abs(ratio - 1) * 100;
      if (!best || magnitude > best.magnitude) {
        best = { day: values[i]!.day, magnitude, type: ratio > 1 ? 'spike' : 'drop' };
      }
    }
    return best;
  }

  async function searchSpike(start: string, end: string) {
    const sample = SAMPLE_EXPORTS[0];
    const merged = await parseAndMergeExports({
      conversionCSV: createReadStream(ascFixture(sample.conversion)),
      redownloadsCSV: createReadStream(ascFixture(sample.redownloads)),
    });
    return buildKpiReport(merged.toRowObjects(), { start, end }).sources[0]!;
  }

  it('over the whole span keeps the zero day (a 100% drop), not the smaller spike', async () => {
    const search = await searchSpike('2025-06-01', '2025-08-31');
    const best = directSpike('2025-06-01', '2025-08-31')!;
    expect(search.spike).toMatchObject({ date: best.day, type: best.type });
    expect(search.spike).toMatchObject({
      date: '2025-07-26',
      type: 'drop',
      value: 0,
      magnitude: 100,
      notable: false,
    });
    expect(search.commentary).toContain(
      `A drop on Jul 26, 2025: 0 first-time downloads, 100.0% below the 7-day average of ${Math.round(search.spike!.average).toLocaleString('en-US')}.`,
    );
  });

  it('in the first three weeks of July finds the day-41 spike', async () => {
    const search = await searchSpike('2025-07-01', '2025-07-21');
    const best = directSpike('2025-07-01', '2025-07-21')!;
    const spike = search.spike!;
    expect(spike.date).toBe('2025-07-11');
    expect(spike.date).toBe(best.day);
    expect(spike.type).toBe('spike');
    expect(spike.value).toBe(883);
    expect(spike.magnitude).toBeCloseTo(best.magnitude, 10);
    expect(spike.reported).toBe(spike.magnitude > 50);
    expect(spike.notable).toBe(spike.magnitude > 100);
  });
});
