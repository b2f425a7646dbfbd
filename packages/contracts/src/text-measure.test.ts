import { describe, expect, it } from 'vitest';
import { graphemeCount, utf8ByteLength } from './text-measure';

describe('graphemeCount: characters as the storefront shows them', () => {
  it.each([
    ['Spotify: Music and Podcasts', 27],
    // Japanese: kana and kanji count one each.
    ['フローティング時計', 9],
    ['ミリ秒タイマー・ウィジェット', 14],
    // Korean: precomposed Hangul syllables, and the same syllables as conjoining jamo.
    ['플로팅 시계-특가 도우미', 13],
    ['\u1112\u1161\u11ab\u1100\u1173\u11af', 2],
    // Turkish: dotted and dotless i, and an accent written as a combining mark.
    ['Türkçe İçerik ıı', 16],
    ['Cafe\u0301', 4],
    // Emoji: a ZWJ family, a flag and a skin tone each count once.
    ['Family 👩‍👩‍👧', 8],
    ['🇯🇵 Japan', 7],
    ['👍🏽', 1],
  ])('%j has %i characters', (text, count) => {
    expect(graphemeCount(text)).toBe(count);
  });

  it('differs from UTF-16 length and from code points where it matters', () => {
    const family = '👩‍👩‍👧';
    expect(family.length).toBe(8);
    expect([...family].length).toBe(5);
    expect(graphemeCount(family)).toBe(1);
  });
});

describe('utf8ByteLength: the keyword field unit', () => {
  it.each([
    ['music,podcast', 13],
    // Japanese and Korean: 3 bytes per character.
    ['音楽,ポッドキャスト', 28],
    ['음악,팟캐스트', 19],
    // Turkish letters outside ASCII take 2 bytes.
    ['müzik,şarkı', 14],
    // Emoji: 4 bytes per code point, 18 for a ZWJ family of three.
    ['🎵', 4],
    ['👩‍👩‍👧', 18],
  ])('%j is %i bytes', (text, bytes) => {
    expect(utf8ByteLength(text)).toBe(bytes);
  });
});
