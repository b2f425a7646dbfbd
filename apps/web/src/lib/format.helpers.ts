/**
 * Pure display helpers of the audit screens (docs/product.md#results-view and
 * #limits-and-constants). No I/O, no React.
 */

import { graphemeCount } from '@aso/contracts';

/**
 * Elapsed time in words, as the progress view's timer shows it: '0 s', '25 s', '1 min 25 s',
 * '75 min 0 s' (whole seconds, rounded down; minutes grow past 59). Negative input counts as 0.
 * Digits separated by colons ('00:01:25') read as a clock or as hours, not as a running time.
 */
export function formatElapsed(elapsedMs: number): string {
  const seconds = Math.floor(Math.max(0, elapsedMs) / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds} s` : `${minutes} min ${seconds % 60} s`;
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

/**
 * Characters after which a description is cut with "Read more"
 * (docs/product.md#limits-and-constants).
 */
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
