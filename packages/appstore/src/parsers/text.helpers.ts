import { decodeHTML } from 'entities';

// U+200E/U+200F (left-to-right / right-to-left marks) and U+202A-U+202E (embedding controls):
// Apple puts them around names and titles for bidi display; they are invisible and break
// comparisons and length counts.
const BIDI_MARKS = /[\u200e\u200f\u202a-\u202e]/g;

/**
 * Normalises a store text: decodes HTML entities (`&amp;`, `&#8217;`, ...), strips bidi marks
 * (`\u200e` and friends) and trims. Inner line breaks are kept. Returns null for null,
 * undefined, non-strings and texts that are empty after cleaning.
 */
export function cleanText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = (value.includes('&') ? decodeHTML(value) : value).replace(BIDI_MARKS, '').trim();
  return text === '' ? null : text;
}

/** A finite number from a number or numeric string, else null. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.replace(/,/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** `value` as a plain object, else null. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** `value` as an array, else []. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Average rating 0-5 as the listing's text: rounded to at most 2 decimals, trailing zeros
 * dropped, so the source's own precision is kept below that (4.78043 -> '4.78', 4.8 -> '4.8',
 * 4 -> '4').
 */
export function formatRating(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** A rating count as the listing's text: rounded to an integer (counts may arrive as floats). */
export function formatCount(value: number): string {
  return String(Math.round(value));
}

/**
 * The chart position text of the documented categoryRank: '#<n> in <genre>' (the store's own
 * wording on the product page badge).
 */
export function formatChartPosition(position: number, genreName: string): string {
  return `#${position} in ${genreName}`;
}

/** A genre id as the store gives it (6007 or '6007'), as digits; null otherwise. */
export function genreIdOf(value: unknown): string | null {
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return /^\d{1,8}$/.test(text) ? text : null;
}
