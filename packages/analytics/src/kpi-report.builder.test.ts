import { describe, expect, it } from 'vitest';
import { ZKpiReport } from '@aso/contracts';
import { buildKpiReport, defaultRangeOfRows } from './kpi-report.builder';
import { addDays } from './date.helpers';

type Row = Record<string, number | string | null>;

const S = 'App Store Search';
const B = 'App Store Browse';
const A = 'App Referrer';

/** A merged row: `src` maps a source name to [first-time, impressions, redownloads]. */
function row(date: string, src: Record<string, [number, number, number]>, extra: Row = {}): Row {
  const r: Row = { Date: date };
  for (const [name, [ft, imp, re]] of Object.entries(src)) {
    r[`${name} First-Time Downloads`] = ft;
    r[`${name} Impressions (Unique Devices)`] = imp;
    r[`${name} Redownloads`] = re;
  }
  return { ...r, ...extra, Territory: 'United States' };
}

describe('buildKpiReport totals (docs/product.md#dashboard-computation)', () => {
  it('takes Total Downloads from its column and rates as ratios of sums', () => {
    const rows = [
      row(
        '7/1/25',
        { [S]: [10, 100, 2] },
        {
          'Total First-Time Downloads': 12,
          'Total Impressions': 200,
          'Total Downloads': 30,
        },
      ),
      row(
        '7/2/25',
        { [S]: [1, 1000, 0] },
        {
          'Total First-Time Downloads': 3,
          'Total Impressions': '1,000',
          'Total Downloads': 20,
        },
      ),
    ];
    const r = buildKpiReport(rows, { start: '2025-07-01', end: '2025-07-02' });
    expect(r.totals.current.totalDownloads).toBe(50);
    expect(r.totals.current.firstTimeDownloads).toBe(15);
    expect(r.totals.current.impressions).toBe(1200);
    // 15 / 1200 x 100 = 1.25; Apple's 50 / 1200 x 100.
    expect(r.totals.current.conversionRate).toBe(1.25);
    expect(r.totals.current.appleConversionRate).toBeCloseTo((50 / 1200) * 100, 12);
    const search = r.sources.find((s) => s.id === 'search')!;
    // Ratio of sums: 11 / 1100 = 1%, not the mean of 10% and 0.1%.
    expect(search.current.conversionRate).toBe(1);
    expect(search.current.totalDownloads).toBe(13);
    expect(search.current.appleConversionRate).toBe((13 * 100) / 1100);
  });

  it('without a Total Downloads column adds first-time downloads and redownloads', () => {
    const rows = [row('7/1/25', { [S]: [10, 100, 4], [B]: [5, 50, 1] })];
    const r = buildKpiReport(rows, { start: '2025-07-01', end: '2025-07-01' });
    expect(r.totals.current).toMatchObject({
      firstTimeDownloads: 15,
      redownloads: 5,
      totalDownloads: 20,
      impressions: 150,
      conversionRate: 10,
    });
  });

  it('gives a conversion rate of 0 when impressions are 0', () => {
    const rows = [row('7/1/25', { [S]: [10, 0, 0] })];
    const r = buildKpiReport(rows, { start: '2025-07-01', end: '2025-07-01' });
    expect(r.totals.current.conversionRate).toBe(0);
    const search = r.sources[0]!;
    expect(search.current.conversionRate).toBe(0);
    expect(search.commentary).toContain(
      'No impressions were recorded, so there is no first-time conversion rate.',
    );
  });

  it('counts non-numeric values as 0 and excludes rows with unparseable dates', () => {
    const rows = [
      row('7/1/25', { [S]: [10, 100, 0] }),
      row('7/2/25', { [S]: [5, 50, 0] }, { [`${S} First-Time Downloads`]: 'n/a' }),
      row('Total', { [S]: [9999, 9999, 0] }),
      row('7/32/25', { [S]: [9999, 9999, 0] }),
    ];
    const r = buildKpiReport(rows, { start: '2025-07-01', end: '2025-07-31' });
    expect(r.sources[0]!.current.firstTimeDownloads).toBe(10);
    expect(r.sources[0]!.current.impressions).toBe(150);
    expect(r.rowCounts).toEqual({ total: 4, current: 2, previous: 0, unparseableDates: 2 });
  });
});

