import { describe, expect, it } from 'vitest';
import { parseSearchAnswer, rankOf } from './search.parser';

const app = (trackId: number | string, kind = 'software', extra: Record<string, unknown> = {}) => ({
  wrapperType: 'software',
  kind,
  trackId,
  trackName: `App ${trackId}`,
  artistName: 'Dev',
  ...extra,
});
const answer = (results: unknown[]) =>
  `\n\n\n${JSON.stringify({ resultCount: results.length, results })}\n`;

describe('parseSearchAnswer and rankOf', () => {
  it('ranks an app by its 1-based position among the iOS apps', () => {
    const parsed = parseSearchAnswer(answer([app(11), app(22), app(33)]));
    const ids = parsed.results.map((r) => r.appId);
    expect(ids).toEqual(['11', '22', '33']);
    expect(rankOf(ids, '22')).toBe(2);
    expect(rankOf(ids, '11')).toBe(1);
  });

  it('answers null for an app that is absent, and for an empty answer', () => {
    expect(
      rankOf(
        parseSearchAnswer(answer([app(11)])).results.map((r) => r.appId),
        '99',
      ),
    ).toBeNull();
    const empty = parseSearchAnswer('\n\n\n{"resultCount":0,"results":[]}\n');
    expect(empty).toEqual({ resultCount: 0, results: [] });
    expect(rankOf([], '11')).toBeNull();
  });

  it('keeps the first position of an app listed twice, without pushing the apps after it down', () => {
    const ids = parseSearchAnswer(answer([app(11), app(22), app(11), app(33)])).results.map(
      (r) => r.appId,
    );
    expect(ids).toEqual(['11', '22', '33']);
    expect(rankOf(ids, '33')).toBe(3);
  });

  it('skips other entity kinds and entries without a numeric trackId: they take no position', () => {
    const parsed = parseSearchAnswer(
      answer([
        app(1, 'mac-software'),
        { wrapperType: 'artist', artistId: 5 },
        app(2, 'software-bundle'),
        app('x12'),
        app(44),
        { kind: 'song', trackId: 9 },
        app(55),
      ]),
    );
    expect(parsed.resultCount).toBe(7);
    expect(parsed.results.map((r) => r.appId)).toEqual(['44', '55']);
  });

  it('reads the research fields of a result', () => {
    const [r] = parseSearchAnswer(
      answer([
        app(7, 'software', {
          trackName: 'Focus &amp; Timer',
          averageUserRating: 4.61,
          userRatingCount: 1234,
          releaseDate: '2019-05-01T07:00:00Z',
          currentVersionReleaseDate: '2026-01-02T08:00:00Z',
          artworkUrl100: 'https://example.com/a.png',
          primaryGenreName: 'Productivity',
        }),
      ]),
    ).results;
    expect(r).toEqual({
      appId: '7',
      name: 'Focus & Timer',
      developer: 'Dev',
      iconUrl: 'https://example.com/a.png',
      rating: 4.61,
      ratingCount: 1234,
      releasedAt: '2019-05-01T07:00:00.000Z',
      updatedAt: '2026-01-02T08:00:00.000Z',
      genre: 'Productivity',
    });
  });

  it('throws on a body that is not a search answer', () => {
    expect(() => parseSearchAnswer('<html>')).toThrow();
    expect(() => parseSearchAnswer('{"results": 3}')).toThrow(/results/);
  });
});
