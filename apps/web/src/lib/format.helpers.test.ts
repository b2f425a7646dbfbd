import { describe, expect, it } from 'vitest';
import {
  charCount,
  formatDuration,
  formatElapsed,
  formatRating,
  previewText,
  starFills,
} from './format.helpers';

describe('formatElapsed (minutes and seconds in words)', () => {
  it('writes seconds alone under a minute, then minutes and seconds', () => {
    expect(formatElapsed(0)).toBe('0 s');
    expect(formatElapsed(999)).toBe('0 s');
    expect(formatElapsed(25_400)).toBe('25 s');
    expect(formatElapsed(85_000)).toBe('1 min 25 s');
    expect(formatElapsed(120_000)).toBe('2 min 0 s');
    expect(formatElapsed(75 * 60_000)).toBe('75 min 0 s');
  });
  it('treats negative input as zero', () => {
    expect(formatElapsed(-5)).toBe('0 s');
  });
});

describe('formatDuration', () => {
  it('writes minutes and seconds', () => {
    expect(formatDuration(0)).toBe('0 min');
    expect(formatDuration(60_000)).toBe('1 min');
    expect(formatDuration(220_000)).toBe('3 min 40 sec');
    expect(formatDuration(45_000)).toBe('45 sec');
    expect(formatDuration(400)).toBe('under 1 sec');
  });
});

describe('starFills and formatRating', () => {
  it('fills whole stars and a fractional last one', () => {
    expect(starFills('4.78')).toEqual([1, 1, 1, 1, 0.78]);
    expect(starFills(3)).toEqual([1, 1, 1, 0, 0]);
  });
  it('clamps and handles unparsable ratings', () => {
    expect(starFills('7')).toEqual([1, 1, 1, 1, 1]);
    expect(starFills('n/a')).toEqual([0, 0, 0, 0, 0]);
    expect(formatRating('4.78')).toBe('4.8');
    expect(formatRating(null)).toBe('–');
  });
});

describe('previewText (Read more beyond 300 characters)', () => {
  it('keeps a text of at most 300 characters whole', () => {
    const text = 'a'.repeat(300);
    expect(previewText(text)).toEqual({ text, truncated: false });
  });
  it('cuts a longer text at 300 characters and marks it truncated', () => {
    const result = previewText(`${'b'.repeat(299)} tail`);
    expect(result.truncated).toBe(true);
    expect(result.text).toBe(`${'b'.repeat(299)}…`);
  });
  it('counts an emoji as one character', () => {
    expect(charCount('🎵 Music')).toBe(7);
    expect(previewText('🎵'.repeat(301)).text).toBe(`${'🎵'.repeat(300)}…`);
  });
});
