import { describe, expect, it } from 'vitest';
import {
  charCount,
  formatDuration,
  formatElapsed,
  formatRating,
  previewText,
  starFills,
} from './format.helpers';

describe('formatElapsed (mm:ss:ms, hundredths)', () => {
  it('formats minutes, seconds and hundredths with two digits each', () => {
    expect(formatElapsed(0)).toBe('00:00:00');
    expect(formatElapsed(100)).toBe('00:00:10');
    expect(formatElapsed(61_230)).toBe('01:01:23');
    expect(formatElapsed(75 * 60_000)).toBe('75:00:00');
  });
  it('treats negative input as zero', () => {
    expect(formatElapsed(-5)).toBe('00:00:00');
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
