import { describe, expect, it } from 'vitest';
import {
  checkSubtitle,
  checkTitle,
  subtitleSection,
  titleSection,
  wordsRepeatedInSubtitle,
} from './metadata.rules';
import { checkKeywordField, keywordCoverage, keywordsSection } from './keyword-field.rules';

const t30 = 'a'.repeat(30);
const t31 = 'a'.repeat(31);

describe('title and subtitle: 30 characters', () => {
  it('30 characters fit, 31 do not', () => {
    expect(checkTitle(t30)).toEqual({ used: 30, limit: 30, withinLimit: true, usagePct: 100 });
    expect(checkTitle(t31)).toMatchObject({ used: 31, withinLimit: false, usagePct: 100 });
    expect(checkSubtitle(t30).withinLimit).toBe(true);
    expect(checkSubtitle(t31).withinLimit).toBe(false);
  });
  it('multi-byte characters count once each', () => {
    expect(checkTitle('é'.repeat(30)).withinLimit).toBe(true);
    expect(checkTitle('🎵'.repeat(31)).withinLimit).toBe(false);
  });
  it('no subtitle uses 0 characters', () => {
    expect(checkSubtitle(null)).toMatchObject({ used: 0, withinLimit: true, usagePct: 0 });
  });
  it('title scores: 30 -> 100, 31 -> 20 with an improvement, short -> 50', () => {
    expect(titleSection(t30, null, '', []).score).toBe(100);
    const over = titleSection(t31, null, '', []);
    expect(over.score).toBe(20);
    expect(over.improvements[0]).toMatch(/at most 30 characters/);
    expect(titleSection('Short', null, '', []).score).toBe(50);
    expect(titleSection('Spotify: Music and Podcasts', null, '', [])).toMatchObject({
      used: 27,
      limit: 30,
      score: 100,
    });
  });
  it('title loses 15 when none of the user keywords is in it', () => {
    expect(titleSection(t30, null, 'music,radio', []).score).toBe(85);
    expect(titleSection('Radio Player FM Music Stations', null, 'music,radio', []).score).toBe(100);
  });
  it('title names words shared with competitors', () => {
    const s = titleSection('Spotify: Music and Podcasts', 'Songs, Playlists & Audiobooks', '', [
      { appName: 'Pandora: Music & Podcasts', subtitle: 'Radio' },
    ]);
    expect(s.analysis).toContain('Pandora: Music & Podcasts (music, podcast)');
  });
  it('subtitle: none -> 30; repeats of title words -> minus 10', () => {
    expect(subtitleSection('Spotify', null, '').score).toBe(30);
    expect(wordsRepeatedInSubtitle('Music Player', 'Play your music')).toEqual(['music']);
    const s = subtitleSection('Music Player Pro', 'Play your music everywhere now', '');
    expect(s.used).toBe(30);
    expect(s.score).toBe(90);
  });
});

describe('keyword field: 100 bytes', () => {
  it('100 ASCII bytes fit, 101 do not', () => {
    expect(checkKeywordField('a'.repeat(100), '', null)).toMatchObject({
      bytes: 100,
      withinLimit: true,
    });
    expect(checkKeywordField('a'.repeat(101), '', null)).toMatchObject({
      bytes: 101,
      withinLimit: false,
    });
  });
  it('multi-byte text: 50 x "é" is 100 bytes (fits), 34 x "音" is 102 bytes (does not) though only 34 characters', () => {
    expect(checkKeywordField('é'.repeat(50), '', null)).toMatchObject({
      bytes: 100,
      withinLimit: true,
    });
    const cjk = checkKeywordField('音'.repeat(34), '', null);
    expect(cjk).toMatchObject({ bytes: 102, withinLimit: false });
    expect(keywordsSection('音'.repeat(34), '', null).improvements[0]).toMatch(/100 bytes/);
  });
  it('flags spaces around commas and space separation', () => {
    expect(checkKeywordField('radio, podcast', '', null)).toMatchObject({
      separator: 'comma',
      spacesAroundCommas: true,
    });
    expect(checkKeywordField('radio,podcast', '', null)).toMatchObject({
      separator: 'comma',
      spacesAroundCommas: false,
      wastedBytes: 0,
    });
    expect(checkKeywordField('radio podcast', '', null).separator).toBe('space');
  });
  it('finds words repeated from title/subtitle, duplicates and plural duplicates', () => {
    const c = checkKeywordField(
      'music,radio,radio,playlist,playlists,songs',
      'Spotify: Music',
      'Songs & more',
    );
    expect(c.repeatedFromTitleOrSubtitle).toEqual(['music', 'songs']);
    expect(c.duplicates).toEqual(['radio']);
    expect(c.pluralDuplicates).toEqual([['playlist', 'playlists']]);
    // music, (1) + songs, (1) + duplicate radio, + playlists,
    expect(c.wastedBytes).toBe(6 + 6 + 6 + 10);
  });
  it('nothing entered: not judged, confidence low and says so', () => {
    const s = keywordsSection('', 'Spotify', null);
    expect(s.confidence).toBe('low');
    expect(s.analysis).toMatch(/no keyword text was entered/);
    expect(checkKeywordField(undefined, 'x', null).entered).toBe(false);
  });
  it('a clean, full field scores 100 with medium confidence', () => {
    const text =
      'radio,podcast,audiobook,stream,offline,playlist,album,artist,lyrics,concert,hits,charts,dj,mix';
    expect(text.length).toBeGreaterThanOrEqual(80);
    const s = keywordsSection(text, 'Spotify', null);
    expect(s).toMatchObject({ score: 100, confidence: 'medium', used: text.length, limit: 100 });
  });
});

describe('keyword coverage in title/subtitle', () => {
  it('finds terms in the title, in the subtitle and missing', () => {
    const c = keywordCoverage(
      'music,podcast,audiobooks,radio',
      'Spotify: Music and Podcasts',
      'Songs, Playlists & Audiobooks',
    );
    expect(c).toEqual({
      terms: ['music', 'podcast', 'audiobooks', 'radio'],
      inTitle: ['music', 'podcast'],
      inSubtitle: ['audiobooks'],
      missing: ['radio'],
      coveragePct: 75,
    });
  });
  it('empty input covers nothing', () => {
    expect(keywordCoverage('', 'x', null).coveragePct).toBe(0);
  });
});
