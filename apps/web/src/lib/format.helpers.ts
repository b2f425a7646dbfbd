/**
 * Pure display helpers of the audit screens (spec sections 2 and 9). No I/O, no React.
 */

import { graphemeCount } from '@aso/contracts';

/**
 * Elapsed time as `mm:ss:ms` (spec section 2: minutes:seconds:milliseconds), where the last
 * part is hundredths of a second (two digits; the view refreshes every 100 ms). Minutes grow
 * past 59 (`75:00:00`). Negative input counts as 0.
 */
export function formatElapsed(elapsedMs: number): string {
  const ms = Math.max(0, Math.floor(elapsedMs));
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  const hundredths = Math.floor((ms % 1000) / 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(minutes)}:${pad(seconds)}:${pad(hundredths)}`;
}

/**
 * A duration in ms as '3 min 40 sec', '1 min', '45 sec', '0 min' for none, or 'under 1 sec'
 * for a positive duration that rounds to 0 (so a finished audit never reads '0 min').
 */
export function formatDuration(durationMs: number): string {
  const total = Math.max(0, Math.round(durationMs / 1000));
  const min = Math.floor(total / 60);
  const sec = total % 60;
  if (min === 0 && sec === 0) return durationMs > 0 ? 'under 1 sec' : '0 min';
  if (min === 0) return `${sec} sec`;
  return sec === 0 ? `${min} min` : `${min} min ${sec} sec`;
}

/**
 * Fill of five rating stars, each 0-1: `4.78` -> `[1, 1, 1, 1, 0.78]`. Accepts the audit's
 * rating string; anything unparsable or outside 0-5 is clamped (unparsable -> all 0).
 */
export function starFills(rating: number | string | null | undefined): number[] {
  const n = typeof rating === 'number' ? rating : Number.parseFloat(rating ?? '');
  const value = Number.isFinite(n) ? Math.min(5, Math.max(0, n)) : 0;
  return [0, 1, 2, 3, 4].map((i) => Math.round(Math.min(1, Math.max(0, value - i)) * 100) / 100);
}

/** A rating string shown with one decimal ('4.78' -> '4.8'); '–' when it is not a number. */
export function formatRating(rating: number | string | null | undefined): string {
  const n = typeof rating === 'number' ? rating : Number.parseFloat(rating ?? '');
  return Number.isFinite(n) ? n.toFixed(1) : '–';
}

/** Characters after which a description is cut with "Read more" (spec section 9). */
export const DESCRIPTION_PREVIEW_CHARS = 300;

/**
 * The collapsed form of a description: the whole text when it has at most `limit` characters
 * (code points), else the first `limit` characters, trimmed at the end, followed by '…'.
 * `truncated` tells whether "Read more" is needed.
 */
export function previewText(
  text: string,
  limit = DESCRIPTION_PREVIEW_CHARS,
): { text: string; truncated: boolean } {
  const chars = Array.from(text);
  if (chars.length <= limit) return { text, truncated: false };
  return { text: `${chars.slice(0, limit).join('').trimEnd()}…`, truncated: true };
}

/**
 * Length in characters as the storefront shows them (grapheme clusters: a CJK character or an
 * emoji sequence counts once), the measure of Apple's name and subtitle limits.
 */
export function charCount(text: string | null | undefined): number {
  return graphemeCount(text ?? '');
}
