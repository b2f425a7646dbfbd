import { describe, expect, it } from 'vitest';
import { isRankAlert, normalizeTerm, rankLabel, splitTermList, termProblem } from './keywords';

describe('normalizeTerm', () => {
  it('trims, joins white space and lower-cases with the storefront language', () => {
    expect(normalizeTerm('  Focus \t  TIMER ', 'us')).toBe('focus timer');
    // Turkish dotted and dotless I.
    expect(normalizeTerm('İSTANBUL Işık', 'tr')).toBe('istanbul ışık');
    expect(normalizeTerm('ISTANBUL', 'tr')).toBe('ıstanbul');
    expect(normalizeTerm('ISTANBUL', 'us')).toBe('istanbul');
    // Lithuanian keeps the dot above when an accent follows (SpecialCasing).
    expect(normalizeTerm('Ì', 'lt')).toBe('i̇̀');
    expect(normalizeTerm('Straße', 'de')).toBe('straße');
    // NFC: a decomposed é is the same term as a composed one.
    expect(normalizeTerm('Cafe\u0301', 'fr')).toBe(normalizeTerm('Café', 'fr'));
  });

  it('names what is wrong with a term', () => {
    expect(termProblem('')).toBe('is empty');
    expect(termProblem('x'.repeat(101))).toBe('is longer than 100 characters');
    expect(termProblem('x'.repeat(100))).toBeNull();
    expect(termProblem('a\u0007b')).toBe('holds a control character');
  });

  it('splits a pasted list on commas and new lines', () => {
    expect(splitTermList('music, podcasts\nfocus timer\r\n,, ')).toEqual([
      'music',
      'podcasts',
      'focus timer',
    ]);
  });
});

describe('isRankAlert', () => {
  it('alerts on moves of the delta or more, either way', () => {
    expect(isRankAlert(14, 8, 5)).toBe(true);
    expect(isRankAlert(30, 35, 5)).toBe(true);
    expect(isRankAlert(30, 34, 5)).toBe(false);
    expect(isRankAlert(30, 30, 5)).toBe(false);
  });

  it('alerts on entering or leaving the top 10 by any amount', () => {
    expect(isRankAlert(11, 10, 5)).toBe(true);
    expect(isRankAlert(10, 11, 5)).toBe(true);
    expect(isRankAlert(3, 7, 5)).toBe(false);
  });

  it('counts an absent rank as position 201', () => {
    expect(isRankAlert(null, 197, 5)).toBe(false);
    expect(isRankAlert(null, 196, 5)).toBe(true);
    expect(isRankAlert(180, null, 5)).toBe(true);
    expect(isRankAlert(null, null, 5)).toBe(false);
  });

  it('words a rank', () => {
    expect(rankLabel(8)).toBe('#8');
    expect(rankLabel(null)).toBe('not in the top 200');
  });
});
