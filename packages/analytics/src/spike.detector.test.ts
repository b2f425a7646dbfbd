import { describe, expect, it } from 'vitest';
import { detectSpike, type TSeriesPoint } from './spike.detector';

function series(values: number[]): TSeriesPoint[] {
  return values.map((value, i) => ({ date: `2025-07-${String(i + 1).padStart(2, '0')}`, value }));
}

describe('detectSpike (docs/product.md#dashboard-computation)', () => {
  it('needs at least 7 points', () => {
    // 6 points: the middle value is 4x the others, still nothing is judged.
    expect(detectSpike(series([10, 10, 10, 40, 10, 10]))).toBeNull();
    // 7 points: the middle one has a full window: 7 x 40 / 100 = 2.8x the average.
    const spike = detectSpike(series([10, 10, 10, 40, 10, 10, 10]));
    expect(spike).toMatchObject({ date: '2025-07-04', value: 40, type: 'spike' });
    expect(spike!.average).toBeCloseTo(100 / 7, 12);
    expect(spike!.magnitude).toBeCloseTo(180, 10);
    expect(spike!.notable).toBe(true);
  });

  it('does not flag exactly 1.5x the average (strict), but flags just above', () => {
    // window 11 x 6 + 18 = 84, average 12, 18 / 12 = 1.5 exactly.
    expect(detectSpike(series([11, 11, 11, 18, 11, 11, 11]))).toBeNull();
    // 19 / (85 / 7) = 1.5647...
    const spike = detectSpike(series([11, 11, 11, 19, 11, 11, 11]));
    expect(spike?.type).toBe('spike');
    expect(spike!.magnitude).toBeCloseTo((133 / 85 - 1) * 100, 10);
    expect(spike!.reported).toBe(true);
    expect(spike!.notable).toBe(false);
  });

  it('does not flag exactly 0.5x the average, but flags just below', () => {
    // window 13 x 6 + 6 = 84, average 12, 6 / 12 = 0.5 exactly.
    expect(detectSpike(series([13, 13, 13, 6, 13, 13, 13]))).toBeNull();
    const drop = detectSpike(series([13, 13, 13, 5, 13, 13, 13]));
    expect(drop?.type).toBe('drop');
    expect(drop!.magnitude).toBeCloseTo((1 - 35 / 83) * 100, 10);
  });

  it('reports a magnitude of exactly 100% but does not call it notable', () => {
    // 24 / (84 / 7) = 2 exactly.
    const spike = detectSpike(series([10, 10, 10, 24, 10, 10, 10]));
    expect(spike).toMatchObject({ type: 'spike', magnitude: 100, reported: true, notable: false });
    const above = detectSpike(series([10, 10, 10, 25, 10, 10, 10]));
    expect(above).toMatchObject({ reported: true, notable: true });
  });

  it('a drop to zero has magnitude 100% and is never notable', () => {
    const drop = detectSpike(series([10, 10, 10, 0, 10, 10, 10]));
    expect(drop).toMatchObject({ type: 'drop', value: 0, magnitude: 100, notable: false });
  });

  it('judges only points with a full window (first and last 3 never)', () => {
    // The 100 at the end is never judged; the point 3 before it sees it in its window.
    const result = detectSpike(series([10, 10, 10, 10, 10, 10, 10, 100]));
    expect(result?.date).not.toBe('2025-07-08');
    expect(result).toMatchObject({ date: '2025-07-05', type: 'drop' });
    expect(detectSpike(series([100, 100, 100, 100, 100, 100, 10]))).toBeNull();
  });

  it('keeps only the largest, the earliest on a tie', () => {
    const values = [10, 10, 10, 30, 10, 10, 10, 10, 10, 50, 10, 10, 10];
    expect(detectSpike(series(values))).toMatchObject({ date: '2025-07-10', value: 50 });
    const tie = [10, 10, 10, 30, 10, 10, 10, 10, 10, 30, 10, 10, 10];
    expect(detectSpike(series(tie))?.date).toBe('2025-07-04');
  });

  it('skips windows whose average is 0 and flat series', () => {
    expect(detectSpike(series([0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull();
    expect(detectSpike(series([5, 5, 5, 5, 5, 5, 5, 5]))).toBeNull();
  });
});