describe('buildKpiReport periods', () => {
  const rows = [
    row('7/1/25', { [S]: [100, 1000, 10] }),
    row('7/2/25', { [S]: [100, 1000, 10] }),
    row('7/3/25', { [S]: [103, 1000, 10] }),
    row('7/4/25', { [S]: [100, 1000, 10] }),
  ];

  it('compares with the same number of days immediately before', () => {
    const r = buildKpiReport(rows, { start: '2025-07-03', end: '2025-07-04' });
    expect(r.previousRange).toEqual({ start: '2025-07-01', end: '2025-07-02', days: 2 });
    const s = r.sources[0]!;
    expect(s.current.firstTimeDownloads).toBe(203);
    expect(s.previous.firstTimeDownloads).toBe(200);
    expect(s.changes.firstTimeDownloads).toBe(1.5);
    expect(s.flags.firstTimeDownloads).toBe('Stable');
  });

  it('flags exactly +3% as Up', () => {
    const r = buildKpiReport(rows, { start: '2025-07-03', end: '2025-07-03' });
    expect(r.sources[0]!.changes.firstTimeDownloads).toBe(3);
    expect(r.sources[0]!.flags.firstTimeDownloads).toBe('Up');
    expect(r.sources[0]!.commentary[0]).toBe(
      'App Store Search first-time downloads rose 3.0% to 103 (previous period: 100).',
    );
  });

  it('gives a change of 0 when the previous period has no data', () => {
    const r = buildKpiReport(rows, { start: '2025-07-01', end: '2025-07-02' });
    expect(r.totals.changes.totalDownloads).toBe(0);
    expect(r.totals.flags.totalDownloads).toBe('Stable');
    expect(r.sources[0]!.commentary[0]).toBe('App Store Search brought 200 first-time downloads.');
    // No previous period: no sentence about changes against it, anywhere.
    expect(r.performanceOverview).not.toMatch(/previous|against|compare/i);
    expect(r.sources.flatMap((s) => s.commentary).join(' ')).not.toMatch(/previous/);
    expect(r.executiveSummary.text).not.toMatch(/previous/);
  });

  it('uses the last 30 days when no range is given', () => {
    const many = Array.from({ length: 40 }, (_, i) => {
      const [y, m, d] = addDays('2025-06-01', i).split('-');
      return row(`${Number(m)}/${Number(d)}/${y!.slice(2)}`, { [S]: [1, 10, 0] });
    });
    const r = buildKpiReport(many);
    expect(r.range).toEqual({ start: '2025-06-11', end: '2025-07-10', days: 30 });
    expect(r.previousRange).toEqual({ start: '2025-05-12', end: '2025-06-10', days: 30 });
    expect(r.sources[0]!.current.firstTimeDownloads).toBe(30);
    expect(r.sources[0]!.previous.firstTimeDownloads).toBe(10);
    expect(r.dataSpan).toEqual({ start: '2025-06-01', end: '2025-07-10' });
    expect(defaultRangeOfRows(many)).toEqual({ start: '2025-06-11', end: '2025-07-10' });
    expect(defaultRangeOfRows([{ Date: 'x' }])).toEqual({ start: '2025-07-20', end: '2025-08-18' });
  });

  it('rejects a malformed range', () => {
    expect(() => buildKpiReport(rows, { start: '2025-07-04', end: '2025-07-03' })).toThrow(
      RangeError,
    );
  });
});

