import { describe, expect, it } from 'vitest';
import { charCount, singular, utf8Bytes, words } from './text.helpers';

describe('text measures', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(charCount('Café 🎵')).toBe(6);
    expect('Café 🎵'.length).toBe(7);
  });
  it('counts UTF-8 bytes', () => {
    expect(utf8Bytes('abc')).toBe(3);
    expect(utf8Bytes('é')).toBe(2);
    expect(utf8Bytes('音')).toBe(3);
    expect(utf8Bytes('🎵')).toBe(4);
  });
  it('splits words on punctuation, lower-cased', () => {
    expect(words('Spotify: Music and Podcasts')).toEqual(['spotify', 'music', 'and', 'podcasts']);
    expect(words('Songs, Playlists & Audiobooks')).toEqual(['songs', 'playlists', 'audiobooks']);
    expect(words("Don't stop")).toEqual(["don't", 'stop']);
  });
  it.each([
    ['playlists', 'playlist'],
    ['stories', 'story'],
    ['matches', 'match'],
    ['boxes', 'box'],
    ['news', 'new'],
    ['bus', 'bus'],
    ['chess', 'chess'],
    ['gas', 'gas'],
    ['music', 'music'],
  ])('singular(%s) = %s', (w, s) => expect(singular(w)).toBe(s));
});
