import { describe, expect, it } from 'vitest';
import { looksLikeDateRange, parsePreamble } from './preamble.parser';

describe('parsePreamble (docs/product.md#merging-exports)', () => {
  it('reads the key/value layout', () => {
    expect(
      parsePreamble([
        ['Name', 'Habit Tracker Pro'],
        ['Date Range', 'Jun 1, 2025 - Aug 31, 2025'],
        ['Territory', 'United States'],
        ['View', 'Conversion Rate'],
        [''],
      ]),
    ).toEqual({
      appName: 'Habit Tracker Pro',
      territory: 'United States',
      dateRange: 'Jun 1, 2025 - Aug 31, 2025',
      view: 'Conversion Rate',
    });
  });

  it('reads a first line that is the app name alone, then view and range', () => {
    expect(
      parsePreamble([
        ['Calm Notes: Journal & Mood'],
        ['Conversion Rate', 'Jul 20, 2025 - Aug 18, 2025'],
        ['Territory', 'United Kingdom'],
      ]),
    ).toEqual({
      appName: 'Calm Notes: Journal & Mood',
      territory: 'United Kingdom',
      dateRange: 'Jul 20, 2025 - Aug 18, 2025',
      view: 'Conversion Rate',
    });
  });

  it('joins cells that unquoted commas split', () => {
    expect(
      parsePreamble([
        ['Korea Tours', ' Guides'],
        ['Redownloads', 'Jul 20', '2025 - Aug 18', '2025'],
        ['Territory:', 'Korea', 'Republic of'],
      ]),
    ).toEqual({
      appName: 'Korea Tours, Guides',
      territory: 'Korea, Republic of',
      dateRange: 'Jul 20, 2025 - Aug 18, 2025',
      view: 'Redownloads',
    });
  });

  it('prefers an explicit Name row over the first line', () => {
    expect(parsePreamble([['Some Report'], ['App Name', 'Real App']]).appName).toBe('Real App');
  });

  it('reads "Key: value" single cells and ignores unknown rows', () => {
    expect(
      parsePreamble([
        [],
        ['App: Focus Timer'],
        ['Source Type', 'All'],
        ['Country or Region: France'],
      ]),
    ).toEqual({ appName: 'Focus Timer', territory: 'France', dateRange: null, view: null });
  });

  it('gives nulls for an empty preamble', () => {
    expect(parsePreamble([])).toEqual({
      appName: null,
      territory: null,
      dateRange: null,
      view: null,
    });
  });

  it('recognises date ranges', () => {
    expect(looksLikeDateRange('Jul 20, 2025 - Aug 18, 2025')).toBe(true);
    expect(looksLikeDateRange('6/1/25 - 8/31/25')).toBe(true);
    expect(looksLikeDateRange('2025-05-01 to 2025-05-07')).toBe(true);
    expect(looksLikeDateRange('Calm Notes: Journal & Mood')).toBe(false);
    expect(looksLikeDateRange('Jul 20, 2025')).toBe(false);
  });
});