describe('buildKpiReport sources and commentary (docs/product.md#dashboard-sections and #dashboard-computation)', () => {
  // 9 days; search has a spike of 3x on day 5, browse a drop to 0 on day 5.
  const rows = Array.from({ length: 9 }, (_, i) =>
    row(`7/${i + 1}/25`, {
      [S]: [i === 4 ? 30 : 10, 200, 1],
      [B]: [i === 4 ? 0 : 10, 500, 1],
      [A]: [1, 10, 0],
    }),
  );
  const report = buildKpiReport(rows, { start: '2025-07-01', end: '2025-07-09' });

  it('marks a source without columns as without data', () => {
    const web = report.sources.find((s) => s.id === 'web_referrer')!;
    expect(web.hasData).toBe(false);
    expect(web.spike).toBeNull();
    expect(web.commentary).toEqual(['No data for Web Referrer in the selected period']);
    expect(web.columns.firstTimeDownloads).toBeNull();
  });

  it('finds the spike and writes it into the commentary, at most 3 lines', () => {
    const search = report.sources[0]!;
    // Window of day 5: 6 x 10 + 30 = 90, average 90/7; 30 / (90/7) = 2.333x.
    expect(search.spike).toMatchObject({
      date: '2025-07-05',
      value: 30,
      type: 'spike',
      notable: true,
    });
    expect(search.spike!.magnitude).toBeCloseTo((210 / 90 - 1) * 100, 10);
    expect(search.commentary).toHaveLength(3);
    expect(search.commentary[2]).toBe(
      'A notable spike on Jul 5, 2025: 30 first-time downloads, 133.3% above the 7-day average of 13.',
    );
    const browse = report.sources[1]!;
    expect(browse.spike).toMatchObject({ type: 'drop', magnitude: 100, notable: false });
    expect(browse.commentary[2]).toBe(
      'A drop on Jul 5, 2025: 0 first-time downloads, 100.0% below the 7-day average of 9.',
    );
    for (const s of report.sources) expect(s.commentary.length).toBeLessThanOrEqual(3);
  });

  it('without a spike the share line comes third', () => {
    const referrer = report.sources[2]!;
    expect(referrer.spike).toBeNull();
    expect(referrer.commentary).toEqual([
      'App Referrer brought 9 first-time downloads.',
      'First-time conversion rate was 10.0%, on 90 impressions.',
      'App Referrer accounted for 4.5% of all first-time downloads.',
    ]);
    // All first-time downloads: (10 x 8 + 30) + (10 x 8 + 0) + 9 = 199.
    expect(referrer.shareOfFirstTimeDownloads).toBeCloseTo((9 * 100) / 199, 12);
  });

  it('ranks sources by first-time downloads', () => {
    expect(report.rankingSentence).toBe(
      'App Store Search drove the most first-time downloads (110, 55.3% of all first-time downloads), followed by App Store Browse (80, 40.2%) and App Referrer (9, 4.5%).',
    );
  });

  it('does not judge spikes with 6 days', () => {
    const six = buildKpiReport(rows, { start: '2025-07-02', end: '2025-07-07' });
    expect(six.sources[0]!.spike).toBeNull();
    const seven = buildKpiReport(rows, { start: '2025-07-02', end: '2025-07-08' });
    expect(seven.sources[0]!.spike).toMatchObject({ date: '2025-07-05' });
  });

  it('matches the contracts schema and is deterministic', () => {
    expect(() => ZKpiReport.parse(report)).not.toThrow();
    expect(buildKpiReport(rows, { start: '2025-07-01', end: '2025-07-09' })).toEqual(report);
  });
});

