import type { TListingChange } from '@aso/contracts';
import { describe, expect, it } from 'vitest';
import {
  buildChangeImpact,
  impactEventsOfChanges,
  impactWindows,
  judgeFigure,
  NOISE_BAND_K,
  utcDay,
  windowStats,
  type TChangeImpact,
  type TImpactEvent,
} from './change-impact.builder';
import { addDays } from './date.helpers';

/** Constructed daily rows: Search first-time downloads and impressions per day, from `start`. */
function rows(start: string, days: { ftd: number; imp: number }[]) {
  return days.map(({ ftd, imp }, i) => {
    const [y, m, d] = addDays(start, i).split('-').map(Number) as [number, number, number];
    return {
      Date: `${m}/${d}/${String(y).slice(2)}`,
      'App Store Search First-Time Downloads': ftd,
      'App Store Search Impressions (Unique Devices)': imp,
    };
  });
}

function figure(impact: TChangeImpact, scope: string, metric: string) {
  const s = impact.scopes.find((x) => x.scope === scope);
  const f = s?.figures.find((x) => x.metric === metric);
  if (!f) throw new Error(`no ${scope} ${metric}`);
  return f;
}

const EVENT: TImpactEvent = {
  id: 's2',
  lastSeenBefore: '2025-07-08',
  firstSeenAfter: '2025-07-09',
};

describe('impactWindows', () => {
  it('takes N days each side and leaves out the days the change may have happened on', () => {
    expect(impactWindows(EVENT, 7)).toEqual({
      before: { start: '2025-07-01', end: '2025-07-07' },
      after: { start: '2025-07-10', end: '2025-07-16' },
      excluded: { start: '2025-07-08', end: '2025-07-09' },
    });
    // A read gap of several days is left out whole.
    const gap = impactWindows(
      { id: 'g', lastSeenBefore: '2025-02-27', firstSeenAfter: '2025-03-02' },
      14,
    );
    expect(gap.before).toEqual({ start: '2025-02-13', end: '2025-02-26' });
    expect(gap.after).toEqual({ start: '2025-03-03', end: '2025-03-16' });
  });

  it('refuses a window that is not a positive whole number and reversed days', () => {
    expect(() => impactWindows(EVENT, 0)).toThrow(RangeError);
    expect(() => impactWindows(EVENT, 7.5)).toThrow(/positive whole number/);
    expect(() =>
      impactWindows({ id: 'x', lastSeenBefore: '2025-07-09', firstSeenAfter: '2025-07-08' }, 7),
    ).toThrow(/after firstSeenAfter/);
  });
});

describe('windowStats', () => {
  it('gives the mean and the sample standard deviation', () => {
    // mean 5, squared deviations 9+1+1+9 = 20, / 3.
    const s = windowStats([2, 4, 6, 8]);
    expect(s.days).toBe(4);
    expect(s.mean).toBe(5);
    expect(s.sd).toBeCloseTo(Math.sqrt(20 / 3), 12);
    expect(windowStats([3])).toEqual({ days: 1, mean: 3, sd: null });
    expect(windowStats([])).toEqual({ days: 0, mean: null, sd: null });
  });
});

