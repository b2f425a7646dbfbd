import { describe, expect, it } from 'vitest';
import { FULL_SIZES, SMOKE_SIZES } from './bench.context';
import { applySizeOverrides, SizeOverrideError, sizeNames } from './size-overrides';

describe('applySizeOverrides', () => {
  it('sets the named sizes and leaves every other one as it was', () => {
    const sizes = applySizeOverrides(FULL_SIZES, [
      'sse.clients=3000',
      'sse.audits=12',
      'csv.realYears=5',
      'reads.pageConnections=64',
    ]);
    expect(sizes.sse).toEqual({ ...FULL_SIZES.sse, clients: 3000, audits: 12 });
    expect(sizes.csv).toEqual({ ...FULL_SIZES.csv, realYears: 5 });
    expect(sizes.reads.pageConnections).toBe(64);
    expect(sizes.throughput).toEqual(FULL_SIZES.throughput);
    // The defaults themselves are untouched.
    expect(FULL_SIZES.sse.clients).toBe(2000);
  });

  it('takes lists for list sizes, and clears the exact row counts with csv.bytes', () => {
    const sizes = applySizeOverrides(SMOKE_SIZES, [
      'csv.bytes=2000000,8000000',
      'audit.delaysMs=0,500',
    ]);
    expect(sizes.csv.bytes).toEqual([2_000_000, 8_000_000]);
    expect(sizes.csv.rows).toBeUndefined();
    expect(sizes.audit.delaysMs).toEqual([0, 500]);
  });

  it('lets a store delay be 0 but no count', () => {
    expect(applySizeOverrides(FULL_SIZES, ['sse.delayMs=0']).sse.delayMs).toBe(0);
    expect(() => applySizeOverrides(FULL_SIZES, ['sse.clients=0'])).toThrow(
      'sse.clients takes a whole number of at least 1',
    );
  });

  it('refuses an unknown name, listing the known ones', () => {
    let error: unknown;
    try {
      applySizeOverrides(FULL_SIZES, ['sse.streams=3000']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SizeOverrideError);
    expect((error as Error).message).toMatch(
      /^--size sse\.streams=3000: no size named sse\.streams; known: /,
    );
    expect((error as Error).message).toContain('sse.clients');
  });

  it.each([
    ['sse.clients', 'expected <benchmark>.<size>=<value>'],
    ['=3000', 'expected <benchmark>.<size>=<value>'],
    ['sse.clients=3k', 'takes a whole number'],
    ['sse.clients=2.5', 'takes a whole number'],
    ['sse.clients=-1', 'takes a whole number'],
    ['csv.bytes=1000,', 'comma-separated list'],
  ])('refuses %s', (assignment, message) => {
    expect(() => applySizeOverrides(FULL_SIZES, [assignment])).toThrow(message);
  });
});

describe('sizeNames', () => {
  it('names every numeric size of every benchmark', () => {
    const names = sizeNames(FULL_SIZES);
    expect(names).toContain('sse.clients');
    expect(names).toContain('csv.bytes');
    expect(names).toContain('keywords.windowMs');
    expect(names).not.toContain('csv.rows');
  });
});
