import { describe, expect, it } from 'vitest';
import { changeFlag, comparePeriods, percentChange } from './period-change.calculator';
import { toPeriodMetrics } from './metrics.calculator';

describe('percentChange (docs/product.md#dashboard-computation)', () => {
  it('is (current - previous) / previous x 100', () => {
    expect(percentChange(150, 100)).toBe(50);
    expect(percentChange(75, 100)).toBe(-25);
    expect(percentChange(103, 100)).toBe(3);
  });

  it('is 0 when the previous value is 0', () => {
    expect(percentChange(500, 0)).toBe(0);
    expect(percentChange(0, 0)).toBe(0);
  });
});

describe('changeFlag (docs/product.md#dashboard-computation: Up/Down at 3% or more)', () => {
  it.each([
    [10300, 10000, 'Up'],
    [10299, 10000, 'Stable'],
    [9700, 10000, 'Down'],
    [9701, 10000, 'Stable'],
    [10000, 10000, 'Stable'],
    [5, 0, 'Stable'],
  ] as const)('%d against %d is %s', (current, previous, flag) => {
    expect(changeFlag(percentChange(current, previous))).toBe(flag);
  });

  it('compares the unrounded change: 2.995% is Stable though shown as 3.0%', () => {
    expect(changeFlag(2.995)).toBe('Stable');
    expect(changeFlag(-2.995)).toBe('Stable');
    expect(changeFlag(3)).toBe('Up');
    expect(changeFlag(-3)).toBe('Down');
    expect(changeFlag(2.99)).toBe('Stable');
  });
});

describe('comparePeriods', () => {
  it('compares every metric, rates as relative changes', () => {
    const current = toPeriodMetrics({
      firstTimeDownloads: 50,
      redownloads: 10,
      totalDownloads: 60,
      impressions: 1000,
    });
    const previous = toPeriodMetrics({
      firstTimeDownloads: 40,
      redownloads: 10,
      totalDownloads: 50,
      impressions: 1000,
    });
    const c = comparePeriods(current, previous);
    expect(c.current.conversionRate).toBe(5);
    expect(c.previous.conversionRate).toBe(4);
    expect(c.changes.firstTimeDownloads).toBe(25);
    expect(c.changes.redownloads).toBe(0);
    expect(c.changes.conversionRate).toBe(25);
    expect(c.changes.appleConversionRate).toBe(20);
    expect(c.flags).toEqual({
      firstTimeDownloads: 'Up',
      redownloads: 'Stable',
      totalDownloads: 'Up',
      impressions: 'Stable',
      conversionRate: 'Up',
      appleConversionRate: 'Up',
    });
  });
});
