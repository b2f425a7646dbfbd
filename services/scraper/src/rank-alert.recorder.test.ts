import { describe, expect, it } from 'vitest';
import type { TSearchAnswer } from '@aso/appstore/node';
import type { TKeywordReadPair, TKeywordTracker } from '@aso/db';
import { rankedIds, readJobKey } from './keyword.handler';
import { rankAlerts } from './rank-alert.recorder';

const tracker = (appId: string, userId = 'u1'): TKeywordTracker => ({
  trackId: `t-${userId}-${appId}`,
  userId,
  appId,
  storefront: 'us',
  watchItemId: null,
  role: null,
  appName: null,
  hasWebhook: false,
});

const ids = (n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) => String(1000 + i + offset));

const pair = (previousIds: string[] | null, appIds: string[]): TKeywordReadPair => ({
  readId: '7',
  termId: '3',
  term: 'music',
  storefront: 'us',
  source: 'itunes-search',
  readAt: new Date('2026-07-01T00:00:00Z'),
  appIds,
  previousIds,
});

/** Filler ids with each app placed at its 1-based rank (`total` ids in all). */
function order(placed: Record<string, number>, total = 200): string[] {
  const at = new Map(Object.entries(placed).map(([id, rank]) => [rank, id]));
  const filler = ids(total);
  return Array.from({ length: total }, (_, i) => at.get(i + 1) ?? filler[i]!);
}

const withApp = (appId: string, rank: number) => order({ [appId]: rank }, 60);

describe('rank alerts of a read', () => {
  it('keeps moves of the delta or more, into or out of the top 10, and out of the 200', () => {
    const trackers = [tracker('1'), tracker('2'), tracker('3'), tracker('4'), tracker('5')];
    const before = order({ '1': 14, '2': 9, '3': 30, '4': 150 });
    // 4 leaves the 200; 5 is absent both times.
    const after = order({ '1': 8, '2': 12, '3': 33 });
    const alerts = rankAlerts(pair(before, after), trackers, 5);
    expect(alerts.map((a) => [a.tracker.appId, a.move.from, a.move.to])).toEqual([
      ['1', 14, 8],
      ['2', 9, 12],
      ['4', 150, null],
    ]);
    expect(alerts[0]!.move).toEqual({
      trackId: 't-u1-1',
      term: 'music',
      storefront: 'us',
      from: 14,
      to: 8,
      source: 'itunes-search',
    });
  });

  it('alerts every tracker of the term, and nobody on a first read', () => {
    const trackers = [tracker('1', 'u1'), tracker('1', 'u2')];
    expect(rankAlerts(pair(null, withApp('1', 3)), trackers, 5)).toEqual([]);
    const alerts = rankAlerts(pair(withApp('1', 40), withApp('1', 3)), trackers, 5);
    expect(alerts.map((a) => a.tracker.userId)).toEqual(['u1', 'u2']);
  });

  it('follows the configured delta', () => {
    const p = pair(withApp('1', 40), withApp('1', 43));
    expect(rankAlerts(p, [tracker('1')], 5)).toEqual([]);
    expect(rankAlerts(p, [tracker('1')], 3)).toHaveLength(1);
  });
});

describe('a read as stored', () => {
  it('keeps the first 200 ids of an answer that carries more', () => {
    const answer: TSearchAnswer = {
      resultCount: 250,
      results: ids(250).map((appId) => ({
        appId,
        name: `App ${appId}`,
        developer: null,
        iconUrl: null,
        rating: null,
        ratingCount: null,
        releasedAt: null,
        updatedAt: null,
        genre: null,
      })),
    };
    const stored = rankedIds(answer);
    expect(stored).toHaveLength(200);
    expect(stored[0]).toBe('1000');
    expect(stored[199]).toBe('1199');
  });

  it('keys a read by its job id and creation time', () => {
    expect(readJobKey({ id: 'keyword:3:first', timestamp: 1_780_000_000_000 })).toBe(
      'keyword:3:first@1780000000000',
    );
  });
});
