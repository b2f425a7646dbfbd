import type { TKeywordGap, TKeywordItem } from '@aso/contracts';
import { describe, expect, it } from 'vitest';
import {
  changeOf,
  checkPastedTerms,
  compareRanks,
  formatClock,
  gapLeader,
  keywordPollMs,
  QUEUED_POLL_MS,
  rankState,
  readErrorInWords,
  refusedTerm,
  sortGapRows,
  sortKeywordItems,
  sparkline,
  sparklineLabel,
  THROTTLED_POLL_MS,
  topCompetitor,
} from './keywords.helpers';

/** A tracked term as the list answers it (constructed). */
function item(over: Partial<TKeywordItem> & { term: string }): TKeywordItem {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    appId: '389801252',
    storefront: 'us',
    rank: null,
    previousRank: null,
    bestRank: null,
    change7d: null,
    checkedAt: '2026-06-01T10:00:00.000Z',
    nextReadAt: '2026-06-02T10:00:00.000Z',
    resultCount: 60,
    source: 'itunes-search',
    lastError: null,
    throttledUntil: null,
    competitors: [],
    popularity: null,
    difficulty: null,
    recent: [],
    createdAt: '2026-05-01T10:00:00.000Z',
    ...over,
  };
}

describe('rankState (docs/product.md#keywords)', () => {
  it('tells every state of a read apart, throttling and failures first', () => {
    expect(rankState(item({ term: 'a', rank: 3 }))).toEqual({ kind: 'ranked', rank: 3 });
    expect(rankState(item({ term: 'a' }))).toEqual({ kind: 'unranked' });
    expect(rankState(item({ term: 'a', checkedAt: null }))).toEqual({
      kind: 'queued',
      expectedBy: '2026-06-02T10:00:00.000Z',
    });
    expect(
      rankState(item({ term: 'a', rank: 4, throttledUntil: '2026-06-01T14:05:00.000Z' })),
    ).toEqual({ kind: 'throttled', until: '2026-06-01T14:05:00.000Z', rank: 4 });
    // A never-read term whose first read failed is an error, not "queued".
    expect(rankState(item({ term: 'a', checkedAt: null, lastError: 'timed out' }))).toEqual({
      kind: 'error',
      error: 'timed out',
      rank: null,
    });
  });
});

describe('formatClock', () => {
  it('gives the 24-hour time today and the day before it otherwise', () => {
    const now = new Date(2026, 5, 1, 9, 0);
    expect(formatClock(new Date(2026, 5, 1, 14, 5).toISOString(), now)).toBe('14:05');
    expect(formatClock(new Date(2026, 5, 2, 0, 7).toISOString(), now)).toBe('Jun 2, 00:07');
    expect(formatClock('soon', now)).toBe('soon');
  });
});

describe('readErrorInWords', () => {
  it("turns the store client's and the scraper's messages into what happened", () => {
    expect(
      readErrorInWords('The store is throttling search reads (HTTP 403); next read after a pause'),
    ).toBe(
      'The App Store is limiting search reads (HTTP 403); the read is tried again after a pause.',
    );
    expect(
      readErrorInWords(
        'Request to https://itunes.apple.com/search?term=x timed out after 15000 ms',
      ),
    ).toBe('The App Store did not answer in time; the term is read again at its next round.');
    expect(readErrorInWords('The App Store answered HTTP 500 for https://x/search')).toBe(
      'The App Store answered with an error (HTTP 500); the term is read again at its next round.',
    );
    expect(readErrorInWords('Malformed iTunes search JSON from https://x/search: bad')).toMatch(
      /could not be read/,
    );
    expect(readErrorInWords('Could not reach https://x/search: getaddrinfo ENOTFOUND x')).toMatch(
      /could not be reached/,
    );
    // Unknown: shown, without its URLs.
    expect(readErrorInWords('Something odd at https://x/search?term=a')).toBe(
      'Something odd at the store',
    );
  });
});

describe('changeOf and topCompetitor', () => {
  it('words the 7-day move with its direction', () => {
    expect(changeOf(3)).toEqual({ direction: 'up', text: 'up 3' });
    expect(changeOf(-12)).toEqual({ direction: 'down', text: 'down 12' });
    expect(changeOf(0)).toEqual({ direction: 'same', text: 'no change' });
    expect(changeOf(null)).toEqual({ direction: 'unknown', text: 'not known yet' });
  });

  it('picks the best-ranked competitor of the read, none when none ranks', () => {
    const competitors = [
      { appId: '1', appName: 'A', rank: 12 },
      { appId: '2', appName: 'B', rank: null },
      { appId: '3', appName: 'C', rank: 7 },
    ];
    expect(topCompetitor({ competitors })).toEqual({ appId: '3', appName: 'C', rank: 7 });
    expect(topCompetitor({ competitors: [competitors[1]!] })).toBeNull();
  });
});

