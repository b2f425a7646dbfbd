import type { TKeywordRanks, TListingChange } from '@aso/contracts';
import { describe, expect, it } from 'vitest';
import {
  CHARTED_TERMS_MAX,
  buildKeywordRanksOption,
  chartedTerms,
  listingChangeMarks,
  movesAround,
  ranksRange,
  termColor,
} from './timeline-ranks.chart';

const DAY = 86_400_000;
const at = (day: number) => new Date(Date.UTC(2026, 5, day, 10)).toISOString();

/** A term's rank history (constructed): one read a day from June 1st. */
function term(name: string, ranks: (number | null)[]): TKeywordRanks['terms'][number] {
  return {
    trackId: '00000000-0000-4000-8000-000000000001',
    term: name,
    bestRank: null,
    points: ranks.map((rank, i) => ({ checkedAt: at(i + 1), rank, source: 'itunes-search' })),
    truncated: false,
  };
}

/** A listing change found on `day`, the read before on `day - 1` (constructed). */
function change(field: TListingChange['field'], day: number, snapshotId: string): TListingChange {
  return {
    id: `${snapshotId}-${field}`,
    field,
    before: 'a',
    after: 'b',
    detectedAt: at(day),
    previousAt: at(day - 1),
    snapshotId,
    previousSnapshotId: 'p',
  } as TListingChange;
}

describe('ranksRange', () => {
  it("asks from the timeline's first read to now, at most 400 days", () => {
    const now = Date.UTC(2026, 11, 1);
    expect(ranksRange('2026-11-01T00:00:00.000Z', now)).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
    });
    expect(Date.parse(ranksRange('2020-01-01T00:00:00.000Z', now).from)).toBe(now - 399 * DAY);
    expect(Date.parse(ranksRange(null, now).from)).toBe(now - 90 * DAY);
  });
});

describe('chartedTerms', () => {
  it('charts the best-ranked terms that ranked at all, at most 8', () => {
    const terms = [
      term('never', [null, null]),
      term('low', [150, 120]),
      term('top', [5, 1]),
      ...Array.from({ length: 9 }, (_, i) => term(`t${i}`, [20 + i])),
    ];
    const charted = chartedTerms(terms).map((t) => t.term);
    expect(charted).toHaveLength(CHARTED_TERMS_MAX);
    expect(charted[0]).toBe('top');
    expect(charted).not.toContain('never');
    expect(charted).not.toContain('low');
  });
});

describe('listingChangeMarks and the chart', () => {
  const changes = [
    change('subtitle', 4, 's4'),
    change('title', 4, 's4'),
    change('rating', 5, 's5'),
    change('screenshots.iphone', 7, 's7'),
  ];

  it('marks each read that found listing changes, not store figures', () => {
    expect(listingChangeMarks(changes)).toEqual([
      { at: Date.parse(at(4)), label: 'Subtitle, Title' },
      { at: Date.parse(at(7)), label: 'Screenshots (iPhone)' },
    ]);
  });

  it('draws one line per term over the range, #1 on top, the changes marked', () => {
    const option = buildKeywordRanksOption(
      { from: at(1), to: at(10), terms: [term('music', [12, null, 9, 3])] },
      changes,
    );
    const series = option.series as {
      name: string;
      data: [number, number | null][];
      markLine?: { data: { xAxis: number }[] };
    }[];
    expect(series).toHaveLength(1);
    expect(series[0]!.name).toBe('music');
    expect(series[0]!.data[1]).toEqual([Date.parse(at(2)), null]);
    expect(series[0]!.markLine!.data.map((d) => d.xAxis)).toEqual([
      Date.parse(at(4)),
      Date.parse(at(7)),
    ]);
    expect(option.xAxis).toMatchObject({ min: Date.parse(at(1)), max: Date.parse(at(10)) });
    expect(option.yAxis).toMatchObject({ inverse: true, min: 1, max: 20 });
    expect(Object.keys(option)).not.toContain('legend');
  });

  it('leaves out the terms hidden from the legend, each term keeping its colour and the axis', () => {
    const changes = [change('title', 4, 's1')];
    const ranks = {
      from: at(1),
      to: at(10),
      terms: [term('music', [3, 2]), term('photo', [45, 40]), term('video', [8, 9])],
    };
    const all = buildKeywordRanksOption(ranks, changes).series as { name: string; color: string }[];
    // Charted best ranked first: music, video, photo.
    expect(all.map((s) => [s.name, s.color])).toEqual([
      ['music', termColor(0)],
      ['video', termColor(1)],
      ['photo', termColor(2)],
    ]);
    const option = buildKeywordRanksOption(ranks, changes, new Set(['music', 'photo']));
    const series = option.series as { name: string; color: string; markLine?: unknown }[];
    expect(series.map((s) => [s.name, s.color])).toEqual([['video', termColor(1)]]);
    // The changes stay marked, on the first term drawn; the axis still reaches #50.
    expect(series[0]!.markLine).toBeDefined();
    expect(option.yAxis).toMatchObject({ max: 50 });
  });
});

describe('movesAround', () => {
  it('compares the read before the change with the last one of the week after', () => {
    const terms = [
      term('music', [12, 12, 12, 9, 5, 3]),
      term('photo', [40, 40, 40, 40, 40, 40]),
      term('video', [null, null, null, 150, 90, 80]),
      term('late', [null, null]),
    ];
    // Changed between the reads of June 3rd and 4th.
    expect(movesAround(terms, { previousAt: at(3), detectedAt: at(4) })).toEqual([
      { term: 'video', before: null, after: 80 },
      { term: 'music', before: 12, after: 3 },
    ]);
    expect(movesAround(terms, { previousAt: at(3), detectedAt: at(4) }, 1)).toHaveLength(1);
  });
});