describe('judgeFigure (noise band mean ± 2 sd of the before window)', () => {
  const before = [90, 110, 90, 110, 90, 110, 100]; // mean 100
  const sd = windowStats(before).sd!;
  const high = 100 + NOISE_BAND_K * sd;

  it('is inconclusive inside the band, bounds included', () => {
    const f = judgeFigure('firstTimeDownloads', before, Array(7).fill(high) as number[], 7);
    expect(f.band!.high).toBeCloseTo(high, 12);
    expect(f.band!.low).toBeCloseTo(100 - 2 * sd, 12);
    expect(f.verdict).toBe('inconclusive');
    expect(judgeFigure('impressions', before, before, 7).verdict).toBe('inconclusive');
  });

  it('says likely better above the band and likely worse below it', () => {
    const up = judgeFigure('firstTimeDownloads', before, Array(7).fill(high + 0.01) as number[], 7);
    expect(up.verdict).toBe('better');
    expect(up.changePct).toBeCloseTo(((high + 0.01 - 100) / 100) * 100, 10);
    const down = judgeFigure('conversionRate', before, [70, 75, 80, 70, 75, 80, 75], 7);
    expect(down.verdict).toBe('worse');
    expect(down.after.mean).toBe(75);
    expect(down.changePct).toBe(-25);
  });

  it('gives no verdict when either window misses a day, whatever the difference', () => {
    const partial = judgeFigure('firstTimeDownloads', before, [500, 500, 500], 7);
    expect(partial.complete).toBe(false);
    expect(partial.verdict).toBeNull();
    expect(partial.after.mean).toBe(500);
    const shortBefore = judgeFigure(
      'firstTimeDownloads',
      before.slice(2),
      Array(7).fill(500) as number[],
      7,
    );
    expect(shortBefore.verdict).toBeNull();
  });

  it('a flat before window has a zero-width band', () => {
    const flat = Array(7).fill(10) as number[];
    expect(judgeFigure('impressions', flat, flat, 7).verdict).toBe('inconclusive');
    expect(judgeFigure('impressions', flat, [10, 10, 10, 10, 10, 10, 11], 7).verdict).toBe(
      'better',
    );
    // No percent change from a zero mean.
    expect(judgeFigure('impressions', Array(7).fill(0) as number[], flat, 7).changePct).toBeNull();
  });
});

describe('buildChangeImpact', () => {
  // 2025-07-01..2025-07-21: 7 noisy days around 100 downloads / 1000 impressions, the 2 left-out
  // days, then 7 days at 150 / 1000 and 5 more.
  const before = [
    { ftd: 95, imp: 1000 },
    { ftd: 105, imp: 1000 },
    { ftd: 98, imp: 980 },
    { ftd: 102, imp: 1020 },
    { ftd: 100, imp: 1000 },
    { ftd: 97, imp: 990 },
    { ftd: 103, imp: 1010 },
  ];
  const gapDays = [
    { ftd: 400, imp: 1000 },
    { ftd: 400, imp: 1000 },
  ];
  const after = Array.from({ length: 12 }, () => ({ ftd: 150, imp: 1000 }));
  const data = rows('2025-07-01', [...before, ...gapDays, ...after]);

  it('judges each figure per scope against the before window, leaving the change days out', () => {
    const [impact] = buildChangeImpact(data, [EVENT], 7);
    expect(impact!.before).toEqual({ start: '2025-07-01', end: '2025-07-07' });
    expect(impact!.after).toEqual({ start: '2025-07-10', end: '2025-07-16' });
    // The export has Search columns only: the total and Search.
    expect(impact!.scopes.map((s) => s.scope)).toEqual(['total', 'search']);
    const ftd = figure(impact!, 'search', 'firstTimeDownloads');
    expect(ftd.before.mean).toBe(100);
    expect(ftd.after.mean).toBe(150); // the 400s of the left-out days do not count
    expect(ftd.verdict).toBe('better');
    expect(ftd.changePct).toBe(50);
    // Impressions stayed within their noise: 1000 is inside 1000 ± 2 sd.
    const imp = figure(impact!, 'search', 'impressions');
    expect(imp.before.mean).toBe(1000);
    expect(imp.verdict).toBe('inconclusive');
    // Conversion rate: the mean of daily rates, in percent.
    const cr = figure(impact!, 'search', 'conversionRate');
    const daily = before.map((d) => (d.ftd * 100) / d.imp);
    expect(cr.before.mean).toBeCloseTo(daily.reduce((s, v) => s + v, 0) / 7, 12);
    expect(cr.after.mean).toBe(15);
    expect(cr.verdict).toBe('better');
    // The total adds the sources (here only Search).
    expect(figure(impact!, 'total', 'firstTimeDownloads').after.mean).toBe(150);
    expect(impact!.complete).toBe(true);
    expect(impact!.overlapping).toEqual([]);
  });

  it('says a window the data covers only in part is partial and gives no verdict', () => {
    // 14 days each side: the before window starts 2025-06-24, before the data.
    const [impact] = buildChangeImpact(data, [EVENT], 14);
    const ftd = figure(impact!, 'search', 'firstTimeDownloads');
    expect(ftd.before.days).toBe(7);
    expect(ftd.after.days).toBe(12);
    expect(ftd.complete).toBe(false);
    expect(ftd.verdict).toBeNull();
    expect(impact!.complete).toBe(false);
  });

  it('counts a day whose cells are missing as uncovered, and a day without impressions has no rate', () => {
    const holes = data.map((row, i) =>
      i === 2
        ? {
            ...row,
            'App Store Search First-Time Downloads': null,
            'App Store Search Impressions (Unique Devices)': null,
          }
        : row,
    );
    const [impact] = buildChangeImpact(holes, [EVENT], 7);
    expect(figure(impact!, 'search', 'firstTimeDownloads').before.days).toBe(6);
    expect(figure(impact!, 'search', 'firstTimeDownloads').verdict).toBeNull();

    const noImpressions = data.map((row, i) =>
      i === 12 ? { ...row, 'App Store Search Impressions (Unique Devices)': 0 } : row,
    );
    const [second] = buildChangeImpact(noImpressions, [EVENT], 7);
    expect(figure(second!, 'search', 'conversionRate').after.days).toBe(6);
    expect(figure(second!, 'search', 'conversionRate').verdict).toBeNull();
    expect(figure(second!, 'search', 'firstTimeDownloads').verdict).toBe('better');
  });

  it('flags other changes whose days touch the windows', () => {
    const events: TImpactEvent[] = [
      EVENT,
      { id: 's3', lastSeenBefore: '2025-07-14', firstSeenAfter: '2025-07-15' },
      { id: 's9', lastSeenBefore: '2025-09-01', firstSeenAfter: '2025-09-02' },
    ];
    const impacts = buildChangeImpact(data, events, 7);
    expect(impacts.map((i) => i.eventId)).toEqual(['s2', 's3', 's9']);
    expect(impacts[0]!.overlapping).toEqual(['s3']);
    expect(impacts[1]!.overlapping).toEqual(['s2']);
    expect(impacts[2]!.overlapping).toEqual([]);
    // Nothing of the data lies around s9.
    expect(figure(impacts[2]!, 'search', 'impressions').before.days).toBe(0);
    expect(figure(impacts[2]!, 'search', 'impressions').band).toBeNull();
  });
});

