import { graphemeCount, utf8ByteLength } from '@aso/contracts';

/**
 * Text measures shared by the rules: characters, UTF-8 bytes and the words Apple's search
 * indexes.
 */

/**
 * Length in characters as the storefront shows them: grapheme clusters, so a CJK character, an
 * accented letter and an emoji sequence each count once (see `graphemeCount` of
 * @aso/contracts: the one measure of the app name and subtitle limits).
 */
export function charCount(text: string): number {
  return graphemeCount(text);
}

/** Size of `text` in UTF-8 bytes (the unit of the keyword field limit; `utf8ByteLength`). */
export function utf8Bytes(text: string): number {
  return utf8ByteLength(text);
}

/**
 * Words too common to count as keywords when comparing fields (Apple ignores connectors such as
 * 'and' and '&' in search; counting them would make every two titles overlap).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'app',
  'apps',
  'at',
  'by',
  'for',
  'from',
  'in',
  'into',
  'is',
  'it',
  'my',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
  'your',
  'you',
  '&',
  '+',
  '-',
]);

/**
 * Lower-cased words of `text` (letters and digits of any script; apostrophes kept inside
 * words), in order, repeats kept. Punctuation such as ':', ',', '&' and '-' separates words.
 */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? []).map((w) =>
    w.replace(/’/g, "'"),
  );
}

/** {@link words} without {@link STOP_WORDS}. */
export function keywordWords(text: string): string[] {
  return words(text).filter((w) => !STOP_WORDS.has(w));
}

/**
 * The singular form used to detect plural duplicates ('playlists' and 'playlist'): English
 * rules only ('-ies' -> '-y', '-ches/-shes/-xes/-zes/-sses' -> drop 'es', other '-s' -> drop
 * 's'; words of 3 letters or fewer and words ending in 'ss', 'us' or 'is' are kept). Apple's
 * search matches singular and plural forms, so having both wastes keyword bytes.
 */
export function singular(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(ches|shes|xes|zes|sses)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

/** Words of `text` deduplicated in first-seen order. */
export function uniqueWords(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/** Rounds to an integer and clamps to 0-100 (a score). */
export function clampScore(value: number): number {
  return Math.max(0, Math.min(100, Math.round(value)));
}

/** 'x' or 'x, y and z'. */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

/** '1 app' / '3 apps'. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