describe('buildKpiReport executive summary (docs/product.md#dashboard-computation)', () => {
  /** Previous day 7/1, current day 7/2; totals columns set the overall rate. */
  function summary(opts: {
    total: [number, number];
    search?: [number, number];
    browse?: [number, number];
    prevSearch?: number;
  }) {
    const [tft, timp] = opts.total;
    const mk = (date: string, searchFt: number) =>
      row(
        date,
        {
          [S]: [searchFt, opts.search?.[1] ?? 100, 0],
          [B]: [opts.browse?.[0] ?? 1, opts.browse?.[1] ?? 1000, 0],
        },
        { 'Total First-Time Downloads': tft, 'Total Impressions': timp },
      );
    const rows = [
      mk('7/1/25', opts.prevSearch ?? opts.search?.[0] ?? 4),
      mk('7/2/25', opts.search?.[0] ?? 4),
    ];
    return buildKpiReport(rows, { start: '2025-07-02', end: '2025-07-02' }).executiveSummary;
  }

  it.each([
    [[5, 100], 'solid'],
    [[499, 10000], 'typical'],
    [[3, 100], 'typical'],
    [[299, 10000], 'room_for_improvement'],
  ] as const)('overall %j is %s', (total, assessment) => {
    expect(summary({ total: [...total] }).conversionAssessment).toBe(assessment);
  });

  it('writes the assessment in the words of the rules: solid, typical, room for improvement', () => {
    expect(summary({ total: [5, 100] }).lines[0]).toBe(
      'The first-time conversion rate (first-time downloads / impressions) of 5.0% is solid (5% or more).',
    );
    expect(summary({ total: [499, 10000] }).lines[0]).toBe(
      'The first-time conversion rate (first-time downloads / impressions) of 5.0% is typical (3% to 5%).',
    );
    expect(summary({ total: [3, 100] }).lines[0]).toBe(
      'The first-time conversion rate (first-time downloads / impressions) of 3.0% is typical (3% to 5%).',
    );
    expect(summary({ total: [299, 10000] }).lines[0]).toBe(
      'The first-time conversion rate (first-time downloads / impressions) of 3.0% is below 3%: there is room for improvement.',
    );
  });

  it('never judges or names the App Store rate: one rate in the summary', () => {
    const s = summary({ total: [5, 100], browse: [101, 10000] });
    expect(s.text).not.toMatch(/App Store conversion rate|total downloads/i);
  });

  it('calls browse conversion above 1% very positive (exactly 1% is not)', () => {
    const one = summary({ total: [5, 100], browse: [10, 1000] });
    expect(one.browseVeryPositive).toBe(false);
    expect(one.lines[1]).toBe(
      'App Store Browse conversion is 1.0% (10 first-time downloads from 1,000 impressions), not above 1%.',
    );
    const s = summary({ total: [5, 100], browse: [101, 10000] });
    expect(s.browseVeryPositive).toBe(true);
    expect(s.lines[1]).toBe(
      // The figure that earned it, not praise.
      'App Store Browse conversion of 1.0% (101 first-time downloads from 10,000 impressions) is very positive (above 1%).',
    );
  });

  it('flags search below 80% of the overall rate (exactly 80% is not)', () => {
    // Overall 5%; 80% of it is 4%.
    const eighty = summary({ total: [5, 100], search: [4, 100] });
    expect(eighty.searchUnderperforming).toBe(false);
    expect(eighty.lines[2]).toBe(
      'App Store Search conversion of 4.0% is at least 80% of the overall rate (5.0%).',
    );
    const s = summary({ total: [5, 100], search: [399, 10000] });
    expect(s.searchUnderperforming).toBe(true);
    expect(s.lines[2]).toBe(
      'App Store Search conversion of 4.0% is below 80% of the overall rate (5.0%): search is underperforming; review the title, subtitle, keyword field and first three screenshots.',
    );
  });

  it('lists changes of 10% or more as key fluctuations', () => {
    const ten = summary({ total: [5, 100], search: [110, 1000], prevSearch: 100 });
    expect(ten.keyFluctuations).toEqual([{ id: 'search', name: S, change: 10, flag: 'Up' }]);
    expect(ten.lines.at(-1)).toBe(
      'Key fluctuations against the previous period: App Store Search first-time downloads up 10.0%.',
    );
    const nine = summary({ total: [5, 100], search: [109, 1000], prevSearch: 100 });
    expect(nine.keyFluctuations).toEqual([]);
    expect(nine.lines.at(-1)).toBe(
      'No source changed its first-time downloads by 10% or more against the previous period.',
    );
  });
});