describe('impactEventsOfChanges', () => {
  const base = {
    before: null,
    after: null,
    detail: null,
    previousSnapshotId: '1',
  };
  const changes: TListingChange[] = [
    {
      ...base,
      id: 'c3',
      field: 'rating',
      snapshotId: '3',
      detectedAt: '2025-07-20T06:00:00Z',
      previousAt: '2025-07-19T06:00:00Z',
    },
    {
      ...base,
      id: 'c1',
      field: 'title',
      snapshotId: '2',
      detectedAt: '2025-07-09T02:00:00Z',
      previousAt: '2025-07-08T23:30:00-03:00',
    },
    {
      ...base,
      id: 'c2',
      field: 'screenshots.iphone',
      snapshotId: '2',
      detectedAt: '2025-07-09T02:00:00Z',
      previousAt: '2025-07-08T23:30:00-03:00',
    },
    {
      ...base,
      id: 'c4',
      field: 'subtitle',
      snapshotId: '4',
      detectedAt: '2025-08-01T00:00:00Z',
      previousAt: '2025-07-31T00:00:00Z',
    },
  ];

  it('groups listing changes by snapshot, newest first, and leaves the store figures out', () => {
    const events = impactEventsOfChanges(changes);
    expect(events.map((e) => e.id)).toEqual(['4', '2']);
    expect(events[1]).toMatchObject({
      fields: ['title', 'screenshots.iphone'],
      // 23:30 at UTC-3 is 02:30 UTC the next day.
      lastSeenBefore: '2025-07-09',
      firstSeenAfter: '2025-07-09',
    });
  });

  it('reads days in UTC', () => {
    expect(utcDay('2025-07-08T23:30:00-03:00')).toBe('2025-07-09');
    expect(() => utcDay('yesterday')).toThrow(RangeError);
  });
});