describe('checkPastedTerms and refusedTerm', () => {
  it('splits on commas and new lines, normalises, merges and names what cannot be tracked', () => {
    const long = 'x'.repeat(101);
    const check = checkPastedTerms(
      ` Photo  Sharing ,music\n\nphoto sharing\r\nİstanbul, ${long}, short videos`,
      'tr',
      new Set(['short videos']),
    );
    expect(check.terms).toEqual(['photo sharing', 'music', 'istanbul']);
    expect(check.alreadyTracked).toEqual(['short videos']);
    expect(check.problems).toEqual([
      { term: `${'x'.repeat(40)}…`, problem: 'is longer than 100 characters' },
    ]);
  });

  it('reads the term a 400 names, and nothing from another refusal', () => {
    expect(refusedTerm('terms: "bad\tterm" holds a control character')).toEqual({
      term: 'bad\tterm',
      problem: 'holds a control character',
    });
    expect(refusedTerm('terms: at most 100 terms per app and storefront')).toBeNull();
  });
});

describe('sorting the table and the gap matrix', () => {
  const items = [
    item({ term: 'b', rank: 9, popularity: { value: 40, label: 'estimate', signals: [] } }),
    item({ term: 'a', rank: null }),
    item({ term: 'c', rank: 2, popularity: { value: 70, label: 'estimate', signals: [] } }),
  ];

  it('sorts ranks best first, a missing rank last in either direction', () => {
    expect(sortKeywordItems(items, { key: 'rank', dir: 'asc' }).map((i) => i.term)).toEqual([
      'c',
      'b',
      'a',
    ]);
    expect(sortKeywordItems(items, { key: 'rank', dir: 'desc' }).map((i) => i.term)).toEqual([
      'b',
      'c',
      'a',
    ]);
    expect(sortKeywordItems(items, { key: 'popularity', dir: 'desc' }).map((i) => i.term)).toEqual([
      'c',
      'b',
      'a',
    ]);
    expect(sortKeywordItems(items, { key: 'term', dir: 'desc' }).map((i) => i.term)).toEqual([
      'c',
      'b',
      'a',
    ]);
    expect(compareRanks(null, null, 'asc')).toBe(0);
  });

  const rows: TKeywordGap['rows'] = [
    { term: 'photo sharing', tracked: true, ranks: [3, 7, null], gap: false },
    { term: 'music', tracked: true, ranks: [null, null, 2], gap: true },
    { term: 'short videos', tracked: true, ranks: [4, 1, null], gap: false },
  ];

  it('sorts gap rows flagged first, by term, or by one app', () => {
    expect(sortGapRows(rows, { key: 'gap', dir: 'asc' }).map((r) => r.term)).toEqual([
      'music',
      'photo sharing',
      'short videos',
    ]);
    expect(sortGapRows(rows, { key: 'app-1', dir: 'asc' }).map((r) => r.term)).toEqual([
      'short videos',
      'photo sharing',
      'music',
    ]);
    expect(sortGapRows(rows, { key: 'term', dir: 'asc' }).map((r) => r.term)).toEqual([
      'music',
      'photo sharing',
      'short videos',
    ]);
  });

  it("names the competitor that makes a gap, never the app's own column", () => {
    expect(gapLeader(rows[1]!, 10)).toEqual({ index: 2, rank: 2 });
    expect(gapLeader({ ranks: [1, 40] }, 10)).toBeNull();
  });
});

describe('keywordPollMs', () => {
  it('polls fast while a read is queued or a refresh runs, slowly while throttled', () => {
    const now = 1_000_000;
    expect(keywordPollMs([item({ term: 'a', checkedAt: null })], null, now)).toBe(QUEUED_POLL_MS);
    expect(
      keywordPollMs([item({ term: 'a', throttledUntil: '2026-06-01T14:05:00.000Z' })], null, now),
    ).toBe(THROTTLED_POLL_MS);
    expect(keywordPollMs([item({ term: 'a', rank: 3 })], null, now)).toBe(false);
    expect(keywordPollMs([item({ term: 'a', rank: 3 })], now + 1, now)).toBe(QUEUED_POLL_MS);
    expect(keywordPollMs([item({ term: 'a', rank: 3 })], now - 1, now)).toBe(false);
    expect(keywordPollMs(undefined, null, now)).toBe(false);
  });
});

describe('sparkline', () => {
  it('puts the best rank at the top, breaks the line where the app was not ranked', () => {
    const line = sparkline([{ rank: 10 }, { rank: 2 }, { rank: null }, { rank: 6 }], 32, 12, 2);
    // x every (32 - 4) / 3 px; y from #2 (top, 2) to #10 (bottom, 10).
    expect(line.segments).toEqual(['2,10 11.3,2', '30,6']);
    expect(line.unranked).toEqual([20.7]);
    expect(line.last).toEqual({ x: 30, y: 6 });
    expect(sparkline([{ rank: 5 }, { rank: 5 }], 20, 10).segments).toEqual(['2,5 18,5']);
  });

  it('says what it shows', () => {
    expect(sparklineLabel([{ rank: 8 }, { rank: null }, { rank: 3 }])).toBe(
      'Rank over the last 3 reads: from #8 to #3, best #3',
    );
    expect(sparklineLabel([{ rank: null }])).toBe('Not in the top 200 in the last 1 read');
  });
});