describe('buildKpiReport monthly report (docs/product.md#dashboard-computation)', () => {
  const rows = [
    row(
      '7/30/25',
      { [S]: [10, 100, 5] },
      { 'Institutional Purchase Total Downloads': 2, 'Event Notification Redownloads': 1 },
    ),
    row('7/31/25', { [S]: [10, 100, 5], [B]: [40, 400, 30] }),
    row('8/1/25', { [S]: [20, 100, 0] }, { 'Unavailable First-Time Downloads': 3 }),
  ];

  it('groups the range by calendar month with all seven sources', () => {
    const m = buildKpiReport(rows, { start: '2025-07-30', end: '2025-08-01' }).monthlyReport;
    expect(m.status).toBe('ok');
    expect(m.message).toBeNull();
    expect(m.months.map((x) => [x.month, x.label, x.days])).toEqual([
      ['2025-07', 'Jul 2025', 2],
      ['2025-08', 'Aug 2025', 1],
    ]);
    const jul = m.months[0]!;
    expect(jul.sources.search).toEqual({
      firstTimeDownloads: 20,
      redownloads: 10,
      totalDownloads: 30,
      impressions: 200,
    });
    expect(jul.sources.browse.totalDownloads).toBe(70);
    expect(jul.sources.institutional_purchase.totalDownloads).toBe(2);
    expect(jul.sources.event_notification.totalDownloads).toBe(1);
    expect(m.months[1]!.sources.unavailable.firstTimeDownloads).toBe(3);
    // Without total columns the totals add up the seven sources (Institutional Purchase only
    // has a Total Downloads column, Event Notification only redownloads).
    expect(jul.totals.totalDownloads).toBe(30 + 70 + 2 + 1);
    expect(jul.totals.firstTimeDownloads).toBe(60);
    expect(jul.totals.redownloads).toBe(10 + 30 + 1);
    expect(m.totals.totalDownloads).toBe(103 + 20 + 3);
    expect(m.composition!.totalDownloads).toBe(126);
  });

  it('labels composition segments only above 15%', () => {
    const m = buildKpiReport([row('7/1/25', { [S]: [15, 100, 0], [B]: [85, 100, 0] })], {
      start: '2025-07-01',
      end: '2025-07-01',
    }).monthlyReport;
    expect(m.composition).toEqual({
      totalDownloads: 100,
      segments: [
        { id: 'search', name: S, totalDownloads: 15, share: 15, showLabel: false },
        { id: 'browse', name: B, totalDownloads: 85, share: 85, showLabel: true },
      ],
    });
  });

  it('has no composition bar when total downloads are 0', () => {
    const m = buildKpiReport([row('7/1/25', { [S]: [0, 100, 0] })], {
      start: '2025-07-01',
      end: '2025-07-01',
    }).monthlyReport;
    expect(m.status).toBe('ok');
    expect(m.composition).toBeNull();
  });

  it("says 'No data available' without rows and 'No date field found' without a date column", () => {
    const range = { start: '2025-07-01', end: '2025-07-31' };
    expect(buildKpiReport([], range).monthlyReport).toMatchObject({
      status: 'no_data',
      message: 'No data available',
    });
    expect(
      buildKpiReport(rows, { start: '2024-01-01', end: '2024-01-31' }).monthlyReport.message,
    ).toBe('No data available');
    const noDate = buildKpiReport([{ Day: '7/1/25', 'Total Downloads': 5 }], range);
    expect(noDate.monthlyReport).toMatchObject({
      status: 'no_date_field',
      message: 'No date field found',
    });
    expect(noDate.dateColumn).toBeNull();
    expect(noDate.performanceOverview).toBe('No date field found, so no period can be analysed.');
  });
});

describe('buildKpiReport with no rows', () => {
  it('reports no data everywhere and the documented default range', () => {
    const r = buildKpiReport([]);
    expect(r.range).toEqual({ start: '2025-07-20', end: '2025-08-18', days: 30 });
    expect(r.performanceOverview).toBe('No data available for Jul 20, 2025 to Aug 18, 2025.');
    expect(r.executiveSummary.lines).toEqual(['No data available for the selected period.']);
    expect(r.sources.map((s) => s.commentary[0])).toEqual([
      'No data for App Store Search in the selected period',
      'No data for App Store Browse in the selected period',
      'No data for App Referrer in the selected period',
      'No data for Web Referrer in the selected period',
    ]);
    expect(r.rankingSentence).toBe(
      'No first-time downloads came from App Store Search, App Store Browse, App Referrer or Web Referrer in the selected period.',
    );
    expect(() => ZKpiReport.parse(r)).not.toThrow();
  });
});
