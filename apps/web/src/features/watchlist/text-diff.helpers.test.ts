import { describe, expect, it } from 'vitest';
import { diffTexts } from './text-diff.helpers';

const marked = (segments: { text: string; changed: boolean }[]) =>
  segments.filter((s) => s.changed).map((s) => s.text.trim());
const whole = (segments: { text: string }[]) => segments.map((s) => s.text).join('');

describe('diffTexts', () => {
  it('marks removed words in before and added words in after, keeping both texts whole', () => {
    const d = diffTexts(
      'Habit tracker for daily goals',
      'Habit tracker for weekly goals & streaks',
    );
    expect(whole(d.before)).toBe('Habit tracker for daily goals');
    expect(whole(d.after)).toBe('Habit tracker for weekly goals & streaks');
    expect(marked(d.before)).toEqual(['daily']);
    expect(marked(d.after)).toEqual(expect.arrayContaining(['weekly']));
    expect(marked(d.after).join(' ')).toContain('streaks');
    expect(d.before.find((s) => s.text.includes('Habit'))?.changed).toBe(false);
  });

  it('treats null as empty text: everything is added or removed', () => {
    expect(diffTexts(null, 'New subtitle').after).toEqual([
      { text: 'New subtitle', changed: true },
    ]);
    expect(diffTexts('Old subtitle', null).before).toEqual([
      { text: 'Old subtitle', changed: true },
    ]);
  });

  it('splits Japanese text into words instead of marking the whole sentence', () => {
    const d = diffTexts('毎日の習慣を記録', '毎日の目標を記録', 'ja');
    expect(whole(d.after)).toBe('毎日の目標を記録');
    expect(marked(d.after).join('')).not.toBe('毎日の目標を記録');
    expect(marked(d.after).join('')).toContain('目標');
  });
});
