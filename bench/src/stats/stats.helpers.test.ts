import { describe, expect, it } from 'vitest';
import { median, percentile, ratio, summarize } from './stats.helpers';

describe('percentile (nearest rank)', () => {
  it('returns observed values: p50, p95 and p99 of 1..100', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile(values, 0)).toBe(1);
  });

  it('with three runs, p95 is the slowest and the median the middle one', () => {
    expect(percentile([30, 10, 20], 95)).toBe(30);
    expect(median([30, 10, 20])).toBe(20);
    expect(median([4, 1, 3, 2])).toBe(2);
  });

  it('refuses an empty list and a percentile outside 0-100', () => {
    expect(() => percentile([], 50)).toThrow('percentile of an empty list');
    expect(() => percentile([1], 101)).toThrow('percentile 101 is outside 0-100');
  });
});

describe('summarize', () => {
  it('gives count, extremes, percentiles and mean', () => {
    expect(summarize([5, 1, 3])).toEqual({
      count: 3,
      min: 1,
      p50: 3,
      p95: 5,
      p99: 5,
      max: 5,
      mean: 3,
    });
  });
});

describe('ratio', () => {
  it('divides by the baseline and gives null for a zero or missing baseline', () => {
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(3, 0)).toBeNull();
    expect(ratio(Number.NaN, 2)).toBeNull();
  });
});
